"""``make -C DIR VAR=rel``: the value is a folder from DIR (guard/makedirs.py)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.makedirs import from_folder
from amplifier_hooks.guard.model import Piece
from tests.guard.conftest import decided


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("make -C kernel O=.. mrproper", ("ask", "clean-workspace-argument")),
        ("make --directory=a/b O=../../.. clean", ("ask", "clean-outside-workspace-argument")),
        ("make -C a -C b O=../.. distclean", ("ask", "clean-workspace-argument")),
        ("O=.. make -C sub clean", ("deny", "clean-outside-workspace-variable")),
    ],
)
def test_values_are_read_from_the_folder_make_runs_in(
    command: str, expected: tuple[str, str]
) -> None:
    assert decided(command) == expected


@pytest.mark.parametrize(
    "command", ["make -C build/linux O=.. clean", "make -C docs BUILDDIR=_build clean",
                "make -C linux O=../out defconfig"],
)  # fmt: skip
def test_a_folder_inside_the_project_is_not_asked(command: str) -> None:
    assert decided(command)[0] is None


def test_from_folder() -> None:
    piece = Piece("make", "make", ("-Ckernel", "O=..", "V=1", "X=$D/..", "P=/abs", "clean"))
    moved = from_folder((piece,))
    assert moved[0].args == ("-Ckernel", "O=.", "V=1", "X=$D/..", "P=/abs", "clean")
    plain = (Piece("make", "make", ("O=..", "clean")),)
    assert from_folder(plain) is plain
    dynamic = (Piece("make", "make", ("-C", "$D", "O=..", "clean")),)
    assert from_folder(dynamic) is dynamic
