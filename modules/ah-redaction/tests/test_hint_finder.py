"""ah-redaction's hint check: the scrubber skips a text only when no rule could match it,
and the finder of hints says exactly whether any hint is in a text."""

from __future__ import annotations

from amplifier_module_ah_redaction import RedactionConfig, Redactor
from amplifier_module_ah_redaction.rules import PII_RULES, SECRET_RULES
from amplifier_module_ah_redaction.scrubber import _ONE_LOOK, _finder
from hypothesis import given, settings
from hypothesis import strategies as st

_HINT_PIECES = sorted({h for r in (*SECRET_RULES, *PII_RULES) for h in r.hints})


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(_HINT_PIECES)
        | st.sampled_from([h.upper() for h in _HINT_PIECES])
        | st.text(alphabet=st.sampled_from("aKkSs-_:/@ \u0131\u017f\u212a\u0130xX0"), max_size=6),
        max_size=5,
    ).map("".join),
    st.booleans(),
)
def test_the_one_pass_hint_check_skips_only_texts_no_rule_would_run_on(
    text: str, pii: bool
) -> None:
    # The scrubber looks for every rule's hints at once; a text it skips must be one
    # that each rule's own hint test would have skipped too (case folding included).
    redactor = Redactor(RedactionConfig(pii=pii))
    each = any(rule.may_match(text, text.lower()) for rule in redactor.rules)
    assert redactor.scrubber._hinted.may_match(text) is each or redactor.scrubber._hinted.always


@settings(max_examples=300, deadline=None)
@given(
    st.sets(st.text(alphabet=st.sampled_from("eyJg_h:/-(A"), min_size=1, max_size=5), max_size=6),
    st.text(alphabet=st.sampled_from("eyJg_h:/-(A. "), max_size=40),
)
def test_the_hint_finder_says_whether_any_hint_is_in_a_text(hints: set[str], text: str) -> None:
    # Each hint is looked for from its rarest character, the rest of it around that one
    # (in a long text one anchor at a time, in a short one all at once).
    find = _finder(hints)
    if not hints:
        assert find is None
        return
    assert find is not None
    for seen in (text, text + " " * _ONE_LOOK, " " * _ONE_LOOK + text):
        assert find(seen) is any(hint in seen for hint in hints)
