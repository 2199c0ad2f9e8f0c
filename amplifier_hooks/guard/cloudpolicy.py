"""A cloud resource's policy that lets everyone in: a statement that allows with the
principal ``*`` (``"Principal": "*"``, ``{"AWS": "*"}``, ``{"AWS": ["arn:...", "*"]}``)
and no ``Condition`` holding it to one source.

The policy is read as JSON, not as text, so that its spacing and order hide nothing; a
policy inside a JSON string (SQS's and SNS's ``Policy`` attribute) is read too. What
cannot be read as JSON (a policy in a file, ``file://p.json``) is left to the rules on the
change itself (asked as a cloud change).
"""

from __future__ import annotations

import json

from amplifier_hooks.guard.marking import mark_each
from amplifier_hooks.guard.model import Piece

__all__ = ["POLICY_EVERYONE", "PROGRAMS", "mark_open_policies", "opens_to_everyone"]

POLICY_EVERYONE = "@policy-everyone"
"""The mark of a cloud CLI's call that gives a resource a policy allowing everyone."""
PROGRAMS = frozenset({"aws", "gcloud", "az"})
_MAX_TEXT = 64_000
_MAX_DEPTH = 12
_DECODER = json.JSONDecoder()


def mark_open_policies(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each cloud CLI call whose arguments hold a policy that allows
    everyone marked `POLICY_EVERYONE`; the same tuple when none does."""
    return mark_each(pieces, PROGRAMS, _mark_at)


def _mark_at(pieces: tuple[Piece, ...], index: int) -> tuple[str, ...]:
    return (POLICY_EVERYONE,) if any(map(opens_to_everyone, pieces[index].args)) else ()


def opens_to_everyone(text: str) -> bool:
    """Whether ``text`` (an argument: ``'{"Statement": [...]}'``, ``--policy={...}``)
    holds a policy statement that allows the principal ``*`` with no condition."""
    return _text_opens(text, 0)


def _text_opens(text: str, depth: int) -> bool:
    if "Principal" not in text or len(text) > _MAX_TEXT or depth > _MAX_DEPTH:
        return False
    start = text.find("{")
    if start < 0:
        return False
    try:
        value, _ = _DECODER.raw_decode(text, start)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
        return False
    return _opens(value, depth + 1)


def _opens(value: object, depth: int) -> bool:
    if depth > _MAX_DEPTH:
        return False
    if isinstance(value, str):  # a policy kept as a JSON string (`"Policy": "{...}"`)
        return _text_opens(value, depth + 1)
    if isinstance(value, list):
        return any(_opens(item, depth + 1) for item in value)
    if not isinstance(value, dict):
        return False
    statement = "Principal" in value and _everyone(value["Principal"])
    if statement and value.get("Effect", "Allow") == "Allow" and not value.get("Condition"):
        return True
    return any(_opens(item, depth + 1) for item in value.values())


def _everyone(principal: object) -> bool:
    """``*``, or a map whose principals (``AWS``, ``Federated``...) hold ``*``."""
    if principal == "*":
        return True
    if isinstance(principal, dict):
        return any(v == "*" or (isinstance(v, list) and "*" in v) for v in principal.values())
    return False
