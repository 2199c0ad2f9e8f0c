"""A ``$NAME`` glued after a literal and an expansion (``cat${IFS}$HOME/.aws/credentials``)
is one word to bash; tree-sitter-bash splits it in two, and the guard reads it as bash
does (`lonedollars`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amplifier_hooks.guard.grammar import parser
from amplifier_hooks.guard.lonedollars import bash_tree, brace, lone_dollars
from tests.guard.conftest import decided


@pytest.mark.parametrize(
    "command",
    ["cat${IFS}$HOME/.aws/credentials", "cat$IFS$HOME/.aws/credentials",
     "X=1; cat${IFS}$HOME/.aws/credentials", "cp a${EMPTY}$HOME/.ssh/id_rsa /tmp/k"],
)  # fmt: skip
def test_a_secret_behind_a_split_word_is_denied(command: str) -> None:
    assert decided(command) == ("deny", "credential-read")


@pytest.mark.parametrize(
    ("source", "expected"),
    [(b"echo a$A$B/c", b"echo a$A${B}/c"), (b"cat${IFS}$HOME/x", b"cat${IFS}${HOME}/x"),
     (b"echo a${A}$1/c", b"echo a${A}${1}/c"), (b"echo a'q'$B/c", b"echo a'q'${B}/c"),
     (b"echo ${A}$B/c", b"echo ${A}$B/c"), (b'echo "a$A$B/c"', b'echo "a$A$B/c"'),
     (b"echo 'a$A$B/c'", b"echo 'a$A$B/c'"), (b"ls $HOME", b"ls $HOME")],
)  # fmt: skip
def test_only_a_dollar_the_tree_split_off_is_braced(source: bytes, expected: bytes) -> None:
    assert bash_tree(source)[1] == expected


_PART = st.sampled_from(["a", "x1", "${A}", "$A", "'q'", '"d"', "$(pwd)", "_"])
_NAME = st.sampled_from(["HOME", "B", "1", "IFS", "@"])


@given(st.lists(_PART, min_size=1, max_size=4), _NAME, st.sampled_from(["/c", "x", ""]))
def test_after_bracing_no_word_is_split_and_the_text_means_the_same(
    parts: list[str], name: str, tail: str
) -> None:
    source = f"echo {''.join(parts)}${name}{tail} next".encode()
    root, text = bash_tree(source)
    assert lone_dollars(root, text) == ()
    command = root.named_children[0]
    words = [c.text for c in command.children_by_field_name("argument")]
    assert words[-1] == b"next" and len(words) == 2, words
    # the braces are the only change: `$NAME` and `${NAME}` are the same to bash
    assert text.replace(b"${%s}" % name.encode(), b"$%s" % name.encode()) == source


def test_bracing_spots_leaves_everything_else_in_place() -> None:
    source = b"echo a$A$B/c; ls"
    spots = lone_dollars(parser().parse(source).root_node, source)
    assert brace(source, spots) == b"echo a$A${B}/c; ls"
