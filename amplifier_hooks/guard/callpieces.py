"""The pieces a call is judged as: a shell command's, a file tool's (with the code it
plants and the CI steps it writes), an MCP tool's or a patch's, each as the calls it makes.

One shape for every tool, so `policy.judge` and ah-guard (which asks git about the pieces
first) see the same pieces.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

from amplifier_hooks.guard.agentfiles import instruction_marks
from amplifier_hooks.guard.autoruns import autorun_marks
from amplifier_hooks.guard.browseracts import browser_marks
from amplifier_hooks.guard.calls import ToolCall, everyday_shell_command, file_piece
from amplifier_hooks.guard.changemarks import added_marks, change_marks
from amplifier_hooks.guard.checkwords import check_words_in, named, shipped
from amplifier_hooks.guard.destinations import mark_destinations
from amplifier_hooks.guard.diskimages import DISK_TOOLS, mark_disk_images
from amplifier_hooks.guard.evalpieces import with_evaluated
from amplifier_hooks.guard.extensionmanifest import (
    EXTENSION_WIDENED,
    widened,
)
from amplifier_hooks.guard.fleetruns import FLEET_TOOLS, with_fleet_commands
from amplifier_hooks.guard.jsontokens import MAX_TEXT
from amplifier_hooks.guard.marks import marked
from amplifier_hooks.guard.mcpsecrets import SECRET_TO_MCP, sends_secret
from amplifier_hooks.guard.mcptable import ToolTable
from amplifier_hooks.guard.mcptools import equivalents, mcp_tool_name, pieces_of, unbridged
from amplifier_hooks.guard.mcpverbs import (
    MCP_CHANGES,
    service_marks,
    switch_marks,
    switches_on_only,
    verb_marks,
)
from amplifier_hooks.guard.memo import begin, end
from amplifier_hooks.guard.memories import mark_memory
from amplifier_hooks.guard.model import Piece, PieceVerdict, Places, Verdict
from amplifier_hooks.guard.notebooks import cell_notebook
from amplifier_hooks.guard.npmwords import spell_npm
from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.patchfiles import patched_texts, update_hunks
from amplifier_hooks.guard.patchtool import SHELL_PATCH, heredoc_patch, patch_pieces
from amplifier_hooks.guard.paths import locate, refresh
from amplifier_hooks.guard.piecescreen import may_rewrite
from amplifier_hooks.guard.planted import patch_planted, planted_pieces
from amplifier_hooks.guard.reportedenv import ENVIRONMENT_REPORTED, reports_environment
from amplifier_hooks.guard.sequence import review
from amplifier_hooks.guard.slurm import mark_slurm, with_wrapped_jobs
from amplifier_hooks.guard.supplypieces import perl_rewrites, supply_pieces, supply_writes
from amplifier_hooks.guard.vardefaults import with_defaults
from amplifier_hooks.guard.winshells import powershell_of, windows_pieces
from amplifier_hooks.toolcalls import patch_text, tool_input

__all__ = ["UNREADABLE", "pieces_for", "pieces_of_call"]

_SLURM = frozenset({"scancel", "sbatch"})

UNREADABLE = "guard-unreadable"


def pieces_for(
    call: ToolCall | Mapping[str, Any], places: Places, mcp_table: ToolTable | None = None
) -> tuple[str | None, tuple[Piece, ...], Verdict | None]:
    """(the shell command or None, the pieces `judge` judges, the deny of a command the
    guard cannot read or None): what ah-guard asks git about before judging."""
    call_memo = begin()
    try:
        refresh(places)
        return pieces_of_call(call, places, mcp_table)
    finally:
        end(call_memo)


def pieces_of_call(
    call: ToolCall | Mapping[str, Any], places: Places, mcp_table: ToolTable | None = None
) -> tuple[str | None, tuple[Piece, ...], Verdict | None]:
    command = everyday_shell_command(call) if type(call) is dict else None
    doubt: str | None = None
    marks: tuple[str, ...] = ()
    if command is not None and "patch" in command and (fed := heredoc_patch(command)):
        # `apply_patch <<'EOF'`: the patch tool, run through the shell (never granted)
        patched = patch_pieces(fed, places, lambda each: pieces_for(each, places, mcp_table))
        if patched is not None:
            return (
                None,
                tuple(p._replace(doubt=p.doubt or SHELL_PATCH) for p in patched[1]),
                patched[2],
            )
    if command is None and not isinstance(call, ToolCall):
        call = unbridged(call) or call  # `use_mcp_tool`: the MCP call it makes
    if command is None:
        same = None if isinstance(call, ToolCall) else equivalents(call, places, mcp_table)
        if same is not None:  # an MCP tool: judged as the file and shell calls it makes
            return pieces_of(same, lambda each: pieces_for(each, places, mcp_table))
        if not isinstance(call, ToolCall):  # the patch tool: as the file calls it makes
            patched = patch_pieces(call, places, lambda each: pieces_for(each, places, mcp_table))
            if patched is not None:
                patch = patch_text(tool_input(call))
                planted = patch_planted(patch, places, _split(places))
                runs = _patch_autoruns(patch, places)
                return patched[0], (*patched[1], *planted, *runs), patched[2]
        tool_call = ToolCall.of(call)
        read = powershell_of(tool_call, places)
        if read is not None:  # a PowerShell tool's command, as the POSIX command it is
            return _shell_pieces(read[0], places, read[1], (), windows=False)
        if not tool_call.is_shell:
            made = mark_destinations((file_piece(tool_call),))
            if tool_call.odd is not None:  # a shape the host does not take: a person decides
                odd = Piece(text=f"{tool_call.tool} ({tool_call.odd})", program=None,
                            opaque=tool_call.odd)  # fmt: skip
                made = (*made, odd)
            if isinstance(call, Mapping):
                made = _mcp_marked(made, call)
                # a memory tool's fact: every later session's
                made = mark_memory(made, tool_call.tool, tool_input(call))
            written = tool_call.written or ""
            if tool_call.tool == "notebook_edit":  # one cell's source, read as its notebook
                inputs = tool_input(call) if isinstance(call, dict) else {"new_source": written}
                written = cell_notebook(inputs)
            edit = tool_call.tool in _EDITS  # its text a part of the file (`writtenscripts`)
            split = _split(places)
            inputs = tool_input(call) if isinstance(call, Mapping) else {}
            near = inputs.get("old_string") if edit else None  # the code the edit is in
            near = near if isinstance(near, str) else ""
            found = [p for path in tool_call.paths
                     for p in planted_pieces(path, written, places, split, edit, near)]  # fmt: skip
            runs = _autoruns(tool_call.tool, tool_call.paths, tool_call.written, places)
            supply = supply_pieces(tool_call.tool, tool_call.paths, inputs, written, places)
            return None, (*made, *found, *runs, *supply), None
        command, doubt, marks = tool_call.command or "", tool_call.doubt, tool_call.marks
    return _shell_pieces(command, places, doubt, marks)


def _shell_pieces(
    command: str, places: Places, doubt: str | None, marks: tuple[str, ...], windows: bool = True
) -> tuple[str | None, tuple[Piece, ...], Verdict | None]:
    """A shell command's pieces (a Windows program's read as cmd.exe's: `winshells`)."""
    parsed = parse_command(command)
    if parsed.problem is not None:
        reason = f"the guard cannot read this command: {parsed.problem}"
        piece = PieceVerdict(parsed.text[:200], None, "deny", UNREADABLE, reason)
        return command, (), Verdict("deny", UNREADABLE, reason, (piece,))
    read = parsed.pieces
    if may_rewrite(read):  # (one look for the four readers: `piecescreen`)
        read = windows_pieces(read, places.known.home) if windows else read
        read = with_evaluated(command, read, places, _reparse)  # `$(which rm) -rf ~`: `rm -rf ~`
        read = with_defaults(spell_npm(read))  # `npm pub` is `npm publish`; `${V:-x}` is x
    pieces = marked(review(command, read, places, _reparse), command, places)
    pieces = supply_writes(pieces, places)  # a lock file rewritten by hand (`supplypieces`)
    if "perl" in command:  # `perl -pi -e 's/OLD/NEW/' F`: read before its Perl became pieces
        pieces += perl_rewrites(read, places)
    programs = {p.program for p in pieces}  # (one set for both screens below)
    if not programs.isdisjoint(_SLURM):  # whose jobs a cancel reaches; --wrap CMD
        user = os.path.basename(places.known.home)
        pieces = with_wrapped_jobs(mark_slurm(pieces, user), _reparse)
        programs = {p.program for p in pieces}
    if not programs.isdisjoint(FLEET_TOOLS):  # `salt '*' cmd.run CMD`: CMD, as if here
        pieces = with_fleet_commands(pieces, _reparse)
        programs = {p.program for p in pieces}
    if not programs.isdisjoint(DISK_TOOLS):
        pieces = mark_disk_images(pieces, places)  # `mkfs.ext4 build/rootfs.ext4`: a file
    if doubt is not None:  # the tool's input is not understood whole: no piece is granted
        pieces = tuple([p if p.doubt else p._replace(doubt=doubt) for p in pieces])
    if marks:  # the call runs outside the host's sandbox: every piece says so
        pieces = tuple([p._replace(wrappers=(*p.wrappers, *marks)) for p in pieces])
    return command, pieces, None


