"""Validating a hook module's ``config`` from a bundle, with errors a user can act on.

A bad config raises `ModuleConfigError`. Its text is a one-line summary for a module used
on its own; its ``problems`` say which key (as a path inside the config) is wrong and what
was expected, so the loader can point at the line of the bundle that wrote that key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, TypeVar

from pydantic import BaseModel, ValidationError

from amplifier_hooks.bundles.messages import describe_errors
from amplifier_hooks.bundles.reading import describe_value

ConfigModel = TypeVar("ConfigModel", bound=BaseModel)

ConfigPath = tuple[str | int, ...]
"""A key's place in a config: ``("hooks", 0, "command")``; ``()`` is the config itself."""


class ConfigProblem(NamedTuple):
    """One thing wrong with a module's config."""

    path: ConfigPath
    message: str
    """What was expected, for a person: ``expected a whole number, got 'lots'``."""


class ModuleConfigError(ValueError):
    """A module's config is invalid.

    ``str(error)`` is ``invalid <module> config: <key>: <problem>; ...``; ``problems`` hold
    each key path with a readable message, and ``module_id`` names the module.
    """

    def __init__(
        self, module_id: str, problems: Sequence[ConfigProblem], message: str | None = None
    ) -> None:
        self.module_id = module_id
        self.problems: list[ConfigProblem] = list(problems)
        if message is None:
            summary = "; ".join(f"{_dotted(p.path)}: {p.message}" for p in self.problems)
            message = f"invalid {module_id} config: {summary}"
        super().__init__(message)


def parse_module_config(
    model: type[ConfigModel], raw: Mapping[str, Any] | None, module_id: str
) -> ConfigModel:
    """Validate ``raw`` (None means all defaults) against ``model``.

    Raises `ModuleConfigError` naming every bad key, so the loader can report each one at
    the bundle line that set it.
    """
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        got = describe_value(raw)
        raise ModuleConfigError(
            module_id,
            [ConfigProblem((), f"expected a mapping (key: value lines), got {got}")],
            f"{module_id} config must be a mapping, got {type(raw).__name__}",
        )
    try:
        return model.model_validate(dict(raw))
    except ValidationError as exc:
        # The text keeps pydantic's wording (module tests and logs match on it); the
        # problems carry the rewording a bundle author can act on.
        summary = "; ".join(f"{_dotted(tuple(err['loc']))}: {err['msg']}" for err in exc.errors())
        problems = [ConfigProblem(path, text) for path, text in describe_errors(exc, model)]
        raise ModuleConfigError(
            module_id, problems, f"invalid {module_id} config: {summary}"
        ) from None


def _dotted(path: Sequence[Any]) -> str:
    return ".".join(str(p) for p in path) or "<config>"


__all__ = ["ConfigPath", "ConfigProblem", "ModuleConfigError", "parse_module_config"]
