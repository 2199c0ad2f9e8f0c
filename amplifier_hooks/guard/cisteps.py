"""The pieces a write into a CI configuration plants: its scripts as CI steps, and what
else it changes as marks.

Every route that writes text into a file meets this (a file tool, a patch, a shell
redirect or heredoc: `planted.planted_pieces`). Each script's commands are pieces marked
`workflows.CI_STEP`, judged only by the rules that name the mark (`Policy.for_ci_steps`:
a step runs on another machine, where this one's places mean nothing, and those rules are
about what it prints or sends); each of `cichecks`' findings is a piece of its own, judged
by the pack's rule that names it. None of them is ever granted.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from amplifier_hooks.guard.buildfiles import PLANTED
from amplifier_hooks.guard.cichecks import ci_marks
from amplifier_hooks.guard.ciconfigs import MAX_TEXT, ci_config, ci_scripts
from amplifier_hooks.guard.flow import CARRIERS, NOWHERE
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.unreadscripts import read_first, unread_text
from amplifier_hooks.guard.workflows import CI_STEP, is_workflow, self_hosted_scripts

__all__ = ["IMAGE_BUILD", "INTO_FILE", "ci_pieces"]

IMAGE_BUILD = "@image-build"
"""The mark of a Dockerfile's ``RUN``: it runs inside an image's build, where no secret is
but those mounted by name, and what it fetches is what the image ships."""
INTO_FILE = "@into-file"
"""Where a CI step's output goes when a file takes it (no log shows it)."""
_LOG_DEVICES = frozenset({"/dev/stdout", "/dev/stderr", "/dev/tty", "/proc/self/fd/1",
                          "/proc/self/fd/2", "/dev/fd/1", "/dev/fd/2"})  # fmt: skip
_SELF_HOSTED = "a self-hosted runner runs this workflow step on a machine of the person's"
"""Why a self-hosted job's step is judged as planted code (`planted`), never granted."""


def ci_pieces(
    path: str, text: str, split: Callable[[str], tuple[Piece, ...]]
) -> tuple[Piece, ...] | None:
    """The pieces writing ``text`` into the CI configuration at ``path`` plants (None:
    ``path`` is no CI configuration)."""
    system = ci_config(path)
    if system is None:
        return None
    why = f"{path} holds what {system} runs on another machine, with the project's secrets"
    marks = (CI_STEP, IMAGE_BUILD) if system == "docker build" else (CI_STEP,)
    hosted = self_hosted_scripts(text) if is_workflow(path) else frozenset()
    # past the scripts read one by one, or too long to read at all: asked (`unreadscripts`)
    scripts, unread = read_first(ci_scripts(path, text) or (), path, system)
    if len(text) > MAX_TEXT:
        unread = (unread_text(path, system, MAX_TEXT),)
    found: list[Piece] = list(unread)
    for script in scripts:
        pieces = split(script)
        if script in hosted:  # the person's own runner: judged as code planted to run later
            found.extend(p._replace(wrappers=(*p.wrappers, PLANTED), doubt=_SELF_HOSTED)
                         for p in pieces)  # fmt: skip
            continue
        kept = _files_used_again(pieces, text)
        found.extend(
            p._replace(
                wrappers=(*p.wrappers, *marks),
                doubt=why,
                pipes_to=p.pipes_to if kept else _reaches(p),
            )
            for p in pieces
        )
    found.extend(
        Piece(text=path, program="true", wrappers=(mark,), doubt=why)
        for mark in ci_marks(system, text, path)
    )
    return tuple(found)


def _reaches(piece: Piece) -> tuple[str, ...]:
    """Where a CI step's output ends, as the CI rules read it: printed into the log
    (``nowhere``: nothing after it), sent on (a program), or into a file, which no log
    shows (``echo "//r/:_authToken=$T" > .npmrc``, ``echo "$K" | base64 -d > key``): then
    only the program that takes it in the end is kept (``echo "$K" | tr -d '\\r' |
    ssh-add -`` hands the key to ssh-add, and prints nothing)."""
    flows = piece.pipes_to
    if not flows:
        shown = not piece.writes or any(w in _LOG_DEVICES for w in piece.writes)
        return () if shown else (INTO_FILE,)
    last = flows[-1]
    if last == NOWHERE:
        return flows
    return (INTO_FILE,) if last in CARRIERS else (last,)


def _files_used_again(pieces: tuple[Piece, ...], text: str) -> bool:
    """Whether a file a script writes is named again in the configuration's text (sent
    on: ``curl -F f=@k``, or kept as an artifact: ``path: token.txt``): then what went
    into it is judged as printed."""
    for piece in pieces:
        for written in piece.writes:
            name = posixpath.basename(written)
            if written not in _LOG_DEVICES and name and text.count(name) > 1:
                return True
    return False
