"""Our state is the person's alone: the folder 0700, every file 0600, whichever of our
programs makes it first; a looser one of ours is tightened, another user's refused, and a
device named as a log path (``/dev/null``) is used untouched."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from amplifier_module_ah_logging.writer import JsonlWriter

from amplifier_hooks.approvals.store.records import ApprovalStoreError
from amplifier_hooks.approvals.store.sqlite import ApprovalStore
from amplifier_hooks.private import PrivateStateError, private_dir, private_file, state_home
from tests.hosts.support import ROOT, fixture

NOBODY = 65534


def mode(path: Path | str) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def loose_umask() -> object:
    """The usual umask (022), under which a file made without a mode is 0644."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_hook_call_makes_every_state_file_private(tmp_path: Path) -> None:
    """The first of our programs to run is a hook call, with the usual umask: the state
    folder and everything in it are private."""
    home = tmp_path / "home"
    home.mkdir()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "AMPLIFIER_"))},
        "HOME": str(home),
    }
    payload = {**fixture("claude-code", "PreToolUse"), "tool_input": {"command": "git status"}}
    hook = ["claude-code", "hook", "--no-daemon", "--bundle", str(ROOT / "bundles" / "default.md")]
    done = subprocess.run(
        [sys.executable, "-m", "amplifier_hooks.cli", *hook],
        input=json.dumps(payload).encode(),
        capture_output=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
        check=False,
        preexec_fn=lambda: os.umask(0o022),
    )
    assert done.returncode == 0, done.stderr.decode()
    state = home / ".local" / "state" / "amplifier-hooks"
    assert mode(state) == 0o700
    files = sorted(p.name for p in state.iterdir())
    assert "hooks-events.jsonl" in files, files
    for name in files:
        assert mode(state / name) == 0o600, (name, oct(mode(state / name)))


def test_the_approvals_database_and_its_journal_are_private(
    tmp_path: Path, loose_umask: object
) -> None:
    path = tmp_path / "approvals.db"
    store = ApprovalStore(path)
    store.check()
    try:
        assert {p.name for p in tmp_path.iterdir()} >= {"approvals.db", "approvals.db-wal"}
        for made in tmp_path.iterdir():
            assert mode(made) == 0o600, made.name
    finally:
        store.close()


def test_a_loose_store_of_ours_is_tightened(tmp_path: Path) -> None:
    path = tmp_path / "approvals.db"
    path.touch(mode=0o644)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").touch(mode=0o644)
    os.chmod(path, 0o644)
    store = ApprovalStore(path)
    store.check()
    store.close()
    for made in tmp_path.iterdir():
        assert mode(made) == 0o600, made.name


def test_the_event_log_and_its_folder_are_made_private(
    tmp_path: Path, loose_umask: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    log = Path(state_home()) / "hooks-events.jsonl"
    writer = JsonlWriter(log)
    assert writer.write("tool:pre", tool_name="bash")
    writer.close()
    assert mode(log.parent) == 0o700
    assert mode(log) == 0o600


def test_a_loose_state_folder_and_log_of_ours_are_tightened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    folder = Path(state_home())
    folder.mkdir(parents=True)
    os.chmod(folder, 0o755)
    log = folder / "hooks-events.jsonl"
    log.write_text("")
    os.chmod(log, 0o644)
    writer = JsonlWriter(log)
    writer.close()
    assert mode(folder) == 0o700
    assert mode(log) == 0o600


def test_another_users_log_or_store_is_refused(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs.jsonl"
    theirs.write_text("")
    db = tmp_path / "theirs.db"
    db.write_text("")
    if os.getuid() == 0:
        os.chown(theirs, NOBODY, NOBODY)
        os.chown(db, NOBODY, NOBODY)
    else:  # a file root owns stands for another user's
        theirs = db = Path("/etc/hostname")
    with pytest.raises(PrivateStateError, match="belongs to user id"):
        os.close(private_file(theirs))
    store = ApprovalStore(db)
    with pytest.raises(ApprovalStoreError, match="belongs to user id"):
        store.check()
    store.close()


def test_another_users_state_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "state"
    folder.mkdir(mode=0o755)
    if os.getuid() == 0:
        os.chown(folder, NOBODY, NOBODY)
    else:
        folder = Path("/etc")
    with pytest.raises(PrivateStateError, match="not to you"):
        private_dir(folder)
    assert mode(folder) == 0o755


def test_a_log_path_of_dev_null_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: the log opened on /dev/null once chmod'ed it. Any change of mode is
    refused here, before it can reach the device, and the device's mode is the same after."""
    before = os.stat(os.devnull)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a mode was changed: {args}")

    monkeypatch.setattr(os, "chmod", refuse)
    monkeypatch.setattr(os, "fchmod", refuse)
    writer = JsonlWriter(Path(os.devnull))
    assert writer.write("tool:pre", tool_name="bash")
    writer.close()
    after = os.stat(os.devnull)
    assert (after.st_mode, after.st_uid) == (before.st_mode, before.st_uid)
