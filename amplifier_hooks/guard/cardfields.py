"""An edit that makes the app's own form take a payment card's number.

A payment provider's hosted field (Stripe's ``CardElement``, Braintree's Hosted Fields, an
Adyen drop-in) keeps the card number off the app's servers, and so out of the PCI audit's
scope; an ``<input name="card_number">`` or ``cvc`` field of the app's own sends it
through every server, log and error report on the way. An edit whose new text adds such a
field is marked `CARD_FIELDS_RAW` (asked).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["CARD_FIELDS_RAW", "takes_card_numbers"]

CARD_FIELDS_RAW = "@card-fields-raw"
_FIELD = re.compile(
    r"""<input\b[^>]*\b(?:name|id|autocomplete)\s*=\s*["'{]?\s*["']?(?:card[-_]?number|cc[-_]?number"""
    r"""|cardnumber|cc-number|cvc|cvv|cvv2|cc-csc|card[-_]?cvc|security[-_]?code)\b""",
    re.I,
)
_MAX_TEXT = 64 * 1024


def takes_card_numbers(inputs: Mapping[str, Any]) -> bool:
    """Whether a write or edit adds an input field of a card's number or security code."""
    pairs = change_pairs(inputs)
    for old, new in pairs:
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if more(_FIELD, old, new):
            return True
    return False
