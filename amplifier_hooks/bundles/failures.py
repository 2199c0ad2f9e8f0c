"""Why a module was left out of a load, as problems located in the bundle.

A module that rejects its config (`ModuleConfigError`) is reported at the line of each bad
key, in the file that wrote it; any other failure at the entry that asked for the module.
`module_failed` makes the record and logs it, at the moment the module fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from amplifier_hooks.bundles.format import HookEntry
from amplifier_hooks.bundles.reading import Problem, render_key_path
from amplifier_hooks.logs import get_logger
from amplifier_hooks.modules.config import ModuleConfigError

logger = get_logger()

Stage = Literal["load", "mount", "session_ready"]
_STAGE_TEXT: dict[Stage, str] = {
    "load": "could not be loaded",
    "mount": "failed to mount",
    "session_ready": "failed in on_session_ready",
}


@dataclass(frozen=True)
class ModuleFailure:
    """A module left out of the load, and why."""

    key: str
    module: str
    stage: Stage
    error: str
    origin: Problem | None = None
    config_problems: tuple[Problem, ...] = ()
    """When the module rejected its config: each bad key, located where the bundle (or
    the include it came from) wrote it."""

    def problem(self) -> Problem:
        """The (first) failure, located at the config key or the bundle entry."""
        return self.problems()[0]

    def problems(self) -> list[Problem]:
        """The failure as bundle problems: one per bad config key, else one at the entry."""
        if self.config_problems:
            return list(self.config_problems)
        text = f"module {self.key!r} {_STAGE_TEXT[self.stage]}: {self.error}"
        if self.origin is None:
            return [Problem(text)]
        return [Problem(text, self.origin.file, self.origin.line, self.origin.key_path)]

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems())


def config_problems(exc: BaseException, entry: HookEntry, index: int) -> tuple[Problem, ...]:
    """When ``exc`` is (or was raised from) the module rejecting its config: one problem
    per bad key, at the line that wrote it; else nothing."""
    found: BaseException | None = exc
    while found is not None and not isinstance(found, ModuleConfigError):
        found = found.__cause__
    if found is None or not found.problems:
        return ()
    lead = f"module {entry.key!r} rejected its config: "
    located: list[Problem] = []
    for path, message in found.problems:
        problem = entry.config_problem(path, lead + message)
        if problem is None:  # an entry built in code: no file, but still the key path
            where = render_key_path(("hooks", index, "config", *path))
            problem = Problem(lead + message, key_path=where)
        if problem not in located:
            located.append(problem)
    return tuple(located)


def module_failed(
    entry: HookEntry,
    index: int,
    stage: Stage,
    error: str,
    located: tuple[Problem, ...] = (),
) -> ModuleFailure:
    """The failure of ``entry`` (the ``index``-th of the bundle's hooks) at ``stage``,
    logged: with the bad config keys when ``located`` names them, else with the entry."""
    # An entry built in code has no file or line, but still its place in the bundle.
    origin = entry.origin or Problem("", key_path=render_key_path(("hooks", index)))
    failure = ModuleFailure(entry.key, entry.module or entry.key, stage, error, origin, located)
    if located:
        logger.error(
            "hook module failed",
            module=failure.key,
            stage=stage,
            error=error,
            where=location(located[0]),
            problems=[str(p) for p in located],
        )
        return failure
    logger.error(
        "hook module failed",
        module=failure.key,
        stage=stage,
        error=error,
        where=str(failure.origin) if failure.origin is not None else None,
    )
    return failure


def location(problem: Problem) -> str:
    """``file:line: key.path`` of a problem, without its message."""
    return str(Problem("", problem.file, problem.line, problem.key_path))


__all__ = ["ModuleFailure", "Stage", "config_problems", "location", "module_failed"]
