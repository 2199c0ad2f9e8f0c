"""Why a module was left out of a load, as problems located in the bundle.

A module that rejects its config (`ModuleConfigError`) is reported at the line of each bad
key, in the file that wrote it; any other failure at the entry that asked for the module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from amplifier_hooks.bundles.format import HookEntry
from amplifier_hooks.bundles.reading import Problem, render_key_path
from amplifier_hooks.kit.config import ModuleConfigError

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


def location(problem: Problem) -> str:
    """``file:line: key.path`` of a problem, without its message."""
    return str(Problem("", problem.file, problem.line, problem.key_path))


__all__ = ["ModuleFailure", "Stage", "config_problems", "location"]
