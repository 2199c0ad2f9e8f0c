"""Where an approval store lives, as a person writes it: the one reader of store locations.

A location is ``:memory:``, a file path, ``sqlite:///PATH`` or a ``postgresql://`` (or
``postgres://``) URL, whether it comes from ``--store``, ``$AMPLIFIER_HOOKS_STORE`` or a
bundle's ``session.approvals.store``. `check_location` refuses what would otherwise go
wrong quietly: a misspelt scheme (``postgressql://…`` would become a folder named
``postgressql:`` holding a SQLite file) and a file in a folder that does not exist (a
typo would create the folder). Nothing is created by checking. The user's state file
(`default_store_path`) is ours, so its folder is created when it is first opened.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path

from amplifier_hooks.approvals.store.records import MEMORY, ApprovalStoreError

__all__ = ["SCHEMES", "StoreLocationError", "check_location", "sqlite_target"]

SCHEMES = ("postgresql://", "postgres://", "sqlite://")
"""The URL schemes a store location may have."""

_FORMS = "expected a file path, :memory:, sqlite:///PATH or a postgresql:// URL"
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+):")


class StoreLocationError(ApprovalStoreError):
    """A store location that cannot be used. ``problem`` says what is wrong; ``origin``
    (``--store``, ``$AMPLIFIER_HOOKS_STORE``…) says where it was given, when known."""

    def __init__(self, problem: str, origin: str | None = None) -> None:
        self.problem = problem
        self.origin = origin
        super().__init__(f"{origin}: {problem}" if origin else problem)

    def at(self, origin: str) -> StoreLocationError:
        """The same problem, said to come from ``origin``."""
        return StoreLocationError(self.problem, origin)


def sqlite_target(location: str) -> str:
    """The SQLite path a ``sqlite://`` location names (``sqlite://`` alone: ``:memory:``);
    any other location as it is."""
    if location.startswith("sqlite://"):
        return location.removeprefix("sqlite://") or MEMORY
    return location


def check_location(location: str | os.PathLike[str], origin: str | None = None) -> None:
    """Raise `StoreLocationError` if ``location`` names no usable store: an unknown URL
    scheme (with the known one it is closest to), or a file whose folder does not exist
    or is not a folder. Relative paths are taken from the current directory."""
    if not isinstance(location, str):
        _check_path(Path(location), origin)
        return
    if location == MEMORY or location.startswith(SCHEMES[:2]):
        return
    if location.startswith(SCHEMES[2]):
        target = sqlite_target(location)
        if target != MEMORY:
            _check_path(Path(target), origin)
        return
    scheme = _SCHEME.match(location)
    if scheme is not None:
        word = scheme.group(1).lower()
        close = difflib.get_close_matches(word, [s[:-3] for s in SCHEMES], n=1, cutoff=0.75)
        slashes = location[scheme.end() :].startswith("//")
        if slashes or close:
            # Only the scheme is repeated: the rest of a URL may hold a password.
            written = scheme.group(1) + ("://" if slashes else ":")
            hint = f" (did you mean {close[0]}://?)" if close else ""
            raise StoreLocationError(f"unknown store scheme {written!r}{hint}; {_FORMS}", origin)
    _check_path(Path(location), origin)


def _check_path(path: Path, origin: str | None) -> None:
    try:
        path = path.expanduser()
        folder = path.parent
        if path.is_dir():
            problem = f"{path} is a folder; expected a file in it, e.g. {path / 'approvals.db'}"
        elif folder.is_dir():
            return
        elif folder.exists():
            problem = f"{folder} is not a folder"
        else:
            problem = f"the folder {folder} does not exist (create it, or name a file elsewhere)"
    except (RuntimeError, ValueError, OSError) as exc:  # `~nobody`, a NUL, a name too long
        problem = f"cannot use the path {str(path)!r}: {exc}"
    raise StoreLocationError(problem, origin)
