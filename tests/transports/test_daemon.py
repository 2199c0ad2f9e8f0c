"""Command hooks that keep module state: each `amplifier-hooks claude-code hook` is its own
process, as Claude Code runs it, and relays to the workspace's server it starts on first
use. Real processes throughout; waits are on processes and sockets, never on sleeps."""

from __future__ import annotations

import ast
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import amplifier_hooks
from amplifier_hooks.hosts.launch import START_FLAGS
from amplifier_hooks.testing.servers import server_pid, stop_hook_servers, wait_exited
from amplifier_hooks.transports.relay.place import socket_path
from tests.transports.processes import WAIT, answer_of, hook, servers_on
from tests.transports.support import (
    bash,
    context,
    decision,
    gate_hooks,
    monitor_hooks,
    read,
    write_bundle,
)


class Place:
    """A workspace, a runtime directory short enough for socket paths, and the
    environment Claude Code would run its hooks with."""

    def __init__(self, tmp_path: Path) -> None:
        self.runtime = Path(tempfile.mkdtemp(prefix="ah-", dir="/tmp"))
        self.workspace = tmp_path / "workspace"
        self.workspace.mkdir()
        self.env = {
            **os.environ,
            "XDG_RUNTIME_DIR": str(self.runtime),
            "CLAUDE_PROJECT_DIR": str(self.workspace),
        }

    def socket(self, bundle: Path) -> Path:
        return Path(socket_path(str(bundle), str(self.workspace), self.env))


@pytest.fixture
def place(tmp_path: Path) -> Iterator[Place]:
    made = Place(tmp_path)
    try:
        yield made
    finally:
        stop_hook_servers(made.runtime)
        shutil.rmtree(made.runtime, ignore_errors=True)


def test_module_state_lasts_across_hook_processes(place: Place, tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, monitor_hooks(threshold=2))
    first = hook(bundle, read("s1"), place.env, place.workspace)
    other = hook(bundle, read("s2"), place.env, place.workspace)
    second = hook(bundle, read("s1"), place.env, place.workspace)
    assert [p.returncode for p in (first, other, second)] == [0, 0, 0], second.stderr
    assert (answer_of(first), answer_of(other)) == (None, None)
    nudge = context(answer_of(second)) or ""
    assert nudge.startswith("Progress check: 2 read-only tool calls in a row")
    assert stat_mode(place.socket(bundle)) == 0o600
    assert stat_mode(place.socket(bundle).parent) == 0o700


def stat_mode(path: Path) -> int:
    return os.stat(path).st_mode & 0o777


def test_no_daemon_answers_in_process_and_forgets(place: Place, tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, monitor_hooks(threshold=2))
    answers = [
        hook(bundle, read("s1"), place.env, place.workspace, "--no-daemon") for _ in range(2)
    ]
    assert [answer_of(a) for a in answers] == [None, None]
    assert not place.socket(bundle).exists()


def test_a_deny_comes_back_through_the_server(place: Place, tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, gate_hooks(tmp_path, tmp_path / "record"))
    done = hook(bundle, bash("rm -rf /"), place.env, place.workspace)
    assert done.returncode == 0
    assert decision(answer_of(done)) == ("deny", "rm is not allowed here")
    assert hook(bundle, bash("ls"), place.env, place.workspace).stdout == ""
    # The same server answers the other hosts, each on its own route.
    codex = hook(bundle, bash("rm -rf /"), place.env, place.workspace, host="codex")
    assert decision(answer_of(codex)) == ("deny", "rm is not allowed here")
    gemini = {**bash("rm -rf /"), "hook_event_name": "BeforeTool", "tool_name": "run_shell_command"}
    answer = answer_of(hook(bundle, gemini, place.env, place.workspace, host="gemini")) or {}
    assert (answer["decision"], answer["reason"]) == ("deny", "rm is not allowed here")
    assert servers_on(place.socket(bundle)) == [server_pid(place.socket(bundle))]


def test_a_stale_socket_is_replaced(place: Place, tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, monitor_hooks(threshold=2))
    path = place.socket(bundle)
    path.parent.mkdir(mode=0o700, parents=True)
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(path))  # a server that died: its socket file stays, nobody listens
    dead.close()
    with pytest.raises(ConnectionRefusedError):
        server_pid(path)
    first = hook(bundle, read("s1"), place.env, place.workspace)
    second = hook(bundle, read("s1"), place.env, place.workspace)
    assert first.returncode == 0, first.stderr
    assert context(answer_of(second)) is not None
    assert servers_on(path) == [server_pid(path)]


def test_a_server_exits_when_idle_and_the_next_call_starts_another(
    place: Place, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path, monitor_hooks(threshold=2))
    path = place.socket(bundle)
    hook(bundle, read("s1"), place.env, place.workspace, "--idle-exit", "0.2")
    try:
        pid: int | None = server_pid(path)
    except OSError:  # a busy machine let its 0.2 s pass before we asked: already gone
        pid = None
    if pid is not None:
        assert wait_exited(pid, WAIT)
    for _ in range(int(WAIT / 0.01)):  # the unlink comes just after the listener closes
        if not servers_on(path):
            break
        time.sleep(0.01)
    assert servers_on(path) == []
    assert not path.exists()  # it removed its socket on the way out
    # The state went with it; the next call starts a fresh server.
    again = hook(bundle, read("s1"), place.env, place.workspace)
    assert again.returncode == 0 and answer_of(again) is None
    assert server_pid(path) != pid


