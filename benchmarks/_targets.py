"""What every benchmark shares: a line per target saying whether it is met, and the smoke
run (``--smoke``: tiny sizes, so ``make test`` shows every benchmark still runs and prints
its ratios; the numbers of a smoke run mean nothing)."""

from __future__ import annotations

import argparse

__all__ = ["add_smoke", "at_least", "no_target", "target"]


def add_smoke(parser: argparse.ArgumentParser) -> None:
    """Give a benchmark the ``--smoke`` option."""
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="tiny sizes: check that the benchmark runs (its numbers mean nothing)",
    )


def target(what: str, value: float, limit: float, unit: str = "x") -> bool:
    """Print whether ``value`` is within ``limit`` (at most); True when it is."""
    met = value <= limit
    verdict = "met" if met else "NOT MET"
    print(f"target: {what} {value:.2f}{unit} (at most {limit:g}{unit}): {verdict}")
    return met


def at_least(what: str, value: float, limit: float, unit: str = "x") -> bool:
    """Print whether ``value`` reaches ``limit`` (at least); True when it does."""
    met = value >= limit
    verdict = "met" if met else "NOT MET"
    print(f"target: {what} {value:.2f}{unit} (at least {limit:g}{unit}): {verdict}")
    return met


def no_target(why: str) -> None:
    """Say that a benchmark has no numeric target, and what it checks instead."""
    print(f"target: none: {why}")
