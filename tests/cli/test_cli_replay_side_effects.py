"""A replay changes nothing but its report and the bundle's own log: modules with side
effects (ah-shell's commands) hold them back and say what they would have run, unless the
person asks with ``--live``. Checked on the demo in a scratch git repository."""

from __future__ import annotations

import json
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from amplifier_hooks.cli import main
from amplifier_hooks.cli.session import PROJECT_ROOT
from amplifier_hooks.modules import REPLAY_CAPABILITY, Replay, side_effects_allowed
from amplifier_hooks.session.coordinator import Coordinator

UGLY = "x  =  1\ny=[1,2 ,3]\n"
# What the bundle in docs/bundles.md runs after every edit, plus a marker that any event
# at all would leave behind.
FORMAT = "printf 'x = 1' > a.py; printf ran > b.py"
MARKER = "printf ran > ran.txt"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    ).stdout


@pytest.fixture
def repo() -> Iterator[Path]:
    """A scratch git repository with files a formatter would rewrite, all committed. Its
    path is short (not pytest's deep ``tmp_path``), so each report line below is whole:
    a line longer than a detail's limit is cut."""
    with tempfile.TemporaryDirectory(prefix="r") as short:
        yield _made(Path(short) / "calc")


def _made(repo: Path) -> Path:
    repo.mkdir()
    (repo / "a.py").write_text(UGLY)
    (repo / "b.py").write_text(UGLY)
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "x")
    return repo


@pytest.fixture
def bundle(tmp_path: Path, repo: Path) -> Path:
    path = tmp_path / "with-shell.yaml"
    path.write_text(
        f"""
includes: [{PROJECT_ROOT / "bundles" / "default.md"}]
hooks:
  - module: ah-shell
    source: {PROJECT_ROOT / "modules" / "ah-shell"}
    config:
      cwd: {repo}
      hooks:
        - {{event: "tool:post", matcher: "write_file|edit_file", command: "{FORMAT}"}}
        - {{event: "session:start", command: "{MARKER}", name: marker}}
"""
    )
    return path


def test_a_replay_of_the_demo_leaves_the_repository_untouched(
    repo: Path, bundle: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    monkeypatch.setenv("COLUMNS", "400")  # the lines whole, long temporary paths and all
    assert main(["run", str(bundle), "--no-tui", "--store", ":memory:"]) == 0
    out, _ = capsys.readouterr()
    assert _git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    assert (repo / "a.py").read_text() == UGLY
    assert (
        "side effects: held back: ah-shell shows the commands it would run instead "
        "(--live runs them)"
    ) in out
    would = [line.strip() for line in out.splitlines() if "replay: not run" in line]
    assert f"info [marker] replay: not run (in {repo}): {MARKER}" in would
    assert f"info [shell:0:printf] replay: not run (in {repo}): {FORMAT}" in would


def test_json_lines_say_what_would_have_run(
    repo: Path, bundle: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(bundle), "--json", "--store", ":memory:"]) == 0
    head, *steps, _ = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert head["side_effects"].startswith("held back")
    messages = [m for step in steps for m in step["messages"]]
    assert {
        "level": "info",
        "source": "marker",
        "text": f"replay: not run (in {repo}): {MARKER}",
    } in messages
    assert _git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_live_runs_the_commands(
    repo: Path, bundle: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(bundle), "--no-tui", "--store", ":memory:", "--live"]) == 0
    out, _ = capsys.readouterr()
    assert "side effects: live (--live): modules act as in a session" in out
    assert "replay: not run" not in out
    assert (repo / "ran.txt").read_text() == "ran"
    assert (repo / "a.py").read_text() == "x = 1"  # the demo edits calc.py: the hook ran


async def test_the_capability_is_what_modules_read() -> None:
    plain = Coordinator()
    assert side_effects_allowed(plain) is True  # a live session: nothing registered
    replaying = Coordinator()
    replaying.register_capability(REPLAY_CAPABILITY, Replay())
    assert side_effects_allowed(replaying) is False
    live = Coordinator()
    live.register_capability(REPLAY_CAPABILITY, Replay(live=True))
    assert side_effects_allowed(live) is True
    odd = Coordinator()
    odd.register_capability(REPLAY_CAPABILITY, "yes")  # not a Replay record: not a replay
    assert side_effects_allowed(odd) is True


def test_a_bundle_without_acting_modules_names_none_in_the_header(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["run", "--no-tui"]) == 0  # bundles/default.md: no ah-shell in it
    out, _ = capsys.readouterr()
    assert "side effects: none to hold back: no module of this bundle acts on the world" in out
    assert "ah-shell" not in out
