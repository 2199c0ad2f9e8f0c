"""A host's own tools that delete, move or empty a file meet the same git facts as the
shell's ``rm``, ``mv`` and ``> FILE``: a patch's ``*** Delete File:`` and ``*** Move to:``,
a delete tool, a Write of empty text, an MCP file server's ``move_file``. Without a
repository (a bench corpus) they get no grant and no objection; on one, what would lose
uncommitted work is asked with the shell's rule, and what git can give back is not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.guard import Places, Policy, Verdict, judge
from amplifier_hooks.guard.losses import asks_of
from amplifier_hooks.guard.policy import pieces_for
from amplifier_hooks.guard.repo import ask_git
from tests.guard.test_losses import SLOW_MACHINE, git, write


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``src/clean.py`` (tracked, unchanged), ``src/changed.py`` (tracked, changed),
    ``notes.txt`` (untracked), ``build/`` (ignored)."""
    top = tmp_path_factory.mktemp("hostlosses") / "project"
    write(top / ".gitignore", "build/\n")
    write(top / "src" / "clean.py", "clean = 1\n")
    write(top / "src" / "changed.py", "changed = 1\n")
    git(top.parent, "init", "-q", str(top))
    git(top, "add", ".")
    git(top, "commit", "-qm", "start")
    write(top / "src" / "changed.py", "changed = 2\n")
    write(top / "notes.txt", "my notes\n")
    write(top / "build" / "out.o", "object\n")
    return top


@pytest.fixture
def places(project: Path) -> Places:
    return Places.of(project, home=project.parent / "home")


def decide(data: dict[str, Any], pack: Policy, places: Places) -> Verdict:
    """As ah-guard does: ask git what the pieces need, then judge."""
    command, pieces, _ = pieces_for(data, places)
    facts = ask_git(asks_of(pieces, places, command), SLOW_MACHINE)
    return judge(data, pack, places, facts)


def patch(*body: str) -> dict[str, Any]:
    text = "\n".join(["*** Begin Patch", *body, "*** End Patch", ""])
    return {"tool_name": "apply_patch", "tool_input": {"command": text}}


def tool(name: str, **args: Any) -> dict[str, Any]:
    return {"tool_name": name, "tool_input": args}


def test_each_host_tool_is_asked_where_its_shell_twin_is(
    project: Path, pack: Policy, places: Places
) -> None:
    changed, notes = str(project / "src/changed.py"), str(project / "notes.txt")
    asked = [
        (patch("*** Delete File: src/changed.py"), "rm-loses-work"),
        (patch("*** Delete File: src/clean.py", "*** Delete File: notes.txt"), "rm-loses-work"),
        (patch("*** Update File: notes.txt", "*** Move to: src/changed.py", "@@", "-a", "+b"),
         "overwrite-loses-work"),
        (patch("*** Update File: src/changed.py", "*** Move to: /tmp/c.py", "@@", "-a", "+b"),
         "rm-loses-work"),
        (tool("Delete", file_path=changed), "rm-loses-work"),
        (tool("Delete", file_path=str(project / "src") + "/"), "rm-loses-work"),
        (tool("delete_file", target_file="notes.txt"), "rm-loses-work"),
        (tool("Write", file_path=changed, content=""), "truncate-loses-work"),
        (tool("mcp__filesystem__move_file", source=notes, destination=changed),
         "overwrite-loses-work"),
    ]  # fmt: skip
    for data, rule in asked:
        verdict = decide(data, pack, places)
        assert (verdict.decision, verdict.rule) == ("ask", rule), data
    assert decide(tool("bash", command="rm src/changed.py"), pack, places).rule == "rm-loses-work"


def test_what_git_can_give_back_is_not_asked(project: Path, pack: Policy, places: Places) -> None:
    for data in [
        patch("*** Delete File: src/clean.py"),
        patch("*** Delete File: build/out.o"),
        tool("Write", file_path=str(project / "src/clean.py"), content=""),
        tool("mcp__filesystem__move_file", source=str(project / "src/clean.py"),
             destination=str(project / "src/renamed.py")),
    ]:  # fmt: skip
        assert decide(data, pack, places).decision in ("allow", None), data


def test_without_a_repository_there_is_no_grant(tmp_path: Path, pack: Policy) -> None:
    places = Places.of(tmp_path / "work", home=tmp_path / "home")
    for data in [
        patch("*** Delete File: src/app.py"),
        tool("Write", file_path=str(tmp_path / "work/src/app.py"), content=""),
        tool("mcp__filesystem__move_file", source=str(tmp_path / "work/a.yml"),
             destination=str(tmp_path / "work/b.yml")),
    ]:  # fmt: skip
        assert decide(data, pack, places).decision is None, data
