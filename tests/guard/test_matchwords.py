"""The screen before a long regex's search (`guard.matchwords`): it may let a text through
that the pattern then does not match, but never stops one the pattern matches."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard.matchwords import may_match

KELVIN = "\u212a"  # folds to "k" when a pattern ignores case


def test_a_text_without_any_of_the_words_is_not_searched() -> None:
    pattern = re.compile(r"\bverify_signature\s*:\s*False|ignoreExpiration\s*:\s*true", re.I)
    assert not may_match(pattern, "def step(value):\n    return value + 1\n")
    assert may_match(pattern, "options = {'VERIFY_SIGNATURE': False}")
    assert may_match(pattern, "jwt.verify(t, k, { ignoreExpiration: true })")


def test_an_optional_word_is_not_required() -> None:
    pattern = re.compile(r"(?:secret_)?token\s*=")
    assert may_match(pattern, "token = 1")
    assert not may_match(pattern, "value = 1")


def test_a_word_in_every_alternative_of_a_group() -> None:
    pattern = re.compile(r"\b(?:pickle|marshal)\.loads?\(")
    assert may_match(pattern, "marshal.load(data)")
    assert not may_match(pattern, "json.loads(data)")


def test_a_pattern_with_a_short_alternative_is_always_searched() -> None:
    pattern = re.compile(r"\bab\b|longword")
    assert may_match(pattern, "nothing here")


def test_a_text_that_is_not_ascii_is_always_searched() -> None:
    pattern = re.compile(r"kelvin", re.I)
    text = f"{KELVIN}elvin"
    assert pattern.search(text) is not None
    assert may_match(pattern, text)


_CHARS = "abcAB_("


def _patterns() -> st.SearchStrategy[str]:
    atom = st.one_of(
        st.sampled_from([re.escape(w) for w in ("abc", "bca", "cab", "AB_", "b(a", "aab")]),
        st.sampled_from([re.escape(c) for c in _CHARS]),
        st.sampled_from([".", "[ab]", "[^a]", r"\b", r"\w", "^", "$"]),
    )

    def grouped(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        alternatives = st.lists(inner, min_size=1, max_size=3).map("|".join)
        quantifier = st.sampled_from(["", "?", "*", "+", "{0,2}", "{1,2}", "+?"])
        return st.one_of(
            st.tuples(alternatives, quantifier).map(lambda t: f"(?:{t[0]}){t[1]}"),
            st.tuples(alternatives, quantifier).map(lambda t: f"({t[0]}){t[1]}"),
            alternatives.map(lambda a: f"(?={a})"),
            alternatives.map(lambda a: f"(?!{a})"),
            alternatives.map(lambda a: f"(?i:{a})"),
        )

    sequence = st.recursive(atom, lambda inner: st.lists(st.one_of(inner, grouped(inner)),
                                                         min_size=1, max_size=6).map("".join),
                            max_leaves=12)  # fmt: skip
    return st.lists(sequence, min_size=1, max_size=3).map("|".join)


@settings(max_examples=400, deadline=None)
@given(source=_patterns(), ignore_case=st.booleans(), data=st.data())
def test_the_screen_never_stops_a_text_the_pattern_matches(
    source: str, ignore_case: bool, data: st.DataObject
) -> None:
    pattern = re.compile(source, re.I if ignore_case else 0)
    texts = data.draw(st.lists(st.text(alphabet=_CHARS + " K" + KELVIN, max_size=24), max_size=4))
    texts += data.draw(st.lists(st.from_regex(pattern), max_size=4))  # texts it matches
    for text in texts:
        if pattern.search(text) is not None:
            assert may_match(pattern, text), (source, text)
