"""Lost work by copy, move and writers, judged on a real repository the test makes: writing
over a file with uncommitted changes, or over one git neither tracks nor ignores, is asked
as ``>`` is; over an ignored or an unchanged tracked file, or where nothing is yet, it
stays as it was; where git cannot say, there is no grant."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, Policy, judge
from amplifier_hooks.guard.overwrites import overwritten
from amplifier_hooks.guard.policy import pieces_for
from tests.guard.conftest import committed, project_places, write
from tests.guard.test_losses import asks_of, bash, decide


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``clean.txt`` and ``docs/guide.md`` tracked and unchanged, ``changed.txt`` tracked
    and changed, ``notes.txt`` untracked, ``build/`` ignored; ``other.txt`` to copy."""
    top = tmp_path_factory.mktemp("overwrites") / "project"
    write(top / ".gitignore", "build/\n")
    for name in ("clean.txt", "changed.txt", "other.txt", "docs/guide.md"):
        write(top / name, name + "\n")
    committed(top)
    write(top / "changed.txt", "work in progress\n")
    write(top / "notes.txt", "my notes\n")
    write(top / "build" / "out.txt", "built\n")
    return top


@pytest.fixture
def places(project: Path) -> Places:
    return project_places(project)


OVER_WORK = [
    "cp other.txt changed.txt", "cp -f other.txt notes.txt", "cp other.txt docs/../changed.txt",
    "mv other.txt changed.txt", "mv -f other.txt notes.txt", "mv -t . docs/../notes.txt",
    "install -m 644 other.txt changed.txt", "rsync other.txt changed.txt",
    "ln -sf other.txt notes.txt", "ln --forc other.txt notes.txt",
    "tee changed.txt", "echo x | tee -i notes.txt", "sort -o changed.txt other.txt",
    "sort other.txt --out changed.txt", "sort -uochanged.txt other.txt",
    "uniq other.txt notes.txt", "dd if=other.txt of=changed.txt", "xxd -r other.txt notes.txt",
    "cp other.txt clean.txt && cp other.txt changed.txt",
    # a data library's write of a path named in full: judged as `tee` (`pydata`)
    "python -c \"import pandas as pd; pd.read_csv('other.txt').to_csv('notes.txt')\"",
    # a looker's own output file (`outputfiles`): sed's w command and s///w flag, tree -o,
    # git's --output
    "sed -n 'w changed.txt' other.txt", "sed -n '/x/W notes.txt' other.txt",
    "sed 's/a/b/w changed.txt' other.txt", "sed -e p -e 'w notes.txt' other.txt",
    "tree -o changed.txt", "tree -L 1 -o notes.txt docs", "git diff --output=changed.txt",
    "tree -fo changed.txt", "tree -Lo 1 notes.txt docs",  # tree bundles its short options
    "git log --output notes.txt", "git show HEAD --output=changed.txt",
]  # fmt: skip


@pytest.mark.parametrize("command", OVER_WORK)
def test_writing_over_uncommitted_work_is_asked(command: str, pack: Policy, places: Places) -> None:
    verdict = decide(command, pack, places)
    assert (verdict.decision, verdict.rule) == ("ask", "overwrite-loses-work"), verdict.pieces


def test_a_tree_synced_over_the_workspace_is_asked_as_such(pack: Policy, places: Places) -> None:
    """Over the workspace root a whole tree can replace any file, the hook settings too: the
    rule that says so speaks first (an ask either way)."""
    verdict = decide("rsync -a --delete docs/ ./", pack, places)
    assert (verdict.decision, verdict.rule) == ("ask", "copy-over-workspace"), verdict.pieces


