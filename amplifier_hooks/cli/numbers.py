"""Argument types for numbers on the command line: one checker, the unit and bounds given.

A bad value is a usage error (exit 2) that names the unit and the bound, whichever option
it was given to.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

__all__ = ["number_of"]


def number_of(
    unit: str,
    *,
    minimum: float = 0,
    exclusive: bool = False,
    whole: bool = False,
    finite: bool = False,
) -> Callable[[str], float]:
    """An argparse ``type`` reading a number of ``unit`` that is at least ``minimum``
    (more than it if ``exclusive``), an int if ``whole``, never infinite if ``finite``."""
    if exclusive:
        bound = f"a positive number of {unit}" if minimum == 0 else f"more than {minimum:g} {unit}"
    else:
        bound = f"{minimum:g} or more {unit}"

    def parse(text: str) -> float:
        try:
            value = int(text) if whole else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number of {unit}, got {text!r}") from None
        within = value > minimum if exclusive else value >= minimum
        if not within or (finite and not math.isfinite(value)):
            raise argparse.ArgumentTypeError(f"expected {bound}, got {text!r}")
        return value

    parse.__name__ = unit  # argparse names the type in its "invalid ... value" message
    return parse
