"""A host's own tools that delete, move or empty a file meet the same git facts as the
shell's ``rm``, ``mv`` and ``> FILE``: a patch's ``*** Delete File:`` and ``*** Move to:``,
a delete tool, a Write of empty text, an MCP file server's ``move_file``. Without a
repository (a bench corpus) they get no grant and no objection; on one, what would lose
uncommitted work is asked with the shell's rule, and what git can give back is not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.guard import Places, Policy, Verdict
from amplifier_hooks.guard.losses import asks_of
from amplifier_hooks.guard.policy import pieces_for
from tests.guard.conftest import committed, judged_with_git, project_places, write


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``src/clean.py`` (tracked, unchanged), ``src/changed.py`` (tracked, changed),
    ``notes.txt`` (untracked), ``build/`` (ignored)."""
    top = tmp_path_factory.mktemp("hostlosses") / "project"
    write(top / ".gitignore", "build/\n")
    write(top / "src" / "clean.py", "clean = 1\n")
    write(top / "src" / "changed.py", "changed = 1\n")
    committed(top)
    write(top / "src" / "changed.py", "changed = 2\n")
    write(top / "notes.txt", "my notes\n")
    write(top / "build" / "out.o", "object\n")
    return top


@pytest.fixture
def places(project: Path) -> Places:
    return project_places(project)


def decide(data: dict[str, Any], pack: Policy, places: Places) -> Verdict:
    """As ah-guard judges it (`judged_with_git`)."""
    return judged_with_git(data, pack, places)


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


def whole_writes(path: str) -> list[dict[str, Any]]:
    """A write of new text over ``path`` by each host's whole-file write tool."""
    return [
        tool("Write", file_path=path, content="new = 1\n"),  # Claude Code
        tool("write_file", file_path=path, content="new = 1\n"),  # Gemini CLI
        tool("write", filePath=path, content="new = 1\n"),  # OpenCode
        tool("write_to_file", path=path, content="new = 1\n"),  # Cline
        tool("create", path=path, file_text="new = 1\n"),  # Copilot CLI
        tool("mcp__filesystem__write_file", path=path, content="new = 1\n"),
        patch("*** Add File: " + path, "+new = 1"),  # Codex: an added file replaces one there
    ]


@pytest.mark.parametrize("name", ["src/changed.py", "notes.txt"])
def test_a_file_tools_write_over_work_git_cannot_give_back_is_asked(
    name: str, project: Path, pack: Policy, places: Places
) -> None:
    for data in whole_writes(str(project / name)):
        verdict = decide(data, pack, places)
        assert (verdict.decision, verdict.rule) == ("ask", "overwrite-loses-work"), data
        assert name in (verdict.reason or ""), data


def test_a_file_tools_write_git_can_give_back_or_of_a_new_file_is_granted(
    project: Path, pack: Policy, places: Places
) -> None:
    for name in ("src/clean.py", "build/out.o", "src/new.py", "new/deeper/file.py"):
        for data in whole_writes(str(project / name)):
            assert decide(data, pack, places).decision == "allow", data
    relative = tool("Write", file_path="src/clean.py", content="x = 1\n")
    assert decide(relative, pack, places).decision == "allow"


def test_a_file_tools_write_asks_git_about_its_path(project: Path, places: Places) -> None:
    for data in whole_writes(str(project / "src/changed.py")):
        command, pieces, _ = pieces_for(data, places)
        asks = asks_of(pieces, places, command)
        assert asks and all(a.specs == frozenset({"src/changed.py"}) for a in asks), data
    new = tool("Write", file_path=str(project / "src/new.py"), content="x = 1\n")
    assert asks_of(pieces_for(new, places)[1], places, None) == []  # nothing there: no question


def test_an_edit_is_not_a_whole_file_write(project: Path, pack: Policy, places: Places) -> None:
    changed = str(project / "src/changed.py")
    for data in [
        tool("Edit", file_path=changed, old_string="changed = 2", new_string="changed = 3"),
        tool("replace", file_path=changed, old_string="changed = 2", new_string="changed = 3"),
        patch("*** Update File: src/changed.py", "@@", "-changed = 2", "+changed = 3"),
    ]:  # fmt: skip
        command, pieces, _ = pieces_for(data, places)
        assert asks_of(pieces, places, command) == [], data
        assert decide(data, pack, places).decision == "allow", data


def test_without_a_repository_there_is_no_grant(tmp_path: Path, pack: Policy) -> None:
    places = Places.of(tmp_path / "work", home=tmp_path / "home")
    for data in [
        patch("*** Delete File: src/app.py"),
        tool("Write", file_path=str(tmp_path / "work/src/app.py"), content=""),
        *whole_writes(str(tmp_path / "work/src/app.py")),
        tool("mcp__filesystem__move_file", source=str(tmp_path / "work/a.yml"),
             destination=str(tmp_path / "work/b.yml")),
    ]:  # fmt: skip
        assert decide(data, pack, places).decision is None, data


def test_a_shell_mv_out_of_the_workspace_is_a_delete_there(
    project: Path, pack: Policy, places: Places
) -> None:
    out = str(project.parent / "elsewhere")
    for command in (f"mv notes.txt {out}/notes.txt", f"mv src/changed.py {out}/",
                    f"mv -f src {out}/src", f"mv -t {out} notes.txt"):  # fmt: skip
        verdict = decide(tool("bash", command=command), pack, places)
        assert (verdict.decision, verdict.rule) == ("ask", "rm-loses-work"), command
    twin = tool("mcp__filesystem__move_file", source=str(project / "notes.txt"),
                destination=f"{out}/notes.txt")  # fmt: skip
    assert decide(twin, pack, places).rule == "rm-loses-work"
    for command in (f"mv src/clean.py {out}/clean.py", f"mv build {out}/build",
                    "mv notes.txt notes.md", "mv -t docs notes.txt"):  # fmt: skip
        verdict = decide(tool("bash", command=command), pack, places)
        assert verdict.rule != "rm-loses-work", command


def test_a_shell_mv_out_without_a_repository_is_not_granted(tmp_path: Path, pack: Policy) -> None:
    places = Places.of(tmp_path / "work", home=tmp_path / "home")
    (tmp_path / "work" / "src").mkdir(parents=True)
    data = tool("bash", command=f"mv {tmp_path}/work/src {tmp_path}/out")
    assert decide(data, pack, places).decision is None
