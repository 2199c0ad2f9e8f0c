"""One key, one meaning: no option of a question ever takes a key that an app showing
questions binds for itself (a person pressed `d` for the replay's details and denied a
question that read `d` as Deny)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from textual.app import App
from textual.binding import Binding

from amplifier_hooks.cli.app import ReplayApp
from amplifier_hooks.cli.approve_app import ApproverApp, QueueTable
from amplifier_hooks.ui.approval_app import ApprovalApp
from amplifier_hooks.ui.choosing import RESERVED_KEYS, shortcuts


def letter_keys(*owners: type[App[object]] | type[QueueTable]) -> set[str]:
    """The single printable keys the classes bind (space and the like are never options)."""
    keys: set[str] = set()
    for owner in owners:
        for binding in owner.BINDINGS:
            key = binding.key if isinstance(binding, Binding) else binding[0]
            keys.update(k.strip() for k in key.split(",") if len(k.strip()) == 1)
    return keys


def test_every_letter_an_app_binds_is_reserved_from_the_options() -> None:
    bound = letter_keys(ReplayApp, ApproverApp, QueueTable, ApprovalApp)
    assert bound, "the apps bind letters of their own"
    assert bound <= RESERVED_KEYS
    assert "d" not in bound  # Deny's letter in the default options


@given(st.lists(st.text(min_size=1, max_size=20).filter(str.strip), min_size=1, max_size=12))
def test_no_option_shortcut_is_an_app_key(options: list[str]) -> None:
    keys = shortcuts(options)
    assert not set(keys) & RESERVED_KEYS
    assert set(keys.values()) <= set(options)


def test_the_default_options_keep_their_letters() -> None:
    assert shortcuts(["Allow once", "Allow always", "Deny"]) == {
        "1": "Allow once",
        "a": "Allow once",
        "2": "Allow always",
        "l": "Allow always",
        "3": "Deny",
        "d": "Deny",
    }
    # An option whose first letter is an app's own key takes another of its letters.
    assert shortcuts(["Reject", "Proceed"]) == {
        "1": "Reject",
        "e": "Reject",
        "2": "Proceed",
        "c": "Proceed",
    }
