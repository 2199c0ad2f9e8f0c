"""The relay client's choices between asking again and starting a server, against a
socket server that behaves like ours while it is stopping."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from amplifier_hooks.hosts.launch import hook_argv
from amplifier_hooks.testing.servers import stop_hook_servers
from amplifier_hooks.transports.relay.client import RelayAnswer, RelayError, relay
from amplifier_hooks.transports.relay.place import socket_path


@pytest.fixture
def place(tmp_path: Path) -> Iterator[tuple[dict[str, str], Path, Path]]:
    runtime = Path(tempfile.mkdtemp(prefix="ah-", dir="/tmp"))
    env = {"XDG_RUNTIME_DIR": str(runtime)}
    bundle = tmp_path / "bundle.yaml"
    bundle.write_text("bundle: {name: t}\n")
    path = Path(socket_path(str(bundle), str(tmp_path), env))
    path.parent.mkdir(mode=0o700)
    try:
        yield env, bundle, path
    finally:
        for leftover in path.parent.iterdir():
            leftover.unlink()
        path.parent.rmdir()
        runtime.rmdir()


def serve_script(path: Path, answers: list[bytes | None]) -> threading.Thread:
    """Accept one connection per entry: None closes it unanswered, bytes answer it."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(8)

    def run() -> None:
        with listener:
            for answer in answers:
                connection, _ = listener.accept()
                with connection:
                    connection.recv(65536)
                    if answer is not None:
                        head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(answer)}\r\n\r\n"
                        connection.sendall(head.encode() + answer)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


ANSWER = RelayAnswer({"decision": "block", "reason": "r"}, 0, "").body().decode()


def test_a_dropped_connection_is_asked_again_not_replaced(
    place: tuple[dict[str, str], Path, Path],
) -> None:
    env, bundle, path = place
    thread = serve_script(path, [None, ANSWER.encode()])
    answer = relay("claude-code", str(bundle), str(bundle.parent), b"{}", environ=env)
    thread.join()
    assert answer == RelayAnswer({"decision": "block", "reason": "r"}, 0, "")
    assert not path.with_suffix(".log").exists()  # no server was started


def test_a_server_that_keeps_dropping_is_an_error_not_a_second_server(
    place: tuple[dict[str, str], Path, Path],
) -> None:
    env, bundle, path = place
    thread = serve_script(path, [None, None, None])
    with pytest.raises(RelayError, match="closed the connection without answering, 3 times"):
        relay("claude-code", str(bundle), str(bundle.parent), b"{}", environ=env)
    thread.join()
    assert not path.with_suffix(".log").exists()


def test_an_answer_that_is_not_ours_is_an_error(
    place: tuple[dict[str, str], Path, Path],
) -> None:
    env, bundle, path = place
    thread = serve_script(path, [b'{"output": "yes"}'])
    with pytest.raises(RelayError, match="sent an unreadable answer"):
        relay("claude-code", str(bundle), str(bundle.parent), b"{}", environ=env)
    thread.join()
    assert os.path.exists(path)


def test_nothing_is_imported_from_the_project_folder(
    place: tuple[dict[str, str], Path, Path], tmp_path: Path
) -> None:
    """The hook process and the server it starts both run in the project's folder; a
    ``json.py`` there (any module of the project) is never what they import."""
    env, bundle, _ = place
    project = tmp_path / "project"
    project.mkdir()
    trap = project / "hijacked"
    for name in ("json.py", "socket.py", "amplifier_hooks.py"):
        (project / name).write_text(f"open({str(trap)!r}, 'a').write({name!r})\n")
    argv = hook_argv(sys.executable, "claude-code", bundle)
    payload = json.dumps({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "."})
    done = subprocess.run(
        argv,
        input=payload,
        capture_output=True,
        text=True,
        cwd=project,
        env={**os.environ, **env, "CLAUDE_PROJECT_DIR": str(project)},
        timeout=120,
        check=False,
    )
    try:
        assert done.returncode in (0, 2), done.stderr
        assert not trap.exists(), trap.read_text()
    finally:
        stop_hook_servers(Path(env["XDG_RUNTIME_DIR"]))
