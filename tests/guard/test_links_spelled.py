"""The links an earlier piece makes (`links.follow`) are read from ``ln``'s and ``cp``'s
table entries (`table.changes`), as the programs read their options: any spelling of
``-s`` and ``-t DIR`` (bundled, attached, ``=``, a unique prefix) makes the same link."""

from __future__ import annotations

import itertools
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from amplifier_hooks.guard import Places
from amplifier_hooks.guard.links import follow
from amplifier_hooks.guard.parser import parse_fresh

PLACES = Places.of("/home/dev/project", home="/home/dev")
FOLLOWED = "/home/dev/other/notes/a.txt"

SYMBOLIC = ["-s", "--symbolic", "--sym", "--sy"]
TARGET = ["-t dir", "-tdir", "--target-directory=dir", "--target-directory dir", "--targ=dir",
          "--t dir"]  # fmt: skip


def _followed(made: str) -> tuple[str, ...]:
    pieces = follow(parse_fresh(f"{made} && cat dir/notes/a.txt").pieces, PLACES)
    return pieces[-1].args


@given(symbolic=st.sampled_from(SYMBOLIC), target=st.sampled_from(TARGET),
       order=st.booleans())  # fmt: skip
def test_any_spelling_of_lns_options_makes_the_same_link(
    symbolic: str, target: str, order: bool
) -> None:
    options = f"{symbolic} {target}" if order else f"{target} {symbolic}"
    assert _followed(f"ln {options} ~/other/notes") == (FOLLOWED,), options


def test_bundled_short_options_with_the_folder_attached() -> None:
    for options in ("-st dir", "-stdir", "-fstdir", "-sftdir"):
        assert _followed(f"ln {options} ~/other/notes") == (FOLLOWED,), options


def test_cp_makes_a_link_only_with_its_link_options() -> None:
    for option, folder in itertools.product(("-s", "--symbolic-link", "--sym", "-l", "--link"),
                                            ("-t dir", "--target-directory=dir")):  # fmt: skip
        assert _followed(f"cp {option} {folder} ~/other/notes") == (FOLLOWED,), option
    assert _followed("cp -r -t dir ~/other/notes") == ("dir/notes/a.txt",)


def test_no_target_directory_makes_the_last_operand_the_link() -> None:
    assert _followed("ln -sT ~/other/notes dir/notes") == (FOLLOWED,)


def test_a_folder_removed_earlier_is_no_folder_to_link_into(tmp_path: Path) -> None:
    # on disk `dist` is a folder (ln would make dist/src), but the rm before the ln
    # removes it: the link is `dist` itself, and dist/ is src/
    workspace = tmp_path / "ws"
    (workspace / "dist").mkdir(parents=True)
    (workspace / "src").mkdir()
    places = Places.of(workspace, home=tmp_path)
    for removed in ("rm -rf dist", "rm -r -- dist/", "rmdir dist"):
        command = f"{removed} && ln -s src dist && ls dist/app.py"
        assert follow(parse_fresh(command).pieces, places)[-1].args == (
            str(workspace / "src" / "app.py"),
        ), removed
    kept = follow(parse_fresh("rm -rf build && ln -s src dist && ls dist/app.py").pieces, places)
    assert kept[-1].args == ("dist/app.py",)  # (dist stays a folder: the link is dist/src)
