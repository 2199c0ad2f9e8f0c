"""The pieces that say a call changes where a project's code comes from, how it is
verified, or where its telemetry goes: one marked piece per file a file tool writes
(`supplytexts`, `supplyverify`, `sinks`), and
the shell's text tools rewriting a lock file or a wrapper's properties by hand.

A lock file is rewritten by hand when ``sed -i``, ``perl -pi``, ``jq ... > f && mv f
package-lock.json``, ``grep -v ... > go.sum.new && mv go.sum.new go.sum`` or a redirect
writes it (`LOCK_EDIT`, denied: its package manager writes it); a ``sed``/``perl``
substitution's pattern and replacement are read as an edit's old and new text, so a
wrapper's URL swapped or its checksum line deleted is judged as the same edit would be.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.autoruns import autorun_marks
from amplifier_hooks.guard.changemarks import change_marks
from amplifier_hooks.guard.fedcode import echoed_text, written_into
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import locate
from amplifier_hooks.guard.sinks import sink_marks
from amplifier_hooks.guard.supplyfiles import lock_file
from amplifier_hooks.guard.supplytexts import supply_marks
from amplifier_hooks.guard.supplyverify import verification_marks
from amplifier_hooks.guard.table import Does, read_call
from amplifier_hooks.guard.table.sed import added_text, scripted

__all__ = ["LOCK_EDIT", "WRAPPER_EDIT", "perl_rewrites", "supply_pieces", "supply_writes"]

LOCK_EDIT = "@lockfile-hand-edit"
WRAPPER_EDIT = "@wrapper-source-change"

_OLD_FIELDS = ("old_string", "oldString", "old_str", "old_text")
_WRITERS = frozenset(
    {"npm", "pnpm", "yarn", "bun", "cargo", "poetry", "uv", "pdm", "pipenv", "bundle",
     "composer", "go", "dotnet", "gradle", "gradlew", "./gradlew", "git", "pip-compile",
     "swift", "dart", "flutter", "mix", "nix", "deno", "pip", "pip3", "conda", "mamba",
     "micromamba"}
)  # fmt: skip
"""Programs that write lock files themselves (or restore them, as git does; ``pip freeze >
requirements.lock`` pins what is installed)."""
_WRAPPERS = frozenset({"maven-wrapper.properties", "gradle-wrapper.properties"})
_HOST = re.compile(r"[\w-]+\.[\w.-]+(?:/|$)")
_REWRITERS = frozenset({"sed", "gsed", "perl"})


def supply_pieces(
    tool: str, paths: tuple[str, ...], inputs: Mapping[str, Any], written: str | None,
    places: Places,
) -> tuple[Piece, ...]:  # fmt: skip
    """A piece for each file a file tool writes whose text changes where code comes from,
    or drops a verification, marked so (none: no such change)."""
    old = _old_text(inputs)
    found: list[Piece] = []
    for path in paths:
        located = locate(path, ".", places).path
        new = written or ""
        workspace = places.known.workspace
        marks = (*supply_marks(located, new, old, workspace),
                 *verification_marks(located, new, old),
                 *sink_marks(located, new, old))  # fmt: skip
        if marks:
            found.append(Piece(text=f"{tool} {path}", program=tool, args=(path,), tool=tool,
                               wrappers=marks, dynamic=False))  # fmt: skip
    return tuple(found)


def _old_text(inputs: Mapping[str, Any]) -> str | None:
    """The text an edit replaces, every old string joined (None: a whole file written)."""
    texts = [v for k in _OLD_FIELDS if isinstance(v := inputs.get(k), str)]
    edits = inputs.get("edits")
    if isinstance(edits, list):
        texts.extend(v for e in edits if isinstance(e, Mapping)
                     for k in _OLD_FIELDS if isinstance(v := e.get(k), str))  # fmt: skip
    return "\n".join(texts) if texts else None


def supply_writes(pieces: tuple[Piece, ...], places: Places) -> tuple[Piece, ...]:
    """``pieces``, each that rewrites a lock file by hand marked `LOCK_EDIT`, each
    ``sed``/``perl`` edit of a file that says where code comes from marked as the edit it
    is (`supplytexts`, `supplyverify`), each ``echo``/``printf``/heredoc text written into
    one marked as a file tool's write of that text is (``echo '--index-url URL' >>
    requirements.txt``), and each write of a VS Code file marked as a file
    tool's is (`autoruns`: a task run when the folder opens)."""
    for piece in pieces:  # (a loop, not any(): this runs for every command, `bench_guard`)
        if piece.writes or piece.program in _TARGETED:
            break
    else:
        return pieces  # no piece writes a file: nothing to mark
    out: list[Piece] = []
    made: set[str] = set()  # what earlier pieces of the call wrote (`jq ... > /tmp/l`)
    echoed: str | None = None  # what the piece before wrote into a pipe (`echo x | tee -a f`)
    for piece in pieces:
        fed, echoed = echoed, None
        if piece.program is None or posixpath.basename(piece.program) in _WRITERS:
            out.append(piece)
            continue
        if piece.pipes_to[:1] == ("tee",):
            echoed = echoed_text(piece)
        targets = _written(piece)
        marks: list[str] = []
        for target in targets:
            located = locate(target, piece.cwd, places).path
            if lock_file(located) is not None and _by_hand(piece, made, places):
                marks.append(LOCK_EDIT)
            elif piece.program in _REWRITERS:
                marks.extend(_rewrite_marks(piece, located, places.known.workspace))
            elif (text := _text_written(piece, fed)) is not None:  # `echo '-i URL' >> r.txt`
                marks.extend(
                    supply_marks(located, text, "", places.known.workspace)
                )  # an edit adding it
                marks.extend(sink_marks(located, text, None))
            marks.extend(_editor_marks(piece, located))
        made.update(locate(t, piece.cwd, places).path for t in targets)
        out.append(piece._replace(wrappers=(*piece.wrappers, *marks)) if marks else piece)
    return tuple(out)


