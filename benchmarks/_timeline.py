"""Which calls of a load run were the slow ones, and what the server's garbage collector
did meanwhile: the slowest 1% of the calls, how many were their session's first call,
how many were sent at the very start of the run, and the windows of time they fill
(each from a slow call's sending to its answer, merged where they overlap), with the
collections that ran inside each window (from ``benchmarks/gcprobe``).

A call that waited behind a pause of the server is sent before the pause and answered
just after it, so the calls of one stall overlap and make one window; a window with no
collection in it was something else.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Call", "Collection", "Probe", "Turn", "read_probe", "summary"]

EARLY = 0.2
"""Seconds from the start of a run that count as its start (the clients' first sessions)."""

WINDOWS = 6
"""Windows of slow calls printed (the fullest)."""


@dataclass(frozen=True, slots=True)
class Call:
    sent: float  # seconds since the run started
    latency: float  # seconds
    first: bool  # its session's first call


@dataclass(frozen=True, slots=True)
class Collection:
    start: float  # seconds since the run started
    ms: float
    generation: int
    paced: bool  # asked for by the server's `Collector`, not by CPython's thresholds


@dataclass(frozen=True, slots=True)
class Turn:
    start: float  # seconds since the run started
    ms: float  # its callbacks' time in all
    callbacks: int
    longest_ms: float
    longest: str  # the slowest callback's task, and where it waits after


@dataclass(frozen=True, slots=True)
class Probe:
    collections: list[Collection]
    turns: list[Turn]

    def between(self, start: float, end: float) -> Probe:
        return Probe(
            [c for c in self.collections if start <= c.start <= end],
            [t for t in self.turns if start <= t.start <= end],
        )


def read_probe(path: Path, origin: float) -> Probe:
    """What the probe wrote to ``path``, its times relative to ``origin`` (the run's
    start on `time.monotonic`)."""
    probe = Probe([], [])
    for line in path.read_text(encoding="utf-8").splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "gc":
            start, ms, generation, by = rest.split()
            at = float(start) - origin
            probe.collections.append(Collection(at, float(ms), int(generation), by == "paced"))
        elif kind == "turn":
            start, ms, count, longest_ms, name = rest.split()
            at = float(start) - origin
            probe.turns.append(Turn(at, float(ms), int(count), float(longest_ms), name))
    return probe


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}"


def _windows(slow: list[Call]) -> list[tuple[float, float, list[Call]]]:
    windows: list[tuple[float, float, list[Call]]] = []
    for one in sorted(slow, key=lambda c: c.sent):
        end = one.sent + one.latency
        if windows and one.sent <= windows[-1][1]:
            start, last, calls = windows[-1]
            windows[-1] = (start, max(last, end), [*calls, one])
        else:
            windows.append((one.sent, end, [one]))
    return windows


def _collections(found: list[Collection]) -> str:
    if not found:
        return "none"
    kinds = []
    for paced in (True, False):
        for generation in (2, 1, 0):
            ms = [c.ms for c in found if c.generation == generation and c.paced == paced]
            if ms:
                name = f"{'paced' if paced else 'auto'} gen{generation}"
                kinds.append(f"{name} x{len(ms)} ({sum(ms):.0f} ms, longest {max(ms):.1f})")
    return ", ".join(kinds)


def _turns(found: list[Turn]) -> str:
    if not found:
        return "none"
    by_name: dict[str, list[float]] = {}
    for turn in found:
        by_name.setdefault(turn.longest, []).append(turn.longest_ms)
    top = sorted(by_name.items(), key=lambda item: sum(item[1]), reverse=True)[:3]
    slowest = ", ".join(f"{name} x{len(ms)} ({sum(ms):.0f} ms)" for name, ms in top)
    longest = max(t.ms for t in found)
    return (
        f"{len(found)} ({sum(t.ms for t in found):.0f} ms, longest {longest:.0f}, at most "
        f"{max(t.callbacks for t in found)} callbacks); their slowest callbacks: {slowest}"
    )


def summary(calls: list[Call], probe: Probe | None, share: float = 0.01) -> list[str]:
    """Lines saying where the slowest ``share`` of ``calls`` were (see the module
    docstring); ``probe`` None: the server was not probed."""
    if not calls:
        return []
    ranked = sorted(calls, key=lambda c: c.latency, reverse=True)
    slow = ranked[: max(1, int(len(calls) * share))]
    firsts = [c.latency for c in calls if c.first]
    later = [c.latency for c in calls if not c.first]
    lines = [
        f"slowest {share:.0%}: {len(slow)} calls of {slow[-1].latency * 1000:.1f} ms or more; "
        f"{sum(c.first for c in slow)} were a session's first call (of {len(firsts)}), "
        f"{sum(c.sent < EARLY for c in slow)} sent in the run's first {_ms(EARLY)} ms",
    ]
    if firsts and later:
        lines.append(
            f"  a session's first call: median {statistics.median(firsts) * 1000:.1f} ms; "
            f"a later call: median {statistics.median(later) * 1000:.1f} ms"
        )
    windows = _windows(slow)
    lines.append(f"  they fill {len(windows)} windows (sent .. answered, overlapping merged):")
    for start, end, inside in sorted(windows, key=lambda w: len(w[2]), reverse=True)[:WINDOWS]:
        line = (
            f"    {_ms(start)}..{_ms(end)} ms: {len(inside)} calls "
            f"({sum(c.first for c in inside)} first), "
            f"longest {_ms(max(c.latency for c in inside))} ms"
        )
        lines.append(line)
        if probe is not None:
            during = probe.between(start, end)
            lines.append(f"      collections: {_collections(during.collections)}")
            lines.append(f"      long turns of the loop: {_turns(during.turns)}")
    if probe is not None:
        during = probe.between(0, max(c.sent + c.latency for c in calls))
        lines.append(f"  during the whole run: collections: {_collections(during.collections)}")
        lines.append(f"  long turns of the loop: {_turns(during.turns)}")
    return lines
