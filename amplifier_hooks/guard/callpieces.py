"""The pieces a call is judged as: a shell command's, a file tool's (with the code it
plants and the CI steps it writes), an MCP tool's or a patch's, each as the calls it makes.

One shape for every tool, so `policy.judge` and ah-guard (which asks git about the pieces
first) see the same pieces.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from amplifier_hooks.guard.calls import ToolCall, everyday_shell_command, file_piece
from amplifier_hooks.guard.destinations import mark_destinations
from amplifier_hooks.guard.forgeguard import mark_forge_calls
from amplifier_hooks.guard.hubsends import mark_uploads
from amplifier_hooks.guard.mcpsecrets import SECRET_TO_MCP, sends_secret
from amplifier_hooks.guard.mcptable import ToolTable
from amplifier_hooks.guard.mcptools import equivalents, mcp_tool_name, pieces_of, unbridged
from amplifier_hooks.guard.memo import begin, end
from amplifier_hooks.guard.memories import mark_memory
from amplifier_hooks.guard.model import Piece, PieceVerdict, Places, Verdict
from amplifier_hooks.guard.modes import mark_tightened
from amplifier_hooks.guard.notebookruns import mark_remote_notebooks
from amplifier_hooks.guard.notebooks import cell_notebook
from amplifier_hooks.guard.npmwords import spell_npm
from amplifier_hooks.guard.owninput import mark_own_input
from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.patchtool import SHELL_PATCH, heredoc_patch, patch_pieces
from amplifier_hooks.guard.paths import refresh
from amplifier_hooks.guard.planted import patch_planted, planted_pieces
from amplifier_hooks.guard.sequence import review
from amplifier_hooks.guard.valueless import mark_valueless
from amplifier_hooks.guard.vardefaults import with_defaults
from amplifier_hooks.guard.winshells import powershell_of, windows_pieces
from amplifier_hooks.toolcalls import patch_text, tool_input

__all__ = ["UNREADABLE", "pieces_for", "pieces_of_call"]

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
                planted = patch_planted(patch_text(tool_input(call)), places, _split(places))
                return patched[0], (*patched[1], *planted), patched[2]
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
            if isinstance(call, Mapping) and mcp_tool_name(call) and sends_secret(tool_input(call)):
                made = tuple(p._replace(wrappers=(*p.wrappers, SECRET_TO_MCP)) for p in made)
            if isinstance(call, Mapping):  # a memory tool's fact: every later session's
                made = mark_memory(made, tool_call.tool, tool_input(call))
            written = tool_call.written or ""
            if tool_call.tool == "notebook_edit":  # one cell's source, read as its notebook
                inputs = tool_input(call) if isinstance(call, dict) else {"new_source": written}
                written = cell_notebook(inputs)
            found = [p for path in tool_call.paths
                     for p in planted_pieces(path, written, places, _split(places))]  # fmt: skip
            return None, (*made, *found), None
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
    read = windows_pieces(parsed.pieces, places.known.home) if windows else parsed.pieces
    read = with_defaults(spell_npm(read))  # `npm pub` is `npm publish`; `${V:-x}` is x
    pieces = mark_destinations(review(command, read, places, _reparse))
    pieces = mark_uploads(mark_remote_notebooks(pieces))  # (a piece's program: one look each)
    pieces = mark_forge_calls(pieces)
    pieces = mark_own_input(mark_tightened(mark_valueless(pieces)))
    if doubt is not None:  # the tool's input is not understood whole: no piece is granted
        pieces = tuple([p if p.doubt else p._replace(doubt=doubt) for p in pieces])
    if marks:  # the call runs outside the host's sandbox: every piece says so
        pieces = tuple([p._replace(wrappers=(*p.wrappers, *marks)) for p in pieces])
    return command, pieces, None


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
