"""What a record keeps when part of an event cannot be made safe: the rest, and a marker.

An event whose payload makes the scrub raise (a hostile ``str`` subclass, a mapping whose
``items`` fails, a bug in a scrubber) must still leave a record: an audit log with holes
is what an attacker would aim for. The part that could not be scrubbed is left out, never
written as it was, and the record says so. The failure is named by the built-in exception
class it belongs to: its message, and even the name of its own class, may have been
written by the payload.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

WITHHELD = "[WITHHELD]"
"""Stands in for a string of the outcome that could not be scrubbed."""

WITHHELD_REASON = "could not be scrubbed"


def failure_kind(exc: BaseException) -> str:
    """The name of the nearest built-in class of ``exc`` (``RuntimeError`` for a payload's
    own ``class Sneaky(RuntimeError)``): a name no payload can choose."""
    try:
        for cls in type(exc).__mro__:
            name = cls.__name__
            # By identity: a class may call itself anything, and claim to be a built-in.
            if isinstance(name, str) and getattr(builtins, name, None) is cls:
                return str.__str__(name)
    except Exception:
        pass
    return "BaseException"


def _plain(value: str) -> str:
    # A str subclass may override every method; str.__str__ copies the characters only.
    return str.__str__(value)


class Withholding:
    """Guards the parts of one record, and collects what had to be left out and why.

    Each guard lets ``KeyboardInterrupt`` through (it comes from the user, not from the
    payload) and catches everything else, ``SystemExit`` included: code in a payload that
    raises it must not cost the record.
    """

    def __init__(self, text: Callable[[str], str], cut: Callable[[str], str]) -> None:
        self.fields: list[str] = []
        self.error: str | None = None
        self._text = text
        self._cut = cut

    def outcome_text(self, value: str) -> str:
        """The ``text`` given at making, for the outcome's free text, ``WITHHELD`` when it
        raises (a method, so a record makes no closure for it)."""
        try:
            return self._text(value)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            self.failed("outcome", exc)
            return WITHHELD

    def handler_name(self, value: str) -> str:
        """The ``text`` given at making, for a handler name: a name is not payload, so
        when the scrub raises it is kept, only cut (``cut``), rather than lose who decided."""
        try:
            return self._text(value)
        except KeyboardInterrupt:
            raise
        except BaseException:
            return self._cut(_plain(value))

    def failed(self, field: str, exc: BaseException) -> None:
        """Note that ``field`` was left out because of ``exc``."""
        if field not in self.fields:
            self.fields.append(field)
        if self.error is None:
            self.error = failure_kind(exc)

    def marker(self) -> dict[str, Any] | None:
        """The record's ``withheld`` field, or None when nothing was left out."""
        if not self.fields:
            return None
        return {"fields": list(self.fields), "reason": WITHHELD_REASON, "error": self.error}
