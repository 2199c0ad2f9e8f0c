"""One command's pieces read in order: what an earlier piece does to a later one.

A link made, a script written, an alias defined, a git remote added, ``CDPATH`` set, a
loop's words, a variable assigned, an environment dump filtered: each changes what a later
piece does, which judging the pieces one by one cannot see. `review` applies them all
(`links`, `earlier`, `loops`, `assigned`, `environment`, and the remotes here) before the
pieces are judged; a command with none of them is returned as it is, after one look at
its programs.
"""

from __future__ import annotations

from collections.abc import Callable

from amplifier_hooks.guard.assigned import assigns, bind_assignments
from amplifier_hooks.guard.codecalls import code_texts
from amplifier_hooks.guard.copies import carry_copies
from amplifier_hooks.guard.devicefiles import mark_own_device_files
from amplifier_hooks.guard.earlier import (
    mark_written_scripts,
    read_code_commands,
    read_piped_scripts,
)
from amplifier_hooks.guard.environment import DUMPERS, mark_env_dumps
from amplifier_hooks.guard.fedcode import echoed_text
from amplifier_hooks.guard.fedtext import FED_READERS, read_fed_text
from amplifier_hooks.guard.gitenvpairs import pair_git_config
from amplifier_hooks.guard.injections import mark_injected
from amplifier_hooks.guard.inline import code_flags
from amplifier_hooks.guard.links import LINKERS, follow
from amplifier_hooks.guard.listedwords import bind_listed_words
from amplifier_hooks.guard.literals import sets_unseen
from amplifier_hooks.guard.loops import bind_for_loops, bind_xargs
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.pipedsql import SQL_STDIN, read_piped_sql
from amplifier_hooks.guard.planted import planted_writes
from amplifier_hooks.guard.prodruns import mark_production, may_run_there
from amplifier_hooks.guard.remote import piped_remotes, ssh_remote
from amplifier_hooks.guard.remotelosses import mark_remote_losses
from amplifier_hooks.guard.secretcopies import bind_secret_copies, copies_secrets
from amplifier_hooks.guard.sedchanges import swap_marks
from amplifier_hooks.guard.sedinserts import SED_EDITORS, planted_inserts
from amplifier_hooks.guard.shellstate import mark_aliases, mark_cdpath
from amplifier_hooks.guard.table.fetch import FETCHING
from amplifier_hooks.guard.tracing import mark_traced
from amplifier_hooks.guard.unwrap import RUN_BY_PATH
from amplifier_hooks.guard.writtentext import text_marks

__all__ = [
    "AGENT_STARTERS",
    "NEW_REMOTE",
    "SSH_REMOTE",
    "mark_new_remotes",
    "review",
    "with_remote_commands",
]

NEW_REMOTE = "@new-remote"
_WRITERS = frozenset({"tee", *FETCHING})
"""Programs that write files their operands or options name (not redirections)."""
Reparse = Callable[[str], tuple[Piece, ...]]


def review(text: str, pieces: tuple[Piece, ...], places: Places,
           reparse: Reparse) -> tuple[Piece, ...]:  # fmt: skip
    """``pieces`` with what earlier pieces of ``text`` do to later ones applied, and the
    commands inline code spells out (`earlier.read_code_commands`)."""
    pieces = mark_injected(text, pieces)
    programs = {p.program for p in pieces}
    coding = _coding(programs)
    read = _reviewed(text, pieces, places, reparse, programs, coding)
    if read is not pieces:  # (an earlier piece changed a later one: look again)
        pieces = read
        programs = {p.program for p in pieces}
        coding = _coding(programs)
    if "ssh" in programs:
        pieces = with_remote_commands(piped_remotes(pieces), reparse)
        pieces = mark_remote_losses(pieces, reparse)  # the other machine lost, on any host
        coding = _coding({p.program for p in pieces})
    elif "adb" in programs:
        pieces = mark_remote_losses(pieces, reparse)  # `adb shell CMD`: the device lost
    if "adb" in programs:  # `adb shell screencap -p F && ... && adb shell rm F`
        pieces = mark_own_device_files(pieces, reparse)
    if may_run_there(programs, text):
        pieces = mark_production(pieces, reparse)  # what runs on production, and how
    if coding:
        read = read_code_commands(pieces, reparse, places)
        if len(read) > len(pieces) and any(p.program in LINKERS for p in pieces):
            read = follow(read, places)  # what the code writes, through the links made before
        pieces = read
    return pieces