def _mcp_marked(made: tuple[Piece, ...], call: Mapping[str, Any]) -> tuple[Piece, ...]:
    """``made`` marked, for an MCP server's tool no table row names, with the verb of its
    name (`mcpverbs`) and a credential among its arguments (`mcpsecrets`)."""
    name = mcp_tool_name(call)
    if name is None:
        return made
    marks = verb_marks(name)
    arguments = tool_input(call)
    marks += switch_marks(name, arguments) + browser_marks(name, arguments)
    marks += service_marks(name, arguments)
    # a closer mark says what the change is; a name split by a guess (Gemini's `mcp_a_b_c`
    # without its context) may not name its server, which may keep its records here
    guessed = not str(call.get("tool_name", "")).startswith("mcp__") and not isinstance(
        call.get("mcp_context"), Mapping
    )
    if MCP_CHANGES in marks and (len(marks) > 1 or guessed or switches_on_only(arguments)):
        marks = tuple(m for m in marks if m != MCP_CHANGES)
    if sends_secret(arguments):
        marks = (*marks, SECRET_TO_MCP)
    if not marks:
        return made
    return tuple(p._replace(wrappers=(*p.wrappers, *marks)) for p in made)


def _autoruns(tool: str, paths: tuple[str, ...], text: str | None,
              places: Places) -> tuple[Piece, ...]:  # fmt: skip
    """A piece of the write or edit of each file whose new ``text`` runs code later by
    itself (`autoruns`: a folder-open task, an editor's program, a workflow that runs a
    pull request's code with the repository's secrets), marked so; after the planted
    pieces, so a rule that says what the planted code does is the one shown."""
    if not text:
        return ()
    editing = tool in _EDITS
    found: list[Piece] = []
    for path in paths:
        marks = autorun_marks(locate(path, ".", places).path, text, editing)
        if marks:
            found.append(Piece(text=f"{tool} {path}", program=tool, args=(path,), tool=tool,
                               wrappers=marks, dynamic=False))  # fmt: skip
    return tuple(found)