def perl_rewrites(pieces: tuple[Piece, ...], places: Places) -> tuple[Piece, ...]:
    """A piece marked as each ``perl -pi -e 's/OLD/NEW/' FILE`` edit is (`_rewrite_marks`),
    read from the command's pieces before its Perl is read as code (which keeps the files
    it reads and writes, not what its substitutions put in them)."""
    found: list[Piece] = []
    for piece in pieces:
        if piece.program != "perl":
            continue
        for target in _perl_in_place(piece.args):
            located = locate(target, piece.cwd, places).path
            marks = _rewrite_marks(piece, located, places.known.workspace)
            if marks:
                marked = tuple(dict.fromkeys(marks))
                found.append(Piece(text=piece.text[:200], program="true", args=(located,),
                                   cwd=piece.cwd, wrappers=marked))  # fmt: skip
    return tuple(found)


def _editor_marks(piece: Piece, path: str) -> tuple[str, ...]:
    """The marks of a shell write of a VS Code file (``.vscode/tasks.json``) read as a
    file tool's write or edit of it is (`autoruns`): the text ``echo`` or a heredoc
    writes, or what a ``sed``/``perl`` substitution puts in (``"runOn": "folderOpen"``)."""
    folder, name = posixpath.split(path)
    if posixpath.basename(folder) != ".vscode" and not name.endswith(".code-workspace"):
        return ()
    if piece.program in _REWRITERS:
        text = "\n".join(new for _, new in _substitutions(piece.args))
        return autorun_marks(path, text.replace("\\", ""), editing=True)
    return autorun_marks(path, echoed_text(piece) or "", editing=False)


def _text_written(piece: Piece, fed: str | None) -> str | None:
    """The text ``piece`` writes when it is known: ``echo``/``printf``'s words, a heredoc,
    or, for ``tee``, what an ``echo`` piped into it wrote (``fed``)."""
    text = echoed_text(piece)
    return fed if text is None and piece.program == "tee" else text


def _by_hand(piece: Piece, made: set[str], places: Places) -> bool:
    """``piece``'s write of a lock file is a hand edit: any but a copy or move, or a copy
    or move of what an earlier piece of the call wrote (a file copied in as it is, say a
    backup restored, is not granted, and left to the host)."""
    if piece.program not in _MOVERS:
        return True
    sources = [a for a in piece.args[:-1] if not a.startswith("-")]
    return any(locate(a, piece.cwd, places).path in made for a in sources)


_MOVERS = frozenset({"cp", "mv", "install", "rsync"})


