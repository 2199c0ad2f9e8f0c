"""Globs on words (a rule's ``args`` and ``env``): a set holds for a word exactly when one
of its globs, read as `fnmatch` reads it in any case, matches the whole word -- however
the set is compiled (plain string tests where the glob and a long word are ASCII)."""

from __future__ import annotations

import re
from fnmatch import translate

from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard.wordglobs import WordGlobs

_PIECES = ["*", "*", "a", "B", "env", "TOKEN", ".ssh/", "--force", "=", "?", "[ab]", "[!-]",
           "\n", "k", "s", "İ"]  # fmt: skip
_CHARS = "aAbBkKsSeEnNvV.-=/*?[]\n\u212a\u017f\u0130\u0131 "
"""Word characters, with those that fold to ASCII letters in a regex's any-case match
(the Kelvin sign, the long s, the dotted and dotless i)."""


def _fnmatch_any_case(globs: list[str], word: str) -> bool:
    regex = re.compile("|".join(f"(?:{translate(g)})" for g in globs), re.DOTALL | re.I)
    return regex.match(word) is not None


@settings(max_examples=800, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(_PIECES), max_size=5).map("".join), min_size=1, max_size=4),
    st.text(alphabet=_CHARS, max_size=40),
)
def test_a_word_glob_set_holds_as_fnmatch_in_any_case(globs: list[str], word: str) -> None:
    assert WordGlobs(tuple(globs)).match(word) is _fnmatch_any_case(globs, word)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES[:9]), max_size=5).map("".join), st.data())
def test_a_word_made_from_a_glob_is_matched_in_any_case(glob: str, data: st.DataObject) -> None:
    word = glob.replace("*", data.draw(st.text(alphabet=_CHARS, max_size=16)))
    word = data.draw(st.sampled_from([word, word.upper(), word.swapcase()]))
    assert WordGlobs((glob,)).match(word) is _fnmatch_any_case([glob], word)


def test_inline_code_is_matched_on_the_text_it_holds() -> None:
    code = "import os\nopen(os.path.expanduser('~/.SSH/id_rsa')).read()\n"
    assert WordGlobs(("*.claude/settings*", "*.ssh/*")).match(code)
    assert not WordGlobs(("*.claude/settings*", "*.aws/*")).match(code)
    assert WordGlobs(("*environ*TOKEN*",)).match("os.environ['GH_TOKEN']")
    assert not WordGlobs(("*environ*TOKEN*",)).match("TOKEN = os.environ")
    assert WordGlobs(("--force*", "-f")).match("--FORCE-with-lease")
    assert WordGlobs(("--force*", "-f")).match("--force")
    assert not WordGlobs(("--force*", "-f")).match("-ff")
