"""The notebook a notebook runner executes: its code runs with the person's files and
credentials, as a script's does.

``papermill IN OUT`` runs IN (a path or a URL: papermill fetches ``http(s)://``, ``s3://``,
``gs://``, ``abs://`` and ``adl://`` notebooks itself); ``jupyter nbconvert --execute NB``
and ``jupyter execute NB`` run NB (``jupyter-nbconvert``, ``jupyter-execute`` too). A
notebook fetched from the network is code no one here has read (`REMOTE_NOTEBOOK`); one
an earlier piece of the same command writes (``curl -O URL && jupyter nbconvert
--execute x.ipynb``) is a script written and run (`earlier`).
"""

from __future__ import annotations

from amplifier_hooks.guard.marking import mark_each
from amplifier_hooks.guard.model import Piece

__all__ = ["REMOTE_NOTEBOOK", "RUNNERS", "executed_notebooks", "mark_remote_notebooks"]

REMOTE_NOTEBOOK = "@remote-notebook"
"""A notebook runner given a notebook by URL."""

_PAPERMILL_VALUED = frozenset(
    {"-p", "--parameters", "-r", "--parameters_raw", "-f", "--parameters_file", "-y",
     "--parameters_yaml", "-b", "--parameters_base64", "--cwd", "-k", "--kernel",
     "-l", "--language", "--engine", "--execution-timeout", "--start-timeout",
     "--log-level", "--inject-paths"}
)  # fmt: skip
"""papermill's options that take a value (``-p``/``-r`` take two: `_PAIRED`)."""
_PAIRED = frozenset({"-p", "--parameters", "-r", "--parameters_raw"})
_NBCONVERT_VALUED = frozenset(
    {"--to", "--output", "--output-dir", "--template", "--config", "--log-level",
     "--ExecutePreprocessor.kernel_name", "--ExecutePreprocessor.timeout", "--writer",
     "--post", "--reveal-prefix", "--nbformat", "--kernel_name", "--kernel"}
)  # fmt: skip
"""nbconvert's (and ``jupyter execute``'s) options that take the next word as a value
when not given with ``=``."""
_REMOTE = ("http://", "https://", "s3://", "gs://", "abs://", "adl://", "hf://")
RUNNERS = frozenset({"papermill", "jupyter", "jupyter-nbconvert", "jupyter-execute"})


def executed_notebooks(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The notebooks ``program args`` executes (as given): () when it runs none."""
    if program == "papermill":
        operands = _operands(args, _PAPERMILL_VALUED, _PAIRED)
        return tuple(operands[:1])
    if program == "jupyter":
        if not args or args[0] not in ("nbconvert", "execute"):
            return ()
        program, args = "jupyter-" + args[0], args[1:]
    if program == "jupyter-nbconvert" and "--execute" not in args:
        return ()
    if program in ("jupyter-nbconvert", "jupyter-execute"):
        return tuple(_operands(args, _NBCONVERT_VALUED, frozenset()))
    return ()


def _operands(args: tuple[str, ...], valued: frozenset[str], paired: frozenset[str]) -> list[str]:
    """The words of ``args`` that are not options nor their values."""
    found: list[str] = []
    skip = 0
    ended = False
    for arg in args:
        if skip:
            skip -= 1
            continue
        if ended or not arg.startswith("-") or arg == "-":
            found.append(arg)
        elif arg == "--":
            ended = True
        elif arg in valued:
            skip = 2 if arg in paired else 1
    return found


def mark_remote_notebooks(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each run of a notebook given by URL marked (the same tuple when
    none is)."""
    return mark_each(pieces, RUNNERS, _mark_at)


def _mark_at(pieces: tuple[Piece, ...], index: int) -> tuple[str, ...]:
    piece = pieces[index]
    if piece.tool != "bash":
        return ()
    run = executed_notebooks(piece.program or "", piece.args)
    return (REMOTE_NOTEBOOK,) if any(word.startswith(_REMOTE) for word in run) else ()
