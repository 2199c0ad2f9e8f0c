"""Values the guard can name without running anything: a program spelled with one-name
brackets (``[e]slint``), a special parameter that is a number (``$!``), a tensor file read
by the restricted unpickler (``torch.load(.., weights_only=True)``), Django's version."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.pyreader import read_python
from amplifier_hooks.guard.words import one_char_brackets
from tests.guard.conftest import decided


@pytest.mark.parametrize(
    ("word", "name"),
    [
        ("./node_modules/.bin/[e]slint", "./node_modules/.bin/eslint"),
        ("[r]m", "rm"),
        ("[!r]m", "[!r]m"),  # any character but r
        ("[a-z]m", "[a-z]m"),  # a range
        ("[ab]m", "[ab]m"),  # two names
        ("[/]x", "[/]x"),
        ("plain", "plain"),
    ],
)
def test_one_char_brackets(word: str, name: str) -> None:
    assert one_char_brackets(word) == name


def test_a_one_name_pattern_runs_that_program() -> None:
    assert decided("./node_modules/.bin/[e]slint src") == (None, None)
    assert decided("/bin/[r]m -rf ~")[0] == "deny"


def test_under_nullglob_the_next_word_is_judged_too() -> None:
    assert decided("shopt -s nullglob; ./[x]yz rm -rf ~")[0] == "deny"


def test_a_one_name_pattern_is_never_granted() -> None:
    pieces = parse_command("./node_modules/.bin/[e]slint src").pieces
    assert pieces and all(p.doubt is not None for p in pieces)


def test_a_wider_pattern_stays_opaque() -> None:
    assert decided("./node_modules/.bin/[a-z]slint src") == ("ask", "guard-opaque")


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("./build/server --port 9000 & sleep 1; timeout 5 strace -p $! -e trace=network "
         "-o build/srv.trace", (None, None)),
        ("echo $$ > run/app.pid", (None, None)),
        # a part of a word: still unknown (empty with no job in the background: the home
        # folder, so denied as any recursive delete under a variable never set)
        ("rm -rf ~/$!", ("deny", "rm-unset-variable")),
        ("sed -i s/a/b/ $HOST", ("ask", "write-outside-workspace")),  # any other variable
    ],
)  # fmt: skip
def test_special_parameters_are_numbers(command: str, expected: tuple[str | None, ...]) -> None:
    assert decided(command) == expected


@pytest.mark.parametrize(
    "code",
    [
        "import torch; sd = torch.load('checkpoints/best.pt', map_location='cpu', "
        "weights_only=True); print(len(sd))",
        "import torch; print(torch.load('w.pt', weights_only=True, mmap=True)['step'])",
    ],
)
def test_a_restricted_tensor_load_is_quiet(code: str) -> None:
    reading = read_python(code)
    assert reading.quiet, code
    assert [a.does for a in reading.acts] == ["read"]


@pytest.mark.parametrize(
    "code",
    [
        "import torch; torch.load('w.pt')",  # a pickle: runs code
        "import torch; torch.load('w.pt', weights_only=False)",
        "import torch, pickle; torch.load('w.pt', weights_only=True, pickle_module=pickle)",
        "import torch; torch.load('w.pt', map_location=lambda s, l: s, weights_only=True)",
        "import torch; kw = {}; torch.load('w.pt', weights_only=True, **kw)",
        "import torch; f = torch.load; f('w.pt')",  # handed on: called where unseen
        "import torch; list(map(torch.load, ['w.pt']))",
        "import torch; torch.load('w.pt', weights_only=True).items()",  # a method of the result
        "import torch; import sys; torch.load(sys.argv[1], weights_only=True)",
    ],
)
def test_any_other_load_stays_loud(code: str) -> None:
    assert not read_python(code).quiet, code


def test_a_restricted_load_of_a_key_is_still_a_read_of_it() -> None:
    command = "python3 -c \"import torch; torch.load('/home/dev/.ssh/id_rsa', weights_only=True)\""
    assert decided(command)[0] == "deny"


def test_djangos_version_is_quiet() -> None:
    assert read_python("import django; print(django.get_version())").quiet
    assert not read_python("import django; django.setup()").quiet