def _written(piece: Piece) -> list[str]:
    """The files ``piece`` writes: its redirects, the table's writes, ``perl -i``'s."""
    found = list(written_into(piece))
    program = piece.program or ""
    if program == "perl":
        found.extend(_perl_in_place(piece.args))
    elif program in _EDITORS:  # (only these: the table's readings are kept per words)
        reading = read_call(program, piece.args)
        found.extend(a.target for a in reading.acts if a.does == Does.WRITE)
    return found


_EDITORS = frozenset({"sed", "gsed", "awk", "gawk", "cp", "mv", "install", "rsync", "dd"})
"""Programs that edit, copy or move a file in place; their writes are the table's."""
_TARGETED = _EDITORS | {"perl", "tee"}
"""The programs `_written` finds writes of beyond a piece's redirects."""


def _perl_in_place(args: tuple[str, ...]) -> list[str]:
    """The files ``perl -pi -e CODE FILE...`` edits in place (none without ``-i``)."""
    in_place, skip, files = False, False, []
    for arg in args:
        if skip:
            skip = False
            continue
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 1:
            in_place = in_place or "i" in arg.partition("e")[0][1:]
            skip = arg.endswith("e") or arg.endswith("E")
            continue
        files.append(arg)
    return files if in_place else []


def _rewrite_marks(piece: Piece, path: str, workspace: str) -> list[str]:
    """The marks of a ``sed``/``perl`` edit of ``path``, read as the edit it is: each
    substitution's pattern the old text and its replacement the new, a deleted line's
    pattern old text with nothing new, and the lines sed's ``a``/``i``/``c`` add as text
    written (every mark of a file tool's edit: `changemarks`)."""
    name = posixpath.basename(path)
    marks: list[str] = []
    for old, new in _substitutions(piece.args):
        if name in _WRAPPERS and new and _HOST.search(new):
            marks.append(WRAPPER_EDIT)
        marks.extend(supply_marks(path, new, old, workspace))
        marks.extend(verification_marks(path, new, old))
        before = old.removeprefix("^").removesuffix("$").replace("\\", "")  # (as a text)
        edit = {"old_string": before, "new_string": new.replace("\\", "")}
        # judged as a file tool's edit of the same lines is: a protection switched off
        # (`s|^#define THERMAL_PROTECTION|//&|`), a bar lowered, a limit raised
        marks.extend(m for m in change_marks((path,), edit) if m not in marks)
    if piece.program in ("sed", "gsed"):  # `/class X/a\  skip_before_action ...`: lines added
        for text in added_text(scripted(piece.args)[0]):
            marks.extend(m for m in change_marks((path,), {"content": text}) if m not in marks)
    return marks


_SUBSTITUTE = re.compile(r"^s(?P<d>[^\w\s{(\[])(?P<old>(?:\\.|(?!(?P=d)).)*)(?P=d)"
                         r"(?P<new>(?:\\.|(?!(?P=d)).)*)(?P=d)")  # fmt: skip
_BRACKETED = re.compile(r"^s\{(?P<old>[^}]*)\}\s*\{(?P<new>[^}]*)\}")
_RANGE_DELETE = re.compile(
    r"^/(?P<a>(?:\\.|[^/])*)/\s*,\s*(?:/(?P<b>(?:\\.|[^/])*)/|\+?\d+|\$)\s*d\s*$"
)
"""A range of lines deleted, from a pattern's line to another's (or a count, or the end):
both patterns are lines of the old text."""
_DELETE = re.compile(r"^(?:(?P<d>/)(?P<old>(?:\\.|[^/])*)/|\\(?P<e>.)(?P<old2>.*?)(?P=e))\s*d")


def _substitutions(args: tuple[str, ...]) -> list[tuple[str, str]]:
    """(old, new) of each substitution or line deletion the words of ``args`` spell."""
    found: list[tuple[str, str]] = []
    for arg in args:
        for command in re.split(r"[;\n]\s*", arg.strip()):
            match = _SUBSTITUTE.match(command) or _BRACKETED.match(command)
            if match is not None:
                found.append((match.group("old"), match.group("new")))
                continue
            deleted = _DELETE.match(command)
            if deleted is not None:
                found.append((deleted.group("old") or deleted.group("old2") or "", ""))
                continue
            ranged = _RANGE_DELETE.match(command)  # `/- name: Trivy/,/exit-code:/d`
            if ranged is not None:
                found.append(("\n".join(filter(None, (ranged["a"], ranged["b"]))), ""))
    return found
