"""The command hook trusts only a server of its own user, in a folder of its own user,
and blocks in the host's way whatever goes wrong on its side (issue 26, findings 1 and 5).

Another local user is a real second uid (see `tests.transports.other_user`); the hook is the
real command, run as Claude Code runs it.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from amplifier_hooks.testing.servers import stop_hook_servers
from amplifier_hooks.transports.relay.place import socket_path
from tests.transports.other_user import Impostor, other_user
from tests.transports.processes import answer_of, hook
from tests.transports.support import bash, decision, monitor_hooks, write_bundle


class Shared:
    """A runtime folder that every user may write to (sticky, like /tmp: where the
    socket goes without $XDG_RUNTIME_DIR and with a long home path)."""

    def __init__(self, tmp_path: Path) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="ah-", dir="/tmp"))
        self.root.chmod(0o1777)
        self.workspace = tmp_path / "workspace"
        self.workspace.mkdir()
        self.env = {
            **os.environ,
            "XDG_RUNTIME_DIR": str(self.root),
            "CLAUDE_PROJECT_DIR": str(self.workspace),
        }
        self.bundle = write_bundle(tmp_path, monitor_hooks())

    @property
    def socket(self) -> Path:
        return Path(socket_path(str(self.bundle), str(self.workspace), self.env))


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[Shared]:
    made = Shared(tmp_path)
    try:
        yield made
    finally:
        stop_hook_servers(made.root)
        shutil.rmtree(made.root, ignore_errors=True)


def blocked(done: object) -> str:
    """The deny reason the host reads; fails unless the call was blocked cleanly."""
    assert getattr(done, "returncode", None) in (0, 2), done
    assert "Traceback" not in getattr(done, "stderr", ""), done
    verdict, reason = decision(answer_of(done)) or ("", "")  # type: ignore[arg-type]
    assert verdict == "deny", done
    return reason


def test_a_folder_and_server_of_another_user_are_not_trusted(shared: Shared) -> None:
    user = other_user()
    impostor = Impostor(user, shared.socket, folder=shared.socket.parent)
    try:
        done = hook(shared.bundle, bash("rm -rf ~"), shared.env, shared.workspace)
        heard = impostor.heard()
    finally:
        impostor.stop()
    reason = blocked(done)
    assert f"{shared.socket.parent} belongs to user id {user[0]}, not to you" in reason
    assert "injected by another user" not in done.stdout
    assert heard == b""  # the hook input never reached the other user


def test_a_socket_of_another_user_in_our_own_folder_is_not_trusted(shared: Shared) -> None:
    user = other_user()
    theirs = Path(tempfile.mkdtemp(prefix="ah-other-", dir="/tmp"))
    os.chown(theirs, *user)
    impostor = Impostor(user, theirs / "s.sock")
    try:
        # Only the kernel's word on the listener tells it apart: our folder, our file.
        shared.socket.parent.mkdir(mode=0o700)
        os.rename(theirs / "s.sock", shared.socket)
        os.chown(shared.socket, os.getuid(), os.getgid())
        done = hook(shared.bundle, bash("rm -rf ~"), shared.env, shared.workspace)
        heard = impostor.heard()
    finally:
        impostor.stop()
        shutil.rmtree(theirs, ignore_errors=True)
    reason = blocked(done)
    assert f"runs as user id {user[0]}, not as you: nothing was sent to it" in reason
    assert heard == b""


def test_a_symlinked_folder_is_not_trusted(shared: Shared, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    shared.socket.parent.symlink_to(elsewhere)
    reason = blocked(hook(shared.bundle, bash("ls"), shared.env, shared.workspace))
    assert f"{shared.socket.parent} is not a directory (a symlink?)" in reason


@pytest.mark.parametrize("what", [".sock", ".lock", ".log"])
def test_a_path_of_the_relay_that_is_a_directory_blocks(shared: Shared, what: str) -> None:
    shared.socket.parent.mkdir(mode=0o700)
    shared.socket.with_suffix(what).mkdir()
    reason = blocked(hook(shared.bundle, bash("ls"), shared.env, shared.workspace))
    assert reason.startswith("amplifier-hooks could not check this call, so it is blocked:")
    assert "s a directory" in reason  # "Is a directory" / "is a directory"


def _without_dac_override() -> None:
    """In the hook's process: root's power to write where the mode says no goes, so a
    read-only folder is read-only to it as to anyone."""
    libc = ctypes.CDLL(None, use_errno=True)
    pr_capbset_drop, cap_dac_override, cap_dac_read_search = 24, 1, 2
    for cap in (cap_dac_override, cap_dac_read_search):
        if libc.prctl(pr_capbset_drop, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def test_a_read_only_runtime_folder_blocks(shared: Shared) -> None:
    import subprocess

    from tests.transports.processes import COMMAND, WAIT

    shared.socket.parent.mkdir(mode=0o700)
    shared.socket.parent.chmod(0o500)
    try:
        done = subprocess.run(
            [COMMAND, "claude-code", "hook", "--bundle", str(shared.bundle)],
            input=json_of(bash("ls")),
            capture_output=True,
            text=True,
            env=shared.env,
            cwd=shared.workspace,
            timeout=WAIT * 2,
            check=False,
            preexec_fn=_without_dac_override if os.geteuid() == 0 else None,
        )
    finally:
        shared.socket.parent.chmod(0o700)
    reason = blocked(done)
    assert "Permission denied" in reason


def json_of(payload: object) -> str:
    import json

    return json.dumps(payload)
