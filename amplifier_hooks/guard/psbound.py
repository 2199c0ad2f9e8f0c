"""A cmdlet's parameters as PowerShell binds them, and what the act that reads them may ask
of the reader (`psreader`): its own module so that the acts (`psacts`) and the provider
paths they recognise (`psproviders`) share one binding and neither imports the other.
"""

from __future__ import annotations

import re
from typing import NamedTuple, Protocol

from amplifier_hooks.guard.pstokens import Token
from amplifier_hooks.guard.psvalues import Value, Values, quote

__all__ = ["Bound", "Reader"]


class Reader(Protocol):
    """What a cmdlet's act reads and leaves for the next command (`psreader` keeps it)."""

    home_name: str
    values: Values
    reads: bool
    piped: list[str]
    found: list[str]
    location: str | None

    def word(self, token: Token, path: bool = False) -> Value: ...

    def read_nested(self, text: str) -> str: ...

    def cmd(self, text: str) -> str: ...

    def powershell(self, code: str) -> str: ...


_PROVIDER = re.compile(r"^[a-z][a-z0-9]+:", re.IGNORECASE)


class Bound(NamedTuple):
    """A cmdlet's parameters as PowerShell binds them (names in lower case)."""

    named: dict[str, list[Token]]
    switches: frozenset[str]
    extra: tuple[Token, ...]
    redirects: tuple[tuple[str, Token | None], ...]
    unknown: tuple[str, ...]
    reader: Reader

    def first(self, name: str, path: bool = False) -> str | None:
        """The plain value of parameter ``name`` (None: unset or known only at run time)."""
        tokens = self.named.get(name)
        return self.reader.word(tokens[0], path=path).plain if tokens else None

    def value(self, name: str, path: bool = False) -> Value | None:
        tokens = self.named.get(name)
        return self.reader.word(tokens[0], path=path) if tokens else None

    def paths(self, *names: str) -> list[str]:
        """The shell words of every path the parameters ``names`` (and stray positional
        words) are given; ``a,b`` is two."""
        found: list[str] = []
        tokens = [t for n in names for t in self.named.get(n, [])] + list(self.extra)
        for token in tokens:
            got = self.reader.word(token, path=True)
            if got.plain is not None and (_PROVIDER.match(got.plain) or got.plain[:2] == "//"):
                self.reader.reads = False  # a provider's drive (Env:, Cert:), a share
            if got.plain is not None and "," in got.plain:
                found.extend(quote(p) for p in got.plain.split(",") if p)
            else:
                found.append(got.shell)
        return found
