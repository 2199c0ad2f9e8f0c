"""File tools' inputs of a shape the host does not take: a list where one path goes (each
path judged, and a person asked), a NUL inside a path (judged also where the system ends
it)."""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks.guard import Places, Policy, judge
from amplifier_hooks.guard.inputs import file_input
from tests.guard.conftest import HOME

WS = HOME / "src" / "calc"


def call(pack: Policy, places: Places, tool: str, **args: Any) -> tuple[str | None, str | None]:
    verdict = judge({"tool_name": tool, "tool_input": args}, pack, places)
    return verdict.decision, verdict.rule


def test_a_list_of_paths_is_each_judged_and_never_granted(pack: Policy, places: Places) -> None:
    settings = str(WS / ".claude/settings.json")
    denied = call(pack, places, "Edit", file_path=[str(WS / "src/a.py"), settings],
                  old_string="a", new_string="b")  # fmt: skip
    assert denied[0] == "deny" and denied[1] is not None and denied[1].startswith("self-protect")
    plain = call(pack, places, "write_file", file_path=["src/a.py", "src/b.py"], content="x\n")
    assert plain == ("ask", "guard-opaque")


def test_file_input_reads_a_path_list_as_odd() -> None:
    read = file_input("write_file", {"file_path": ["a.py", "b.py"], "content": ""})
    assert read.paths == ("a.py", "b.py")
    assert read.odd is not None and read.doubt is not None
    assert file_input("write_file", {"file_path": "a.py", "content": ""}).odd is None
    # not all text: not read as paths at all
    assert file_input("write_file", {"file_path": ["a.py", 3], "content": ""}).paths == ()


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("Write", {"file_path": str(WS / ".claude/settings.json") + "\u0000.md", "content": "{}"}),
        ("apply_patch",
         {"command": "*** Begin Patch\n*** Add File: .codex/hooks.json\u0000.txt\n+{}\n"
                     "*** End Patch\n"}),
    ],
)  # fmt: skip
def test_a_nul_in_a_path_is_judged_where_the_system_ends_it(
    pack: Policy, places: Places, tool: str, args: dict[str, Any]
) -> None:
    assert call(pack, places, tool, **args)[0] == "deny"


def test_a_nul_after_an_ordinary_name_changes_nothing(pack: Policy, places: Places) -> None:
    assert call(pack, places, "Write", file_path=str(WS / "notes.md") + "\u0000.txt",
                content="x")[0] != "deny"  # fmt: skip