def test_concurrent_first_calls_start_one_server(place: Place, tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, monitor_hooks(threshold=4))
    with ThreadPoolExecutor(4) as pool:
        done = list(
            pool.map(lambda _: hook(bundle, read("s1"), place.env, place.workspace), range(4))
        )
    assert [d.returncode for d in done] == [0, 0, 0, 0], [d.stderr for d in done]
    nudges = [context(answer_of(d)) for d in done]
    log = place.socket(bundle).with_suffix(".log").read_text()
    # One server saw all four reads of the session: exactly one reached the threshold.
    assert sum(1 for n in nudges if n) == 1, (nudges, [d.stdout for d in done], log)
    assert servers_on(place.socket(bundle)) == [server_pid(place.socket(bundle))], log


def test_a_bundle_changed_on_disk_is_used_by_the_running_server(
    place: Place, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path, monitor_hooks())
    assert hook(bundle, bash("rm -rf /"), place.env, place.workspace).stdout == ""
    pid = server_pid(place.socket(bundle))
    write_bundle(tmp_path, gate_hooks(tmp_path, tmp_path / "record"))
    os.utime(bundle, ns=(1, 1))
    # The server looks at the file at most every CHECK_EVERY seconds: ask until it has.
    for _ in range(200):
        done = hook(bundle, bash("rm -rf /"), place.env, place.workspace)
        if done.stdout:
            break
    assert decision(answer_of(done)) == ("deny", "rm is not allowed here")
    assert server_pid(place.socket(bundle)) == pid


def test_a_server_that_cannot_start_blocks_the_call(place: Place, tmp_path: Path) -> None:
    bundle = tmp_path / "broken.yaml"
    bundle.write_text("hooks: [this is not a bundle")
    done = hook(bundle, bash("ls"), place.env, place.workspace)
    assert done.returncode == 0
    verdict, reason = decision(answer_of(done)) or ("", "")
    assert verdict == "deny"
    assert reason.startswith(
        "amplifier-hooks could not check this call, so it is blocked: the hook server is "
        "unavailable: the hook server exited (2) before it was ready: error:"
    )
    assert str(place.socket(bundle).with_suffix(".log")) in reason


def test_a_runtime_directory_others_can_enter_blocks_the_call(place: Place, tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, monitor_hooks())
    directory = place.socket(bundle).parent
    directory.mkdir(mode=0o755, parents=True)
    directory.chmod(0o755)
    done = hook(bundle, bash("ls"), place.env, place.workspace)
    verdict, reason = decision(answer_of(done)) or ("", "")
    assert verdict == "deny"
    assert f"{directory} can be entered by other users (mode 755)" in reason
    assert not place.socket(bundle).exists()


def test_a_non_guarding_event_is_not_blocked_when_the_server_fails(
    place: Place, tmp_path: Path
) -> None:
    bundle = tmp_path / "broken.yaml"
    bundle.write_text("hooks: [this is not a bundle")
    done = hook(bundle, read("s1"), place.env, place.workspace)
    answer = answer_of(done) or {}
    assert done.returncode == 0
    assert answer["systemMessage"].startswith("amplifier-hooks could not check this event:")


def test_the_fast_path_imports_none_of_the_heavy_parts(place: Place, tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, gate_hooks(tmp_path, tmp_path / "record"))
    hook(bundle, bash("ls"), place.env, place.workspace)  # the server runs now
    # As the installed command starts it (-S -P, its package appended to the path).
    probe = (
        "import sys\n"
        f"sys.path.append({str(Path(amplifier_hooks.__file__).parents[1])!r})\n"
        "from amplifier_hooks.cli import main\n"
        f"code = main(['claude-code', 'hook', '--bundle', {str(bundle)!r}])\n"
        "heavy = ('json', 're', 'typing', 'socket', 'enum', 'selectors', 'site')\n"
        "print(sorted(m for m in sys.modules if m in heavy or m.startswith(('amplifier_hooks',"
        " 'pydantic', 'aiohttp', 'yaml', 'asyncio', 'subprocess'))))\n"
    )
    done = subprocess.run(
        [sys.executable, *START_FLAGS, "-c", probe],
        input='{"session_id": "s1", "cwd": "/tmp", "hook_event_name": "PreToolUse",'
        ' "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}',
        capture_output=True,
        text=True,
        env=place.env,
        cwd=place.workspace,
        timeout=120,
        check=True,
    )
    answer, loaded = done.stdout.strip().splitlines()
    assert '"permissionDecision": "deny"' in answer
    assert ast.literal_eval(loaded) == [  # a printed list of module names
        "amplifier_hooks",
        "amplifier_hooks.cli",
        "amplifier_hooks.host_commands",  # the host list, one tuple
        "amplifier_hooks.transports",
        "amplifier_hooks.transports.relay",
        "amplifier_hooks.transports.relay.client",
        "amplifier_hooks.transports.relay.command",
        "amplifier_hooks.transports.relay.place",
        "amplifier_hooks.transports.relay.wire",
    ]
