"""A string concatenation in Perl, PHP and Ruby is read in one place
(`treecode.concatenated`): two known texts joined by the language's own operator are one
path; another operator, or a side the guard cannot know, leaves the path unknown."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from amplifier_hooks.guard.codeacts import CodeAct, CodeReading
from amplifier_hooks.guard.perlreader import read_perl
from amplifier_hooks.guard.phpreader import read_php
from amplifier_hooks.guard.rubyreader import read_ruby

Reader = Callable[[str], CodeReading]


@pytest.mark.parametrize(
    ("reader", "code", "target"),
    [
        (read_perl, 'unlink("build/" . "out.txt")', "build/out.txt"),
        (read_php, '<?php unlink("build/" . "out.txt");', "build/out.txt"),
        (read_ruby, 'File.delete("build/" + "out.txt")', "build/out.txt"),
        # another operator is no concatenation: the path is not known
        (read_perl, 'unlink("build/" + "out.txt")', None),
        (read_php, '<?php unlink("build/" + "out.txt");', None),
        (read_ruby, 'File.delete("build/" - "out.txt")', None),
    ],
)
def test_a_concatenation_is_one_path(reader: Reader, code: str, target: str | None) -> None:
    assert list(reader(code).acts) == [CodeAct("delete", target)]


@pytest.mark.parametrize(
    ("reader", "code"),
    [(read_perl, 'unlink("x" . $ENV{HOME})'), (read_ruby, 'File.delete("x" + ENV["HOME"])')],
)
def test_the_home_folder_after_other_text_is_unknown(reader: Reader, code: str) -> None:
    assert list(reader(code).acts) == [CodeAct("delete", None), CodeAct("env", "HOME")]
