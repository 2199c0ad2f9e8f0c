"""Project paths a lister prints, handed on as a ``$(LISTER)`` word or a ``while read``
loop's variable (`listedwords`): judged as the folders it lists below, as ``| xargs`` is;
never granted, and anything not plainly a listing of project paths stays unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, judge, load_pack
from amplifier_hooks.guard.listedwords import bind_listed_words
from amplifier_hooks.guard.parser import parse_command
from tests.guard.conftest import decided, git, write


@pytest.mark.parametrize(
    "command",
    [
        'git diff --name-only | while read -r f; do ruff format "$f"; done',
        "git diff --name-only --cached | while read f; do sed -i 's/a/b/' \"$f\"; done",
        "git ls-files '*.py' | grep -v vendor | while read -r f; do ruff check --fix \"$f\"; done",
        "ruff format $(git ls-files '*.py')",
        "perl -pi -e 's/\\bUserDTO\\b/UserRecord/g' $(git ls-files 'src/*.java')",
        "sed -i 's/var /let /g' $(find src -name '*.ts')",
    ],
)
def test_listed_project_paths_are_free(command: str) -> None:
    assert decided(command) == (None, None), command


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [
        # the lister's folder is outside the workspace
        ("sed -i 's/a/b/' $(git ls-files ..)", "ask", "write-outside-workspace"),
        ("sed -i 's/a/b/' $(git ls-files /opt/app)", "ask", "write-outside-workspace"),
        ("cd /opt/app && sed -i 's/a/b/' $(git ls-files)", "ask", "write-outside-workspace"),
        # not a lister of project paths
        ("cat list.txt | while read -r f; do sed -i 's/a/b/' \"$f\"; done", "ask",
         "write-outside-workspace"),
        ("sed -i 's/a/b/' $(cat list.txt)", "ask", "write-outside-workspace"),
        # a pipe into the command is not its substitution
        ("git ls-files | sed -i 's/a/b/' $(cat list.txt)", "ask", "write-outside-workspace"),
        # a line prefix makes git print other paths
        ("git diff --name-only --line-prefix=/opt/ | while read -r f; do sed -i s/a/b/ "
         "\"$f\"; done", "ask", "write-outside-workspace"),
        # the loop's variable set again, or read twice
        ("git ls-files | while read -r f; do f=/opt/x; sed -i 's/a/b/' \"$f\"; done", "ask",
         "write-outside-workspace"),
        ("git ls-files | while read -r f; do read -r f; sed -i 's/a/b/' \"$f\"; done", "ask",
         "write-outside-workspace"),
        # every tracked file deleted: the workspace's files, as `| xargs rm`
        ("rm $(git ls-files)", "deny", "rm-workspace-root"),
        ("git ls-files | while read -r f; do rm -rf \"$f\"; done", "deny", "rm-workspace-root"),
        # inline code given names that may start with `-` (an option) stays asked
        ("perl -pi -e 's/a/b/g' $(git ls-files)", "ask", "inline-code"),
    ],
)  # fmt: skip
def test_what_is_not_a_listing_below_the_workspace_stays_stopped(
    command: str, decision: str, rule: str
) -> None:
    assert decided(command) == (decision, rule), command


def test_a_copy_keeps_its_own_name_for_the_copy_rules() -> None:
    command = 'git ls-files | while read -r f; do cp "$f" /opt/app/; done'
    pieces = bind_listed_words(command, parse_command(command).pieces)
    assert any(p.program == "cp" and "$f" in p.args for p in pieces)
    assert decided(command)[0] == "ask"


def test_bound_words_carry_the_listing_doubt() -> None:
    command = 'git diff --name-only | while read -r f; do ruff format "$f"; done'
    ruff = next(p for p in bind_listed_words(command, parse_command(command).pieces)
                if p.program == "ruff")  # fmt: skip
    assert ruff.args == ("format", ".") and ruff.doubt is not None


def test_never_granted_in_a_real_workspace(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    write(ws / "src" / "a.py", "x = 1\n")
    ws.joinpath("README.md").write_text("hi\n")
    git(ws, "init", "-q")
    git(ws, "add", ".")
    git(ws, "commit", "-qm", "init")
    places = Places.of(ws, home=tmp_path / "home")
    for command in ("ruff format $(git ls-files '*.py')",
                    "git ls-files | while read -r f; do ruff format \"$f\"; done",
                    "perl -pi -e 's/x/y/' $(git ls-files 'src/*.py')"):  # fmt: skip
        call = {"tool_name": "bash", "tool_input": {"command": command}}
        assert judge(call, load_pack("default"), places).decision is None, command