KEPT = [
    "cp other.txt clean.txt", "cp other.txt build/out.txt", "cp other.txt new.txt",
    "cp -r docs build/", "mv other.txt new.txt", "mv changed.txt moved.txt",
    "cp -n other.txt changed.txt", "cp --no-clobber other.txt notes.txt",
    "mv --no-clob other.txt changed.txt", "ln -s other.txt changed.txt",
    "tee -a changed.txt", "echo x | tee --append notes.txt", "sort -o new.txt changed.txt",
    "sort changed.txt", "uniq changed.txt", "dd if=changed.txt of=build/copy.txt",
    "install -m 644 other.txt clean.txt",
    "sed -n 'w new.txt' changed.txt", "sed -n '1w /dev/stdout' changed.txt",
    "sed -i 's/a/b/' changed.txt", "sed -n 'w build/out.txt' notes.txt", "tree -o new.txt",
    "tree -o clean.txt", "git diff --output=new.patch", "git log -- changed.txt",
    "tree -pugh docs",
]  # fmt: skip


@pytest.mark.parametrize("command", KEPT)
def test_writing_over_what_git_can_give_back_or_nothing_is_not_asked(
    command: str, pack: Policy, places: Places
) -> None:
    verdict = decide(command, pack, places)
    assert verdict.decision not in ("ask", "deny"), verdict.pieces


def test_a_copy_over_an_ignored_or_clean_file_keeps_its_grant(pack: Policy, places: Places) -> None:
    for command in ("cp other.txt clean.txt", "cp other.txt build/out.txt",
                    "sort -o build/sorted.txt other.txt", "echo x | tee build/log.txt",
                    "sort other.txt --out build/sorted.txt"):  # fmt: skip
        assert decide(command, pack, places).decision == "allow", command


def test_where_git_cannot_say_there_is_no_grant(
    tmp_path: Path, pack: Policy, places: Places
) -> None:
    data = bash("cp other.txt clean.txt")
    assert judge(data, pack, places, None).decision is None  # git was not asked, or too late
    write(tmp_path / "plain" / "a.txt", "a\n")
    write(tmp_path / "plain" / "b.txt", "b\n")
    plain = Places.of(tmp_path / "plain", home=tmp_path / "home")
    assert asks_of(bash("cp a.txt b.txt"), plain) == []  # no repository: nothing to ask
    assert decide("cp a.txt b.txt", pack, plain).decision is None
    assert decide("cp a.txt c.txt", pack, plain).decision == "allow"  # nothing there to lose


def test_one_git_run_asks_about_every_file_written_over(places: Places) -> None:
    asks = asks_of(bash("cp other.txt changed.txt; sort -o notes.txt other.txt"), places)
    assert {spec for ask in asks for spec in ask.specs or ()} == {"changed.txt", "notes.txt"}


@pytest.mark.parametrize(
    ("command", "written"),
    [("cp a b docs", {"docs/a", "docs/b"}), ("mv -t docs a", {"docs/a"}),
     ("cp a docs/", {"docs/a"}), ("mv a b", {"b"}), ("tee x y", {"x", "y"}),
     ("uniq a b", {"b"}), ("dd if=a of=b", {"b"}),
     ("sort -k 2 -o out in", {"out"}), ("ln a b", set()), ("cp -n a b", set())],
)  # fmt: skip
def test_what_each_writer_writes_over(
    command: str, written: set[str], project: Path, places: Places
) -> None:
    _, pieces, _ = pieces_for(bash(command), places)
    found = {str(Path(p.path).relative_to(project)) for p in overwritten(pieces[0], places)}
    assert found == written


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("tree -o ~/.bashrc", "persistence-files"),
        ("tree -afo ~/.zshrc .", "persistence-files"),
        ("tree -H . -o .git/hooks/post-checkout", "git-hook-plant"),
        ("tree -o .claude/settings.json", "self-protect-hook-settings"),
    ],
)
def test_a_lookers_output_file_meets_the_rules_on_writes(command: str, rule: str) -> None:
    """``tree -o F`` writes F as ``tree > F`` does: the rules on the place written hold."""
    from tests.guard.conftest import decided

    assert decided(command) == ("deny", rule)
