"""An edit that makes a check's answer a constant yes.

A check is often a small function the framework calls: Go's websocket ``CheckOrigin``,
Socket.IO's ``allowRequest``, a rate limiter's ``skip``, type-graphql's ``authChecker``,
NestJS's ``canActivate``, a WordPress filter's callback. Replaced by one that always says
yes (``() => true``, ``func(r *http.Request) bool { return true }``, ``callback(null,
true)``, ``lambda *_: True``, ``'__return_true'``), or its result set to yes outright
(``$check = true;`` in place of the password's comparison), it lets every request through
from the next deploy, and the diff reads as a simplification. An edit whose new text gives a name
that says what a check is about (`checkwords`; or ``check``, ``guard``, ``skip``) such a
constant, where its old text gave the same name something else, is a protection switched
off (`switchedoff.PROTECTION_SWITCHED_OFF`, asked). Tests are left out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.checkwords import check_words_in, shipped
from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["makes_check_constant"]

_YES = (
    r"(?:(?:async\s+)?\([^()\n]*\)\s*=>\s*(?:\{\s*(?:return\s+)?)?(?:true|callback\(\s*null\s*,"
    r"\s*true\s*\)|cb\(\s*null\s*,\s*true\s*\))"  # JavaScript's arrows
    r"|(?:async\s+)?function\s*\w*\s*\([^()\n]*\)\s*\{\s*return\s+true\b"
    r"|func\s*\([^()\n]*\)\s*bool\s*\{\s*return\s+true\b"  # Go's
    r"|lambda[^:\n]*:\s*True\b"  # Python's
    r"|[\"']__return_true[\"'])"  # WordPress's
)
_GIVEN = re.compile(r"(?P<name>[A-Za-z_][\w]*)[\"']?\s*(?:=>|[:=])\s*" + _YES)
"""A key or variable given a function that always says yes (``CheckOrigin: func(...)``)."""
_DEFINED = re.compile(
    r"\b(?:def|function|func(?:\s*\([^)]*\))?)\s+(?P<name>\w+)\s*\([^()\n]*\)[^{:\n]*[{:]\s*"
    r"return\s+(?:true|True)\b"
)
"""A function or method defined to return yes, whatever it is given."""
_METHOD = re.compile(
    r"(?<![\w.])(?!(?:if|while|for|switch|catch|return)\b)(?P<name>[A-Za-z_]\w*)\s*\([^()\n]*\)"
    r"\s*(?::\s*[\w<>\[\]|. ]+)?\s*\{\s*return\s+true\b"
)
"""A method (TypeScript's, Java's, PHP's) whose body says yes (``canActivate(ctx) {
return true;``)."""
_SET = re.compile(
    r"^[ \t]*(?:(?:let|var|const|my|local|auto|bool)\s+)?\$?(?P<name>[A-Za-z_]\w*)"
    r"\s*:?=\s*(?:true|True|TRUE)\s*;?[ \t]*$",
    re.M,
)
"""A check's result set to yes outright (``$check = true;``, ``verified = True``)."""
_FILTERED = re.compile(r"\badd_filter\(\s*[\"'](?P<name>\w+)[\"']\s*,\s*[\"']__return_true[\"']")
"""A WordPress filter answered by ``__return_true`` (a coupon's ``is_valid``)."""
_ANSWERS = frozenset(
    {"check", "checked", "allowed", "authorized", "authorised", "authenticated", "valid",
     "verified", "permitted", "granted", "trusted", "passed", "can", "admin"}
)  # fmt: skip
"""Parts of a name that holds a check's answer (``$check``, ``isValid``, ``verified``)."""
_ALSO = frozenset({"check", "checker", "guard", "skip", "canactivate", "allowrequest"})
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def makes_check_constant(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether the edit gives a check's name a function that always says yes, where the
    old text gave it something else."""
    if paths and not any(map(shipped, paths)):
        return False
    for old, new in change_pairs(inputs):
        if not old or "true" not in new.lower():
            continue
        for name in _constant_names(new) - _constant_names(old):
            if re.search(rf"\b{re.escape(name)}\b", old) and _names_check(name):
                return True
    return False


def _constant_names(text: str) -> set[str]:
    found = {
        m.group("name") for p in (_GIVEN, _DEFINED, _METHOD, _FILTERED) for m in p.finditer(text)
    }
    # a result, not a setting: `verified = True` answers, `secure = True` protects
    found.update(
        m.group("name")
        for m in _SET.finditer(text)
        if _ANSWERS.intersection(p.lower() for p in _WORD.findall(m.group("name")))
    )
    return found


def _names_check(name: str) -> bool:
    """Whether ``name`` says what a check is about (``authChecker``, ``CheckOrigin``)."""
    parts = {p.lower() for p in _WORD.findall(name)} | {name.lower()}
    if parts & (_ALSO | _ANSWERS):
        return True
    return check_words_in(name) is not None
