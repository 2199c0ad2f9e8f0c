"""Validating a hook module's ``config`` from a bundle, with errors a user can act on.

A bad config raises `ModuleConfigError`. Its text is a one-line summary for a module used
on its own; its ``problems`` say which key (as a path inside the config) is wrong and what
was expected, so the loader can point at the line of the bundle that wrote that key.

The field types below (`EventName`, `EventPattern`, `ToolName`, `ChannelName`,
`PathText`) carry the checks every module would otherwise write into its own validators; a list of
them reports the bad item by its index (``events.2``), so the bundle line is exact.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Annotated, Any, NamedTuple, TypeVar

from pydantic import AfterValidator, BaseModel, ValidationError

from amplifier_hooks.events import validate_event_name
from amplifier_hooks.logs import get_logger
from amplifier_hooks.modules.subscriptions import validate_event_pattern
from amplifier_hooks.modules.validation_messages import describe_errors, describe_value

logger = get_logger()

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


_notices: ContextVar[list[ConfigProblem] | None] = ContextVar("config_notices", default=None)


def config_deprecated(module_id: str, path: ConfigPath, message: str) -> None:
    """Say that the key at ``path`` of ``module_id``'s config is an old spelling that still
    works (``message``: what to write instead). While the loader mounts a module it
    collects these and reports each at the bundle line that wrote the key (a warning,
    never an error); a module mounted any other way logs it."""
    collected = _notices.get()
    if collected is not None:
        collected.append(ConfigProblem(path, message))
        return
    logger.warning("deprecated config key", module=module_id, key=_dotted(path), message=message)


@contextlib.contextmanager
def collecting_config_notices() -> Iterator[list[ConfigProblem]]:
    """Inside, `config_deprecated` notices go to the yielded list instead of the log."""
    collected: list[ConfigProblem] = []
    token = _notices.set(collected)
    try:
        yield collected
    finally:
        _notices.reset(token)


def _dotted(path: Sequence[Any]) -> str:
    return ".".join(str(p) for p in path) or "<config>"


# -- field types for config models ------------------------------------------------------


def _tool_name(name: str) -> str:
    """A tool name or glob; blank is rejected."""
    if not name.strip():
        raise ValueError("tool names must not be blank")
    return name


def _channel_name(name: str) -> str:
    """A contribution channel's name: non-empty, no spaces around it."""
    if not name.strip() or name != name.strip():
        raise ValueError("channel must be a non-empty name without outer spaces")
    return name


def _path_text(path: str) -> str:
    """A path as written in the bundle (not resolved): non-empty, no NUL character."""
    if not path.strip() or "\x00" in path:
        raise ValueError("must be a non-empty path (no NUL characters)")
    return path


EventName = Annotated[str, AfterValidator(validate_event_name)]
"""One event name (``tool:pre``); anything else is rejected with the naming rule."""

EventPattern = Annotated[str, AfterValidator(validate_event_pattern)]
"""An event name or a glob over names (``tool:*``), as `Mounting.subscribe` takes."""

ToolName = Annotated[str, AfterValidator(_tool_name)]
"""A tool name or glob; blank is rejected."""

ChannelName = Annotated[str, AfterValidator(_channel_name)]
"""A contribution channel's name: non-empty, no spaces around it."""

PathText = Annotated[str, AfterValidator(_path_text)]
"""A file or directory path as written in the bundle (not resolved): non-empty, no NUL."""


__all__ = [
    "ChannelName",
    "ConfigPath",
    "ConfigProblem",
    "EventName",
    "EventPattern",
    "ModuleConfigError",
    "PathText",
    "ToolName",
    "collecting_config_notices",
    "config_deprecated",
    "parse_module_config",
]
