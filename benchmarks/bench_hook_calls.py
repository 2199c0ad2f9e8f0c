"""What one hook call costs, by transport and by agent CLI, next to the floor of each.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_hook_calls

- Command hook, warm server: the whole process a host starts per call, reading the call
  on stdin and relaying it to the workspace's server, which is already running. Baseline:
  ``python -c pass``, the same interpreter, started the same way; beside it ``python -S
  -P -c pass``, the interpreter started as the installed hook starts it (no `site`:
  `amplifier_hooks.cli.hook_start`), the floor of what our own work costs. Also timed:
  ``python -m amplifier_hooks.cli claude-code hook --bundle B`` (what ``install`` wrote
  before, with `site`; target at most 2x) and the ``amplifier-hooks`` console script.
- The same for every host in `amplifier_hooks.hosts.HOSTS`, as ``install`` writes it
  (`amplifier_hooks.hosts.launch.hook_argv`): the host's own guarded call for ``true``
  (`HostProfile.probe`), inside the fail-closed ``sh`` wrapper for the hosts that get one
  (Codex, Gemini CLI, Copilot CLI, Cline). Target: the slowest host at most 1.5x ``python -c
  pass``.
- HTTP hook: one ``POST /claude-code`` on a keep-alive connection to ``amplifier-hooks
  serve``, against a bare stdlib HTTP server (``http.server``, HTTP/1.1) answering
  ``{}`` to the same request in its own process. Target: at most 3x.

Every row is timed in the same run, taking turns, so a busy moment hits them alike; the
table shows the median. The call is a ``PreToolUse`` of ``Read`` that no policy matches
(the answer is empty: go ahead). The bundle is bundles/default.md (an event log with
redaction, approvals, the progress monitor), and, to tell the transport's cost from the
modules' work, a bundle with no hooks at all. Byte-compiled files
are written first (``PYTHONDONTWRITEBYTECODE`` is dropped for the children), as an
installed package has them.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import platform
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from amplifier_hooks.hosts.launch import START_FLAGS
from amplifier_hooks.testing.servers import stop_hook_servers
from benchmarks._targets import add_smoke, target

ROOT = Path(__file__).resolve().parents[1]
BUNDLE = ROOT / "bundles" / "default.md"
COMMAND = str(Path(sys.executable).parent / "amplifier-hooks")
TOKEN = "b" * 32
FLOOR = f"`python {' '.join(START_FLAGS)} -c pass` (how the hook's interpreter starts)"

PAYLOAD = json.dumps(
    {
        "session_id": "bench",
        "transcript_path": "/tmp/bench.jsonl",
        "cwd": "/tmp",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": "/tmp/bench/README.md"},
        "tool_use_id": "toolu_bench",
    }
).encode()

_BARE_SERVER = """
import http.server, sys
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        body = b"{}"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"""


def _environment(runtime: Path, workspace: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(
        XDG_RUNTIME_DIR=str(runtime),
        CLAUDE_PROJECT_DIR=str(workspace),
        AMPLIFIER_HOOKS_TOKEN=TOKEN,
        AMPLIFIER_HOOKS_LOG=str(workspace / "events.jsonl"),
    )
    return env


def _process(
    argv: list[str], env: dict[str, str], cwd: Path, payload: bytes = PAYLOAD
) -> Callable[[], float]:
    def run() -> float:
        started = time.perf_counter()
        done = subprocess.run(argv, input=payload, stdout=subprocess.DEVNULL, env=env, cwd=cwd)
        if done.returncode not in (0, 2):  # 2: a host's block, still an answer
            raise RuntimeError(f"{argv[:6]} exited {done.returncode}")
        return time.perf_counter() - started

    return run


def _host_rows(env: dict[str, str], workspace: Path) -> dict[str, Callable[[], float]]:
    """One row per host: its probe call through the command ``install`` writes."""
    from amplifier_hooks.host_commands import EVENT_ARGUMENT_HOSTS
    from amplifier_hooks.hosts import HOSTS
    from amplifier_hooks.hosts.launch import hook_argv
    from amplifier_hooks.hosts.wrapper import fail_closed_command

    rows = {}
    for adapter in HOSTS:
        profile = adapter.profile
        argv = hook_argv(sys.executable, profile.command, BUNDLE)
        if profile.command in EVENT_ARGUMENT_HOSTS:
            argv += ["--event", profile.probe_event]
        how = "as installed"
        if profile.wraps_command:
            argv = shlex.split(fail_closed_command(profile, argv, profile.timeouts.ours))
            how = "in the sh wrapper"
        payload = json.dumps({**profile.probe, "cwd": str(workspace)}).encode()
        rows[f"{profile.title}: `{profile.command} hook`, {how}"] = _process(
            argv, env, workspace, payload
        )
    return rows


def _http(
    port: int, path: str, headers: dict[str, str], body: bytes = PAYLOAD
) -> tuple[Callable[[], float], Callable[[], None]]:
    connection = http.client.HTTPConnection("127.0.0.1", port)
    sent = {"Content-Type": "application/json", **headers}

    def call() -> float:
        started = time.perf_counter()
        connection.request("POST", path, body, sent)
        response = connection.getresponse()
        response.read()
        elapsed = time.perf_counter() - started
        if response.status != 200:
            raise RuntimeError(f"{path} answered {response.status}")
        return elapsed

    return call, connection.close


@contextlib.contextmanager
def _server(argv: list[str], env: dict[str, str], cwd: Path, ready: str) -> Iterator[str]:
    """Start a server process; the line it says ``ready`` in. Stopped with SIGTERM."""
    with _server_process(argv, env, cwd, ready) as (line, _):
        yield line


@contextlib.contextmanager
def _server_process(
    argv: list[str], env: dict[str, str], cwd: Path, ready: str
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`_server`, and its process (to read the CPU time it used)."""
    process = subprocess.Popen(
        argv, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    stream = process.stdout if ready == "" else process.stderr
    assert stream is not None
    try:
        for line in stream:
            if ready in line:
                yield line, process
                break
        else:
            raise RuntimeError(
                f"{argv[0]} did not start: {process.stderr.read() if process.stderr else ''}"
            )
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(60)


def _cpu_seconds(pid: int) -> float | None:
    """CPU time process ``pid`` has used, every thread, to the nanosecond (the scheduler's
    own count, ``/proc/PID/task/*/schedstat``; utime and stime count 10 ms ticks); None
    where ``/proc`` does not say (not Linux)."""
    try:
        threads = os.listdir(f"/proc/{pid}/task")
        total = 0
        for thread in threads:
            with open(f"/proc/{pid}/task/{thread}/schedstat", encoding="ascii") as stat:
                total += int(stat.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return total / 1e9


def _port(line: str) -> int:
    """The port in serve's "listening on http://127.0.0.1:PORT: ..." line."""
    return int(line.split()[2].rstrip(":").rsplit(":", 1)[1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="calls per row")
    add_smoke(parser)
    args = parser.parse_args(argv)
    if args.smoke:
        args.rounds = 1

    runtime = Path(tempfile.mkdtemp(prefix="ah-bench-", dir="/tmp"))
    workspace = Path(tempfile.mkdtemp(prefix="ah-bench-ws-"))
    env = _environment(runtime, workspace)
    python = sys.executable
    command_rows: dict[str, Callable[[], float]] = {
        "`python -c pass`": _process([python, "-c", "pass"], env, workspace),
        FLOOR: _process([python, *START_FLAGS, "-c", "pass"], env, workspace),
        "`python -m amplifier_hooks.cli claude-code hook`": _process(
            [python, "-m", "amplifier_hooks.cli", "claude-code", "hook", "--bundle", str(BUNDLE)],
            env,
            workspace,
        ),
        "`amplifier-hooks claude-code hook`": _process(
            [COMMAND, "claude-code", "hook", "--bundle", str(BUNDLE)], env, workspace
        ),
        **_host_rows(env, workspace),
    }
    try:
        for run in command_rows.values():
            run()  # writes the byte code; the first hook call starts the server
        empty = workspace / "empty.yaml"
        empty.write_text("bundle: {name: empty}\nhooks: []\n")
        serve_argv = [COMMAND, "serve", "--port", "0", "--bundle"]
        auth = {"Authorization": f"Bearer {TOKEN}"}
        with (
            _server([python, "-c", _BARE_SERVER], env, workspace, "") as bare_line,
            _server([*serve_argv, str(BUNDLE)], env, workspace, "listening on") as serve_line,
            _server([*serve_argv, str(empty)], env, workspace, "listening on") as empty_line,
        ):
            bare, close_bare = _http(int(bare_line.strip()), "/claude-code", {})
            served, close_served = _http(_port(serve_line), "/claude-code", auth)
            served_empty, close_empty = _http(_port(empty_line), "/claude-code", auth)
            http_rows = {
                "bare `http.server` answering `{}`": bare,
                "`amplifier-hooks serve`, bundle with no hooks": served_empty,
                "`amplifier-hooks serve`, bundles/default.md": served,
            }
            for call in http_rows.values():
                for _ in range(20):
                    call()  # warm: the session's coordinator is built on its first call
            times: dict[str, list[float]] = {name: [] for name in [*command_rows, *http_rows]}
            for _ in range(args.rounds):
                for name, run in {**command_rows, **http_rows}.items():
                    times[name].append(run())
            for close in (close_bare, close_served, close_empty):
                close()
    finally:
        stop_hook_servers(runtime)
        shutil.rmtree(runtime, ignore_errors=True)
        shutil.rmtree(workspace, ignore_errors=True)

    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}; "
        f"median of {args.rounds} calls per row, rows taking turns"
    )
    _table("command hook, warm server (whole process)", list(command_rows), times)
    _table("HTTP hook, keep-alive connection (one request)", list(http_rows), times)
    print()
    command, served = list(command_rows), list(http_rows)
    target(
        "`python -m amplifier_hooks.cli claude-code hook` / `python -c pass`:",
        _ratio(times, command[2], command[0]),
        2,
    )
    hosts = command[4:]
    slowest = max(hosts, key=lambda name: statistics.median(times[name]))
    print(f"slowest host: {slowest}; {_ratio(times, slowest, FLOOR):.2f}x {FLOOR.split(' (')[0]}")
    target(
        "every host's command hook, as installed / `python -c pass`:",
        _ratio(times, slowest, command[0]),
        1.5,
    )
    target("HTTP hook / bare `http.server`:", _ratio(times, served[2], served[0]), 3)


def _ratio(times: dict[str, list[float]], row: str, baseline: str) -> float:
    return statistics.median(times[row]) / statistics.median(times[baseline])


def _table(title: str, names: list[str], times: dict[str, list[float]]) -> None:
    baseline = statistics.median(times[names[0]])
    print()
    print(f"| {title} | median ms | min ms | max ms | / baseline |")
    print("|---|---:|---:|---:|---:|")
    for name in names:
        runs = times[name]
        median = statistics.median(runs)
        print(
            f"| {name} | {median * 1e3:.2f} | {min(runs) * 1e3:.2f} "
            f"| {max(runs) * 1e3:.2f} | {median / baseline:.2f}x |"
        )


if __name__ == "__main__":
    main()
