"""The folder a data hub's upload sends: the project or the home folder as a whole goes
to another machine, as ``scp -r . host:`` does (`destinations.WORKSPACE_OUT`,
`destinations.HOME_OUT`).

``huggingface-cli upload REPO [LOCAL_PATH [PATH_IN_REPO]]`` (and ``hf upload``) sends
LOCAL_PATH; ``upload-large-folder REPO LOCAL_PATH`` too. Their ``--include``,
``--exclude`` and ``--delete`` take every word up to the next option (argparse's
``nargs="*"``), so a word after them is no path. ``kaggle datasets create|version`` and
``kaggle models [instances [versions]] create`` send the folder of ``-p``/``--path``, the
working folder when it is not given (``kaggle kernels push`` sends only the code file its
metadata names: not a folder).
"""

from __future__ import annotations

from amplifier_hooks.guard.destinations import HERE_WORDS, HOME_OUT, HOME_WORDS, WORKSPACE_OUT
from amplifier_hooks.guard.marking import mark_each
from amplifier_hooks.guard.model import Piece

__all__ = ["UPLOADERS", "mark_uploads", "uploaded_folder"]

_HUBS = frozenset({"huggingface-cli", "hf"})
UPLOADERS = _HUBS | {"kaggle"}
"""The programs `mark_uploads` reads."""
_HUB_VALUED = frozenset(
    {"--repo-type", "--revision", "--commit-message", "--commit-description", "--token",
     "--every", "--num-workers"}
)  # fmt: skip
_HUB_LISTS = frozenset({"--include", "--exclude", "--delete"})
"""Options that take every word up to the next option."""
_KAGGLE_FOLDERS = frozenset({"datasets", "d", "models", "m"})
_KAGGLE_VALUED = frozenset({"-m", "--message", "-r", "--dir-mode", "-v", "--version-notes"})


def uploaded_folder(program: str, args: tuple[str, ...]) -> str | None:
    """The local folder (or file) ``program args`` uploads, as given (None: it uploads
    none the guard reads)."""
    if program in _HUBS:
        return _hub_folder(args)
    if program == "kaggle":
        return _kaggle_folder(args)
    return None


def _hub_folder(args: tuple[str, ...]) -> str | None:
    operands: list[str] = []
    taking = 0  # words left for an option's value (-1: every word up to the next option)
    for arg in args:
        if arg.startswith("-") and arg != "-":
            name = arg.partition("=")[0]
            taking = 0 if "=" in arg else -1 if name in _HUB_LISTS else int(name in _HUB_VALUED)
            continue
        if taking:
            taking -= taking > 0
            continue
        operands.append(arg)
    if operands[:1] not in (["upload"], ["upload-large-folder"]):
        return None
    return operands[2] if len(operands) > 2 else None


def _kaggle_folder(args: tuple[str, ...]) -> str | None:
    words = [a for a in args if not a.startswith("-")]
    if not words or words[0] not in _KAGGLE_FOLDERS or not {"create", "version"} & set(words):
        return None
    folder = "."  # the working folder, when -p is not given
    for index, arg in enumerate(args):
        if arg in ("-p", "--path") and index + 1 < len(args):
            folder = args[index + 1]
        elif arg.startswith("--path="):
            folder = arg.partition("=")[2]
        elif arg.startswith("-p") and len(arg) > 2 and arg not in _KAGGLE_VALUED:
            folder = arg[2:]
    return folder


def mark_uploads(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each hub upload of the project or the home folder as a whole marked
    (the same tuple when none is)."""
    return mark_each(pieces, UPLOADERS, _mark_at)


def _mark_at(pieces: tuple[Piece, ...], index: int) -> tuple[str, ...]:
    piece = pieces[index]
    if piece.tool != "bash":
        return ()
    folder = uploaded_folder(piece.program or "", piece.args)
    return (HOME_OUT,) if folder in HOME_WORDS else (WORKSPACE_OUT,) if folder in HERE_WORDS else ()
