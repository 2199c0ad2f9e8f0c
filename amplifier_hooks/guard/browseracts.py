"""What an agent does on a web page through a browser's or a desktop's MCP tools.

A browser server's tool clicks, types or fills what its call names for a person to read
(Playwright's ``element``: ``"Place your order button"``; Puppeteer's CSS ``selector``:
``#submitOrderButtonId``; Stagehand's ``action``: ``"book the 7:05am flight and pay"``).
On the person's real accounts that is the act itself: an order placed, money sent, a post
published, a form submitted to an office, a booking, a deletion. Such a call is marked
`BROWSER_ACTS` (asked); one that turns an account's protection off (two-step
verification, a recovery phone or a security key removed, mail forwarded, passwords
exported or shown) `BROWSER_SECURITY_OFF` (denied). A script run in the page that reads
its session (``document.cookie``, ``localStorage``, ``sessionStorage``, IndexedDB) hands
the person's logins to the model or to whoever the script sends them to:
`BROWSER_SESSION_READ` (denied). Looking, searching, paging, adding to a cart and typing
into a field without submitting it stay free.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.mcpsecrets import argument_texts

__all__ = ["BROWSER_ACTS", "BROWSER_SECURITY_OFF", "BROWSER_SESSION_READ", "browser_marks"]

BROWSER_ACTS = "@browser-acts"
BROWSER_SECURITY_OFF = "@browser-security-off"
BROWSER_SESSION_READ = "@browser-session-read"

_ACTING_TOOLS = frozenset({"browser_click", "browser_type", "browser_fill_form",
                           "browser_select_option", "puppeteer_click", "puppeteer_fill",
                           "puppeteer_select", "click", "fill", "fill_form", "type_text",
                           "stagehand_act", "act", "browser_act"})  # fmt: skip
_SCRIPT_TOOLS = frozenset({"browser_evaluate", "puppeteer_evaluate", "evaluate_script",
                           "evaluate", "browser_run_code"})  # fmt: skip
_TARGETS = ("element", "selector", "uid", "action", "instruction", "ref_description")
_ACTS = frozenset({"order", "buy", "purchase", "checkout", "pay", "payment", "subscribe",
                   "subscription", "upgrade", "donate", "transfer", "send", "post", "publish",
                   "tweet", "submit", "confirm", "book", "booking", "reserve", "delete",
                   "remove", "cancel", "empty", "trash", "unsubscribe", "sell", "bid",
                   "redeem", "payee", "authorize", "approve", "allow", "invite", "invitation",
                   "reply", "share", "withdraw", "refund", "tip", "vote", "register", "enroll",
                   "generate", "logout", "request", "claim", "apply", "sign"})  # fmt: skip
"""Words of a target that say the click or the submit does something for good (``sign``
alone: ``Sign and Submit``; ``Sign in`` is read apart)."""
_LOOKS = frozenset({"in", "up"})
"""After ``sign``/``log``: entering an account, not acting in it (``Sign in``)."""
_SUBMITTED = frozenset({"message", "comment", "post", "reply", "amount", "passcode", "code",
                        "confirm", "tweet", "review", "bid", "forwarding"})  # fmt: skip
"""Fields whose text, once submitted, is sent, paid or confirmed."""
_MONEY_FIELDS = frozenset({"iban", "routing", "amount", "recipient", "payee", "swift", "bic",
                           "ssn", "social", "password"})  # fmt: skip
_GUARDS = re.compile(r"2-step|two-step|\b2fa\b|two-factor|\bmfa\b|recovery|security|sign-in|"
                     r"\blogin\b|passkey|authenticator|alerts", re.I)  # fmt: skip
"""What protects an account (with a word that takes it away: ``Turn off 2-Step``)."""
_OFF = frozenset({"off", "disable", "remove", "delete", "turn"})
_SECRETS_SHOWN = re.compile(r"\b(?:export|show|reveal|copy)\s+(?:all\s+)?passwords?\b")
_SESSION = re.compile(r"document\.cookie|localStorage|sessionStorage|indexedDB|cookieStore")
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def browser_marks(name: str, arguments: Mapping[str, Any]) -> tuple[str, ...]:
    """The marks of the MCP tool ``name`` (``mcp__<server>__<tool>``) called with
    ``arguments``, when it acts on a page (see the module); none for any other tool."""
    tool = name.rpartition("__")[2]
    if tool in _SCRIPT_TOOLS:
        script = " ".join(argument_texts(arguments))
        return (BROWSER_SESSION_READ,) if _SESSION.search(script) else ()
    if tool not in _ACTING_TOOLS:
        return ()
    target = " ".join(str(arguments.get(k, "")) for k in _TARGETS).strip()
    words = _words(target)
    submitted = arguments.get("submit") is True
    fields = _field_words(arguments)
    if _security_off(words, target, fields):
        return (BROWSER_SECURITY_OFF,)
    if _acts(words) or (submitted and not _SUBMITTED.isdisjoint(words)):
        return (BROWSER_ACTS,)
    if not _MONEY_FIELDS.isdisjoint(fields) or (tool.endswith("fill") and "amount" in words):
        return (BROWSER_ACTS,)
    return ()


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _acts(words: list[str]) -> bool:
    for index, word in enumerate(words):
        if word in _ACTS and not (word == "sign" and words[index + 1 : index + 2] == ["in"]):
            return True
        if word in ("sign", "log") and words[index + 1 : index + 2] == ["out"]:
            return True
    return False


def _security_off(words: list[str], target: str, fields: set[str]) -> bool:
    if _SECRETS_SHOWN.search(target.lower()) or "forwarding" in words:
        return True
    if "recovery" in fields:  # a recovery address or phone changed: the account's way back
        return True
    return _GUARDS.search(target) is not None and not _OFF.isdisjoint(words)


def _field_words(arguments: Mapping[str, Any]) -> set[str]:
    """The words of the names of the fields a form fill sets (``fields: [{name, value}]``)."""
    fields = arguments.get("fields")
    found: set[str] = set()
    if isinstance(fields, list):
        for field in fields[:100]:
            if isinstance(field, Mapping) and isinstance(field.get("name"), str):
                found.update(_words(field["name"]))
    return found
