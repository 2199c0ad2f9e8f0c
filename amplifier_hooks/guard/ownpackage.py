"""Paths computed to land in the guard's installed package, or in the code every Python of
an environment runs first.

``sed -i .. $(python3 -c 'import amplifier_hooks,os;print(os.path.dirname(amplifier_hooks.
__file__))')/guard/*.py`` and ``SP=$(...); cp x $SP/..`` name the guard's files by asking
Python where they are: the guard cannot see the answer, but the question says it. Likewise
``echo .. > $(python3 -c 'import site;print(site.getusersitepackages())')/sitecustomize.py``
(a ``.pth`` or ``usercustomize.py`` too) plants code every Python there runs at start, the
guard's own hooks among them. The pieces of such a command whose words are computed are
marked (`GUARD_PACKAGE_COMPUTED`); the pack's rule `self-protect-guard-computed` denies the
ones that change such a path. Reading there (``ls $(...)``) stays free.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece

__all__ = ["GUARD_PACKAGE_COMPUTED", "mark_own_package"]

GUARD_PACKAGE_COMPUTED = "@guard-package-computed"
"""The mark of a piece given a path computed to be in the guard's package (or in the
start-up code of Python's site folder)."""

_LOCATES_GUARD = re.compile(
    r"import\s+(?:[\w.]+\s*,\s*)*(?:amplifier_hooks|amplifier_module_ah_\w+)"
    r"|find_spec\(\s*['\"](?:amplifier_hooks|amplifier_module_ah_)"
    r"|pip3?\s+show\s+(?:-f\s+|--files\s+)?amplifier[-_]hooks"
    r"|(?:amplifier_hooks|amplifier_module_ah_\w+)\.__(?:file|path)__"
)
"""Code or commands that print where the guard's package (or a hook module) is."""
_LOCATES_SITE = re.compile(r"getusersitepackages|getsitepackages|USER_SITE|get_paths?\(|"
                           r"purelib|platlib")  # fmt: skip
"""Code that prints where an environment's site folder is."""
_STARTUP = re.compile(r"(?:sitecustomize|usercustomize)\.py['\"]?$|\.pth['\"]?$")
"""The files of a site folder Python runs at every start."""


def mark_own_package(command: str, pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with `GUARD_PACKAGE_COMPUTED` on each piece given a computed path, when
    ``command`` asks where the guard's package is (or on each given a computed start-up
    file of the site folder, when it asks where that is); screened on the text first."""
    if "amplifier" not in command and "site" not in command and "pth" not in command:
        return pieces
    guard = _LOCATES_GUARD.search(command) is not None
    site = _LOCATES_SITE.search(command) is not None
    if not guard and not site:
        return pieces
    out = list(pieces)
    for index, piece in enumerate(pieces):
        words = [w for w in (*piece.args, *piece.writes) if "$" in w or "`" in w]
        if (guard and words) or (site and any([_STARTUP.search(w) for w in words])):
            out[index] = piece._replace(wrappers=(*piece.wrappers, GUARD_PACKAGE_COMPUTED))
    return tuple(out)