def _coding(programs: set[str | None]) -> bool:
    """Whether a program of ``programs`` may be given its code on the command line (one
    look per program, not one per piece and question: the everyday command has none)."""
    for program in programs:  # (a loop, not any(): this runs for every command)
        if program is not None and code_flags(program) is not None:
            break
    else:
        return False
    return True


def _reviewed(text: str, pieces: tuple[Piece, ...], places: Places, reparse: Reparse,
              programs: set[str | None], coding: bool) -> tuple[Piece, ...]:  # fmt: skip
    if not programs.isdisjoint(FED_READERS):  # `printf '!cmd' | ed`, `echo .. | m4`
        pieces = read_fed_text(pieces, reparse)
    if not programs.isdisjoint(SQL_STDIN):
        pieces = read_piped_sql(pieces, reparse)  # `echo '.shell CMD' | duckdb`: read too
        coding = _coding({p.program for p in pieces})  # (`programs` stays the command's)
    # inline code beside other pieces: a file it writes may be one they run
    coded = (
        coding
        and len(pieces) > 1
        and any(p.program and code_texts(p.program, p.args) for p in pieces)
    )
    by_path = False
    if len(pieces) > 1:  # (a loop, not any(): this runs for every command of two pieces)
        for piece in pieces:
            if RUN_BY_PATH in piece.wrappers:
                by_path = True
                break
    if "$(" in text or "read" in programs:  # `ruff format $(git ls-files)`, `| while read f`
        pieces = bind_listed_words(text, pieces)
    if copies_secrets(text, pieces):  # `X="$GITHUB_TOKEN"; echo "$X"`: the token printed
        pieces = bind_secret_copies(pieces)
    if "set" in programs:
        pieces = mark_traced(pieces)  # `set -x; . ./.env` prints what it sources
    if (
        programs.isdisjoint(_TRIGGERS)
        and "CDPATH" not in text
        and "for" not in text
        and "=$(" not in text
        and "xargs" not in text
        and "remote" not in text
        and not coded
        and not by_path  # `cc -o /tmp/t t.c && /tmp/t`: the build's own program (`earlier`)
    ):
        for piece in pieces:
            if piece.writes or piece.feeds_code or assigns(piece):
                break
        else:
            return pieces  # the everyday case: nothing here changes a later piece
    if len(pieces) > 1 and any(assigns(p) for p in pieces[:-1]) and not sets_unseen(text.encode()):
        pieces = bind_assignments(pieces)
    if "GIT_CONFIG_KEY_" in text:  # a key and its value exported apart: one setting
        pieces = pair_git_config(pieces, reparse)
    if "CDPATH" in text:
        pieces = mark_cdpath(pieces)
    if ("for" in text and "do" in text) or "=$(" in text:
        pieces = bind_for_loops(text, pieces)
    if not programs.isdisjoint(DUMPERS):
        pieces = mark_env_dumps(pieces)
    if not programs.isdisjoint(_ECHOES) and any(p.feeds_code for p in pieces):
        pieces = read_piped_scripts(pieces, reparse)
    if any(p.writes or p.program in _WRITERS for p in pieces):  # code a tool runs later
        pieces = planted_writes(pieces, places, echoed_text, reparse)
        pieces = text_marks(pieces, places, echoed_text)  # as a Write of the same text
    if not programs.isdisjoint(SED_EDITORS):  # `sed -i '1i TEXT' Makefile`: TEXT written
        pieces = planted_inserts(pieces, places, reparse)
        pieces = swap_marks(pieces, places)  # `sed -i 's/Always/None/'`: an edit's marks
    if len(pieces) < 2:
        return pieces
    if not programs.isdisjoint(LINKERS):
        pieces = follow(pieces, places)
    if "cp" in programs or "mv" in programs:
        pieces = carry_copies(pieces)  # `cp .env /tmp/x && gh gist create /tmp/x`
    if "alias" in programs or "hash" in programs:
        pieces = mark_aliases(pieces, reparse)
    if not programs.isdisjoint(("git", "dvc")) and "remote" in text:
        pieces = mark_new_remotes(pieces)
    if any("xargs" in p.wrappers for p in pieces):
        pieces = bind_xargs(pieces)
    if not programs.isdisjoint(_WRITERS) or any(p.writes for p in pieces) or coded or by_path:
        pieces = mark_written_scripts(pieces, places, reparse, ">>" in text)
    return pieces


