"""Placing paths: the quick way for a plain path in the workspace gives what the full
resolution gives, symlinks included, and the places that tell workspace paths apart
(a protected file, ``$TMPDIR``) still do."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard import Places, judge, load_pack
from amplifier_hooks.guard.model import read_tmpdir
from amplifier_hooks.guard.paths import locate
from amplifier_hooks.guard.policy import judge_pieces, pieces_for


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("home")
    ssh = home / ".ssh"
    ssh.mkdir()
    (ssh / "id_rsa").write_text("secret")
    (ssh / "config").write_text("Host *")
    workspace = home / "ws"
    (workspace / "src" / "pkg").mkdir(parents=True)
    (workspace / "src" / "pkg" / "a.py").write_text("")
    (workspace / ".env").write_text("")
    (workspace / "keys").symlink_to(ssh)  # a folder of the workspace that is ~/.ssh
    (workspace / "src" / "leak").symlink_to(ssh / "id_rsa")
    (workspace / "up").symlink_to(home)
    return home


_NAMES = st.sampled_from(["src", "pkg", "a.py", "keys", "leak", "up", ".ssh", "id_rsa",
                          "config", ".env", "new", "..", ".", "ws", "x.pem"])  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_NAMES, min_size=1, max_size=4), st.sampled_from(["", "/"]))
def test_a_plain_path_is_placed_as_the_full_resolution_places_it(
    home: Path, names: list[str], end: str
) -> None:
    places = Places.of(home / "ws", home=home)
    raw = "/".join(names) + end
    quick = locate(raw, ".", places)  # "." may take the quick way
    full = locate(raw, "", places)  # the same folder, always resolved in full
    assert (quick.path, quick.where, quick.forms) == (full.path, full.where, full.forms)


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Path:
    """A folder outside the workspace and home: a folder, a file, symlinks, a loop."""
    other = tmp_path_factory.mktemp("elsewhere")
    (other / "dir").mkdir()
    (other / "file").write_text("")
    (other / "link").symlink_to(other / "dir")
    (other / "dir" / "back").symlink_to(home / ".ssh")
    (other / "loop").symlink_to(other / "loop")
    return other


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["", "dir", "link", "link/back", "file", "loop", "missing", "dir/../link"]),
    st.lists(_NAMES, max_size=4),
    st.sampled_from(["", "/", "//", "/."]),
)
def test_a_path_elsewhere_is_resolved_as_realpath_resolves_it(
    home: Path, elsewhere: Path, lead: str, names: list[str], end: str
) -> None:
    # Outside the workspace and home the guard walks the path from `/` (one lstat a name):
    # symlinks, `..`, a missing name and a file taken for a folder end as realpath's.
    places = Places.of(home / "ws", home=home)
    raw = "/".join([str(elsewhere), lead, *names]) + end
    assert locate(raw, ".", places).path == os.path.realpath(raw)


def test_a_symlink_in_the_workspace_to_a_key_is_still_a_key(home: Path) -> None:
    places = Places.of(home / "ws", home=home)
    pack = load_pack()
    for command in (
        "cat src/leak",
        "cat keys/id_rsa",
        "echo x > keys/config",
        "cp keys/id_rsa /tmp/x",
        "cat up/.ssh/id_rsa",
    ):
        data = {"tool_name": "bash", "tool_input": {"command": command}}
        assert judge(data, pack, places).decision == "deny", command
    assert judge({"tool_name": "bash", "tool_input": {"command": "cat src/pkg/a.py"}},
                 pack, places).decision == "allow"  # fmt: skip


def test_places_inside_the_workspace_still_tell_its_paths_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    home = Path("/home/ada-guard-test")  # never created, and not under /tmp
    workspace = home / "ws"
    bundle = workspace / "bundle.yaml"
    places = Places.of(workspace, home=home, protected=(bundle,))
    assert "protected" in locate("bundle.yaml", ".", places).where
    assert "protected" not in locate("other.yaml", ".", places).where
    state = Places.of(workspace, home=home, protected=(workspace / "state",))
    assert "protected" in locate("state/token", ".", state).where
    assert "protected" in locate("state", ".", state).where
    assert "protected" not in locate("statement.md", ".", state).where
    outer = Places.of(workspace, home=home, protected=(home,))  # the workspace is in it
    assert "protected" in locate("src/a.py", ".", outer).where
    monkeypatch.setenv("TMPDIR", str(workspace / "scratch"))
    plain = Places.of(workspace, home=home)
    assert "tmp" in locate("scratch/a", ".", plain).where
    assert "tmp" not in locate("src/a", ".", plain).where
    monkeypatch.setenv("TMPDIR", "/nowhere")
    assert "tmp" not in locate("scratch/a", ".", plain).where
    monkeypatch.delenv("TMPDIR")  # unset again: read as os.environ holds it
    assert "tmp" not in locate("scratch/a", ".", plain).where
    monkeypatch.setenv("TMPDIR", str(workspace / "scratch"))
    assert "tmp" in locate("scratch/a", ".", plain).where


def test_tmpdir_is_read_as_os_environ_holds_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TMPDIR", raising=False)
    assert read_tmpdir() is None
    for value in ("/tmp/x", "/tmp/caf\u00e9 y", "/tmp/\udcff"):  # \udcff: a byte not UTF-8
        monkeypatch.setenv("TMPDIR", value)
        assert read_tmpdir() == value


def test_a_link_made_between_two_calls_is_seen_by_the_second(tmp_path: Path) -> None:
    """A path is resolved once per call, never once per session: the second call sees the
    link the agent made after the first (through `judge` and ah-guard's own route)."""
    home = tmp_path / "home"
    workspace = home / "ws"
    workspace.mkdir(parents=True)
    (home / ".claude").mkdir()
    pack, places = load_pack(), Places.of(workspace, home=home)
    call = {"tool_name": "bash", "tool_input": {"command": "echo x > cc/settings.json"}}
    before = judge(call, pack, places)
    assert before.rule != "self-protect-hook-settings"
    (workspace / "cc").symlink_to(home / ".claude")
    assert judge(call, pack, places).rule == "self-protect-hook-settings"
    command, pieces, _ = pieces_for(call, places)
    assert judge_pieces(command, pieces, pack, places).rule == "self-protect-hook-settings"


@pytest.mark.parametrize(
    "raw",
    [
        "/dev/stderr",
        "/dev/stdout",
        "/dev/stdin",
        "/dev/fd/2",
        "/proc/self/fd/2",
        "/proc/self/environ",
        "/proc/thread-self/fd/1",
    ],
)
def test_the_commands_own_streams_are_not_resolved_in_the_guards_process(
    home: Path, raw: str, tmp_path: Path
) -> None:
    # /dev/stderr is /proc/self/fd/2: resolved by the guard it would name the guard's own
    # stderr (a pipe, a log file), and the verdict would hang on how the guard was started.
    places = Places.of(home / "ws", home=home)
    saved = os.dup(2)
    try:
        with open(tmp_path / "log", "w") as log:
            os.dup2(log.fileno(), 2)
            to_file = locate(raw, ".", places).path
        read, write = os.pipe()
        os.dup2(write, 2)
        to_pipe = locate(raw, ".", places).path
        os.close(read)
        os.close(write)
    finally:
        os.dup2(saved, 2)
        os.close(saved)
    assert to_file == to_pipe == raw
