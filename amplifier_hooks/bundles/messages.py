"""Placing worded validation errors in a bundle: one `Problem` per error, at its line.

The wording itself (what pydantic's errors become for a person editing YAML) is
`amplifier_hooks.modules.validation_messages`, shared with the module config checks.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, ValidationError

from amplifier_hooks.bundles.reading import KeyPath, Problem
from amplifier_hooks.modules.validation_messages import describe_errors

Locate = Callable[[KeyPath, str], Problem]


def translate(exc: ValidationError, model: type[BaseModel], locate: Locate) -> list[Problem]:
    """One `Problem` per validation error, in pydantic's order (duplicates dropped)."""
    problems: list[Problem] = []
    for where, message in describe_errors(exc, model):
        problem = locate(where, message)
        if problem not in problems:
            problems.append(problem)
    return problems
