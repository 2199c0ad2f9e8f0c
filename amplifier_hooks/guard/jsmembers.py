"""What a member of a JavaScript value is (``fs.rmSync``, ``process.env.HOME``), and the
kinds of value both the names bound (`jsbindings`) and the values worked out (`jsvalues`)
meet: one module under both, so that neither imports the other.
"""

from __future__ import annotations

from amplifier_hooks.guard.jsnames import QUIET_ATTRIBUTES, canonical
from amplifier_hooks.guard.pyvalues import UNKNOWN, Value

__all__ = ["DATA", "ENV", "LAMBDA", "NAMED", "member"]

DATA = Value("data")
LAMBDA = Value("lambda")
ENV = Value("env")
NAMED = frozenset({"module", "function"})
"""Kinds that name something the reader looks up in its tables."""
_SUBMODULES = frozenset({"promises", "posix", "default"})


def member(owner: Value, key: str) -> Value:
    """Member ``key`` of what ``owner`` is: a module's function, a submodule, the
    environment's ``HOME``; plain data's member is data."""
    if owner.kind in NAMED and owner.text is not None:
        if owner.kind == "module" and key in _SUBMODULES:
            return owner
        dotted = canonical(f"{owner.text}.{key}")
        if dotted in ("process.env", "Bun.env"):
            return ENV
        return DATA if dotted in QUIET_ATTRIBUTES else Value("function", dotted)
    if owner.kind == "env":
        return Value("str", "~") if key == "HOME" else UNKNOWN
    return DATA if owner.kind in ("str", "data", "result", "file") else UNKNOWN