_ECHOES = frozenset({"echo", "printf", "cat", "tee"})
_WRITERS = frozenset({"cp", "mv", "tee", "curl", "wget", "install", "ln", "sed", "gsed", "dd"})
_TRIGGERS = DUMPERS | LINKERS | _WRITERS | {"alias", "hash"}
"""Programs that may change what a later piece does (``git remote add`` and ``xargs`` are
seen in the text)."""


def mark_new_remotes(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """A ``git push`` (or ``git lfs push``) to a remote that an earlier ``git remote
    add``/``set-url`` of the same command names, and a ``dvc push`` after a ``dvc remote
    add``/``modify``/``default`` (to that remote, or to the default one, which the change
    may have set), marked: it sends the repository or its data somewhere no one
    configured."""
    added: set[str] = set()
    dvc_changed = False  # (`dvc remote add -d`, `modify NAME url URL`: the default may move)
    out: list[Piece] = []
    for piece in pieces:
        operands = (
            [a for a in piece.args if not a.startswith("-")]
            if piece.program in ("git", "dvc")
            else []
        )
        if piece.program == "dvc":
            if operands[:1] == ["remote"] and operands[1:2] in (["add"], ["modify"], ["default"]):
                added.update(operands[2:3])
                dvc_changed = True
            elif dvc_changed and operands[:1] == ["push"] and _dvc_to(piece.args, added):
                piece = piece._replace(wrappers=(*piece.wrappers, NEW_REMOTE))
        elif operands[:2] in (["remote", "add"], ["remote", "set-url"]) and len(operands) > 2:
            added.add(operands[2])
        elif (
            (operands[:1] == ["push"] and added.intersection(operands[1:2]))
            or (operands == ["push"] and added)  # to its upstream's remote: maybe the changed one
            or (operands[:2] == ["lfs", "push"] and added.intersection(operands[2:3]))
        ):
            piece = piece._replace(wrappers=(*piece.wrappers, NEW_REMOTE))
        out.append(piece)
    return tuple(out)


def _dvc_to(args: tuple[str, ...], added: set[str]) -> bool:
    """Whether ``dvc push args`` pushes to a remote of ``added``, or to the default one
    (no ``-r``/``--remote``)."""
    for index, arg in enumerate(args):
        if arg in ("-r", "--remote"):
            return args[index + 1 : index + 2] == () or args[index + 1] in added
        if arg.startswith("--remote="):
            return arg.partition("=")[2] in added
        if arg.startswith("-r") and len(arg) > 2 and not arg.startswith("--"):
            return arg[2:] in added
    return True


SSH_REMOTE = "ssh runs it on another machine"
AGENT_STARTERS = frozenset(
    {"claude", "codex", "gemini", "copilot", "opencode", "cline", "openclaw", "cursor-agent",
     "qwen", "crush", "amp", "aider", "amplifier", "npx", "pnpx", "bunx", "pnpm", "yarn", "npm",
     "bun", "docker", "podman", "nerdctl"}
)  # fmt: skip
"""Programs that start an agent CLI (themselves, from a package, in a container): the
pieces of a remote command kept, since what starts an agent is judged the same anywhere,
while the other machine's files are not places the guard knows (``/srv/app`` there is
not this machine's system folder)."""


def with_remote_commands(pieces: tuple[Piece, ...], reparse: Reparse) -> tuple[Piece, ...]:
    """``pieces`` with the agents each ``ssh HOST CMD`` starts there read as pieces of
    their own, after it: the remote shell parses CMD's words joined by blanks, and an
    agent started there with its safety off is judged as if here. Never granted
    (`SSH_REMOTE` is their doubt); the ``ssh`` piece itself is judged as before
    (`remote.ssh_remote`). On this machine (``ssh localhost CMD``) every piece of CMD is
    judged as here, run from the home folder, as ssh runs it."""
    out: list[Piece] = []
    for piece in pieces:
        out.append(piece)
        found = ssh_remote(piece.args) if piece.program == "ssh" else None
        if found is not None:
            here = found[0].rsplit("@", 1)[-1].lower() in _THIS_MACHINE
            read = reparse(f"cd ~ && {found[1]}" if here else found[1])
            out.extend(p._replace(wrappers=("ssh", *p.wrappers), doubt=p.doubt or SSH_REMOTE)
                       for p in read if here or p.program in AGENT_STARTERS)  # fmt: skip
    return tuple(out)


_THIS_MACHINE = frozenset({"localhost", "127.0.0.1", "::1", "[::1]", "0.0.0.0", "ip6-localhost"})
"""Hosts that are this machine: what ssh runs there runs here."""
