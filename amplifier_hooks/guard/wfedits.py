"""A GitHub workflow changed in place by a shell editor (``sed -i``, ``yq -i``): the text
the edit puts in, judged as a file tool's edit of it is (`wfchecks`).

``sed -i 's/pull_request:/pull_request_target:/' ci.yml`` puts its substitution's
replacement into the file; ``yq -i '.permissions = "write-all"' ci.yml`` its assignment,
which is read back as the YAML it writes (``permissions: write-all``). Only a piece of
those programs that names a workflow is read (a cheap screen on the program and the path).
An infrastructure file (``infra/sg.tf``) edited so is screened the same way: its
expressions, their escapes dropped, are the text `iacfiles` reads for a range of every
address (a pattern naming one is asked too: it is rare, and a person reads it at once).
"""

from __future__ import annotations

import contextlib
import json

from amplifier_hooks.guard.iacfiles import iac_file, iac_pieces
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import locate
from amplifier_hooks.guard.wfchecks import workflow_marks
from amplifier_hooks.guard.workflows import is_workflow

__all__ = ["EDITORS", "mark_workflow_edits"]

EDITORS = frozenset({"sed", "gsed", "yq"})
"""The editors whose in-place edits of a workflow are read."""
_WHY = "{} changes the GitHub workflow {} in place"


def mark_workflow_edits(pieces: tuple[Piece, ...], places: Places) -> tuple[Piece, ...]:
    """``pieces``, and a piece of each mark of the text a shell editor puts into a
    workflow (`wfchecks`)."""
    added: list[Piece] = []
    for piece in pieces:
        if piece.program not in EDITORS or not _in_place(piece.args):
            continue
        infra = [a for a in piece.args if iac_file(a) is not None]
        if infra:
            said = "\n".join(a.replace("\\", "") for a in piece.args if not a.startswith("-"))
            for name in infra:
                added.extend(iac_pieces(locate(name, piece.cwd, places).path, said))
        files = [a for a in piece.args if is_workflow(a)]
        if not files:
            continue
        text = "\n".join(_written(piece.program, piece.args))
        for name in files:
            path = locate(name, piece.cwd, places).path
            why = _WHY.format(piece.program, name)
            added.extend(
                Piece(text=piece.text, program="true", wrappers=(mark,), doubt=why)
                for mark in workflow_marks(path, text)
            )
    return (*pieces, *added) if added else pieces


def _in_place(args: tuple[str, ...]) -> bool:
    """Whether the editor writes the file back (``sed -i``, ``-Ei``, ``yq --inplace``)."""
    for arg in args:
        if arg.startswith(("--in-place", "--inplace")):
            return True
        if arg.startswith("-") and not arg.startswith("--") and "i" in arg:
            return True
    return False


def _written(program: str, args: tuple[str, ...]) -> list[str]:
    """The lines an edit's expressions write: a substitution's replacement (sed), an
    assignment read as the YAML it makes (yq)."""
    found: list[str] = []
    for arg in args:
        if arg.startswith("-") or is_workflow(arg):
            continue
        if program == "yq":
            found.extend(_assigned(arg))
        elif len(arg) > 2 and arg[0] == "s":
            parts = arg[2:].split(arg[1])
            if len(parts) >= 2:
                found.append(parts[1])
    return found


def _assigned(expression: str) -> list[str]:
    """``.a.b = "v"`` (or ``|=``) as the YAML lines ``a:\\n  b: v``."""
    found: list[str] = []
    for part in expression.replace("|=", "=").split("|"):
        target, sign, value = part.partition("=")
        keys = [k for k in target.strip().split(".") if k]
        if not sign or not keys or not target.strip().startswith("."):
            continue
        value = value.strip()
        with contextlib.suppress(ValueError):  # a JSON value: quoted as YAML reads it
            value = json.dumps(json.loads(value))
        lines = [f"{'  ' * i}{key}:" for i, key in enumerate(keys)]
        lines[-1] += f" {value}"
        found.append("\n".join(lines))
    return found
