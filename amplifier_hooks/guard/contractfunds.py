"""Code that lets tokens go where no one approved: a contract function anyone may call
that moves the contract's funds, and an unlimited approval to a fixed address.

A Solidity function that is ``external`` or ``public``, carries no access modifier
(``onlyOwner``, ``onlyRole(...)``) and checks no caller in its first lines, yet transfers
tokens or ether (``safeTransfer``, ``transfer``, ``call{value: ...}``, ``selfdestruct``)
hands the contract's balance to the first caller once it is deployed. A front end's or a
script's ``approve(0x..., maxUint256)`` lets that one address spend every token the user
holds, forever. Each is marked `FUNDS_UNGUARDED` (asked: a person who knows the contract
reads it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["FUNDS_UNGUARDED", "unguards_funds"]

FUNDS_UNGUARDED = "@funds-unguarded"
_FUNCTION = re.compile(
    r"\bfunction\s+\w+\s*\([^)]*\)(?P<head>[^{;]*)\{(?P<body>(?:[^{}]|\{[^{}]*\})*)\}", re.S
)
_OPEN = re.compile(r"\b(?:external|public)\b")
_READS_ONLY = re.compile(r"\b(?:view|pure)\b")
_MODIFIER = re.compile(r"\b(?:only\w+|auth|requiresAuth|whenAuthorized|restricted)\b")
_CALLER_CHECKED = re.compile(
    r"\b(?:require|if)\s*\([^;]*\bmsg\.sender\b|_checkOwner\(|_checkRole\(|hasRole\("
    r"|_onlyOwner\(|_authorize\w*\("
)
_MOVES = re.compile(r"\b(?:safeTransfer|transfer|send|selfdestruct)\s*\(|\.call\s*\{\s*value\s*:")
_UNLIMITED = re.compile(
    r"\bapprove\s*\((?=[^;]{0,200}?0x[0-9a-fA-F]{40})[^;]{0,200}?"
    r"(?:maxUint256|MaxUint256|MAX_UINT256|UINT256_MAX|type\(uint256\)\.max|2n\s*\*\*\s*256n)"
)
_NOT_DEPLOYED = re.compile(r"\.[ts]\.sol\Z|(?:^|/)(?:test|tests|script|scripts)/")
_MAX_TEXT = 64 * 1024


def unguards_funds(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether a write or edit adds a function anyone may call that moves funds, or an
    unlimited approval to a fixed address (a Foundry test's or script's contract is
    never deployed: its functions are the test's)."""
    if paths and all(_NOT_DEPLOYED.search(path) for path in paths):
        return False
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if more(_UNLIMITED, old, new):
            return True
        if "function" in new and _open_movers(new) > _open_movers(old):
            return True
    return False


def _open_movers(text: str) -> int:
    """Functions of ``text`` that anyone may call and that move funds."""
    return sum(
        1
        for found in _FUNCTION.finditer(text)
        if _OPEN.search(found["head"]) and not _READS_ONLY.search(found["head"])
        and not _MODIFIER.search(found["head"]) and _MOVES.search(found["body"])
        and not _CALLER_CHECKED.search(found["body"])
    )  # fmt: skip
