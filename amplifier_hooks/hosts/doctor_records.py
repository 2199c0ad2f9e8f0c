"""What ``doctor`` finds for a host: where our hooks are wired (`Wiring`) and what one
harmless call through them answered (`Probe`). Records only, so that each host's own
reading of its files (`amplifier_hooks.hosts.doctor`, and the hosts whose hooks are not
JSON settings) shares them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from amplifier_hooks.hosts.profile import HostProfile

__all__ = ["PROBE_TIMEOUT", "Probe", "Scope", "Wiring"]

PROBE_TIMEOUT = 60.0
"""Seconds a probe may take (a cold start of our hook server takes a few)."""

Scope = Literal["user", "project"]


@dataclass(frozen=True)
class Probe:
    """One harmless call through an installed hook command, and what came back."""

    event: str
    exit_code: int | None
    """None: it did not finish within the probe's time."""
    stdout: str
    stderr: str
    reading: str
    """The answer as the host reads it (``allowed``, ``denied: …``, ``no answer …``)."""
    ok: bool
    """The hook answered, in a shape the host takes (an allow, a deny, or nothing)."""


@dataclass(frozen=True)
class Wiring:
    """Our hooks in one settings file of one host."""

    profile: HostProfile
    scope: Scope
    file: Path
    events: tuple[str, ...]
    bundles: tuple[str, ...]
    commands: Mapping[str, str] = field(repr=False)
    problems: tuple[str, ...] = ()
    """What stops the host from running these hooks (empty: it will run them)."""
    notes: tuple[str, ...] = ()
    probe: Probe | None = None

    @property
    def runs(self) -> bool:
        return not self.problems