def _patch_autoruns(patch: str | None, places: Places) -> tuple[Piece, ...]:
    """An ``apply_patch`` file's added lines, judged as an edit's text is: a piece of the
    edit of each file whose lines run later by what they say (`_autoruns`; a CI
    configuration's scripts are the planted pieces', `patch_planted`), or change where
    code comes from (`supplypieces`); and each update's lines out and in, as an edit that
    may switch a protection off (`switchedoff`)."""
    if patch is None or len(patch) > MAX_TEXT:
        return ()
    found: list[Piece] = []
    hunks = update_hunks(patch)
    removed: dict[str, str] = {}
    for path, old, _ in update_hunks(patch, kept=False):
        removed[path] = removed.get(path, "") + old
    for path, text in patched_texts(patch):
        found.extend(_autoruns("edit_file", (path,), text, places))
        marks = instruction_marks(text, [path])  # an instruction file told not to ask
        marks = (*marks, *added_marks((path,), removed.get(path, ""), text))
        if reports_environment(text):  # `include_env: true` added to a log handler
            marks = (*marks, ENVIRONMENT_REPORTED)
        if path.rpartition("/")[2] == "manifest.json" and widened("", text):
            marks = (*marks, EXTENSION_WIDENED)  # `"externally_connectable"` added
        if marks:
            found.append(Piece(text=f"apply_patch {path}", program="apply_patch", args=(path,),
                               tool="edit_file", wrappers=marks))  # fmt: skip
        # its added lines, as a write's
        found.extend(supply_pieces("apply_patch", (path,), {}, text, places))
    for path, old, new in hunks:  # the lines it takes out: a check, a key on
        taken = change_marks((path,), {"old_string": old, "new_string": new})
        if taken:
            found.append(Piece(text=f"apply_patch {path}", program="apply_patch", args=(path,),
                               tool="edit_file", wrappers=taken))  # fmt: skip
    touched: dict[str, list[str]] = {}  # no grant for what touches a security check
    for path, text in patched_texts(patch):
        touched.setdefault(path, [named(path)]).append(text)
    for path, old, _ in hunks:  # a hunk that only takes lines out has no text added
        touched.setdefault(path, [named(path)]).append(old)
    for path, texts in touched.items():
        why = check_words_in("\n".join(texts)) if shipped(path) else None
        if why is not None:
            found.append(Piece(text=f"apply_patch {path}", program="apply_patch", args=(path,),
                               tool="edit_file", doubt=why))  # fmt: skip
    return tuple(found)


_EDITS = frozenset({"edit_file", "multi_edit"})


def _split(places: Places) -> Callable[[str], tuple[Piece, ...]]:
    """The pieces of a script found in a file, judged as the command of its own it is."""
    return lambda script: pieces_of_call({"tool_name": "bash", "tool_input": {"command": script}},
                                     places)[1]  # fmt: skip


def _reparse(text: str) -> tuple[Piece, ...]:
    """The pieces of a script found in a command (a written script, an alias's value)."""
    parsed = parse_command(text)
    if parsed.problem is not None:
        return (Piece(text=text[:200], program=None, opaque=parsed.problem),)
    return parsed.pieces
