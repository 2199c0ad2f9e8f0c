"""The relay client's choices between asking again and starting a server, against a
socket server that behaves like ours while it is stopping."""

from __future__ import annotations

import os
import socket
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

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
