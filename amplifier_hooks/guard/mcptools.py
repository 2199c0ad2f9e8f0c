"""MCP tools judged as the file and shell calls they amount to, by a table in the pack.

An MCP server's tool reaches the same files a file tool or a shell command does, so the
same rules must judge it: a ``write_file`` of the filesystem server into ``.claude/`` is
the guard's own ``write_file`` there. Which argument of which tool is a path read, a path
written, a folder made, a path moved or a command is data (`guard.mcptable`, beside the
default pack), not code per server: a tool-name pattern (``mcp__*__write_file``: the server's
name is the user's choice, so it is a wildcard) and what each argument is. The guard then
judges the call as all of its equivalent calls; the strictest verdict wins, and a grant
needs every one granted. An argument the table does not name leaves the call ungranted
(CONTRACT §12: a grant is a promise); a tool the table does not name is judged as before
(`calls.ToolCall`: its path arguments as reads, never granted).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from amplifier_hooks import toolcalls
from amplifier_hooks.guard.mcpremote import REMOTE, filled, sends_secret_files, unfillable
from amplifier_hooks.guard.mcpsecrets import SECRET_TO_MCP
from amplifier_hooks.guard.mcpsql import sql_client
from amplifier_hooks.guard.mcptable import ToolTable, shipped_table
from amplifier_hooks.guard.model import Piece, Places, Verdict
from amplifier_hooks.guard.notebooks import ipython_code
from amplifier_hooks.tool_names import MCP_BRIDGES

__all__ = [
    "Same",
    "bases_of",
    "equivalents",
    "mcp_tool_name",
    "moved_calls",
    "path_calls",
    "pieces_of",
    "unbridged",
]

_FILE_TOOLS = {
    "read": ("read_file", "file_path"),
    "list": ("list_dir", "path"),
    "write": ("write_file", "file_path"),
    "edit": ("edit_file", "file_path"),
}
_SHELL = {"stat": "stat --", "mkdir": "mkdir -p --", "delete": "rm -r --"}
KERNEL_CELL = "@kernel-cell"
"""Marks the Python of a notebook cell a kernel runs (the table's ``cell`` kind): its
names (``df``) come from the cells run before it, so code the guard cannot read whole
is no reason to ask there, as it is on a command line (`inline-code`)."""


class Same(NamedTuple):
    """What an MCP call amounts to: ``calls`` (``tool:pre`` data of file and shell calls),
    the arguments the guard does not understand (``unmapped``: no grant), and commands it
    cannot read (``unreadable``: asked, as any command it cannot tell the effect of)."""

    tool: str
    calls: tuple[dict[str, Any], ...]
    unmapped: tuple[str, ...] = ()
    unreadable: tuple[str, ...] = ()
    run: tuple[int, ...] = ()
    """The indexes in ``calls`` of the commands the server runs (judged, never granted)."""
    remote: tuple[int, ...] = ()
    """The indexes in ``calls`` of the commands that do what it does to a remote
    (`mcpremote`: judged, never granted)."""
    sends_secret: bool = False
    """A remote tool that uploads a file named as a secret, or a credential."""
    cells: tuple[int, ...] = ()
    """The indexes in ``calls`` of a kernel's Python (`KERNEL_CELL`: what it does is
    judged; what it names is the kernel's own, so its reading alone asks nothing)."""


def mcp_tool_name(data: Mapping[str, Any]) -> str | None:
    """The MCP tool of ``data`` as the table names tools, ``mcp__<server>__<tool>``: the
    tool name as it is, or Gemini CLI's ``mcp_<server>_<tool>`` rebuilt from the
    ``mcp_context`` it sends beside it (without the context: `_split_name`). None for a
    tool that is not an MCP server's."""
    name = toolcalls.tool_name(data)
    if name is None or name.startswith("mcp__"):
        return name
    context = data.get("mcp_context")
    if not isinstance(context, Mapping):
        return _split_name(name)
    server, tool = context.get("server_name"), context.get("tool_name")
    if not isinstance(server, str) or not isinstance(tool, str) or not server or not tool:
        return None
    if name != f"mcp_{server}_{tool}":
        return None  # a context that does not describe this call
    return f"mcp__{server}__{tool}"


def unbridged(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The MCP call a bridge tool makes (Cline's ``use_mcp_tool {server_name, tool_name,
    arguments}``), as the event data of that call: ``mcp__<server>__<tool>`` given the
    arguments (a JSON object's text, or an object). None for any other tool, or when the
    bridge's fields are not of those shapes (then it stays an unknown tool)."""
    name = toolcalls.tool_name(data)
    fields = MCP_BRIDGES.get(name or "")
    if fields is None:
        return None
    inputs = toolcalls.tool_input(data)
    server, tool, given = (inputs.get(f) for f in fields)
    if isinstance(given, str):
        try:
            given = json.loads(given) if given.strip() else {}
        except ValueError:
            return None
    if given is None:
        given = {}
    if not (isinstance(server, str) and server and isinstance(tool, str) and tool):
        return None
    if not isinstance(given, Mapping) or set(inputs) - set(fields):
        return None
    return {**data, "tool_name": f"mcp__{server}__{tool}", "tool_input": dict(given)}


_SERVICE_TOOLS = frozenset({"push_files", "create_or_update_file", "delete_file",
                            "merge_pull_request", "create_repository", "create_gist",
                            "git_push"})  # fmt: skip
"""The names of the tools that change a shared remote (the table's ``runs`` rows), which
name no host's own tool: OpenCode's ``<server>_<tool>`` of one is read as that MCP tool."""


def _split_name(name: str) -> str | None:
    """Gemini CLI's ``mcp_<server>_<tool>`` sent without its context, or OpenCode's
    ``filesystem_<tool>`` or ``<server>_<service tool>`` (OpenCode names an MCP tool
    ``<server>_<tool>``), read with the server's name up to the first ``_``: a server
    whose name holds one is read as another tool, which no row names, so it stays unknown
    (never granted)."""
    if name.startswith("mcp_"):
        server, _, tool = name[4:].partition("_")
    elif name.startswith("filesystem_") or name.partition("_")[2] in _SERVICE_TOOLS:
        server, _, tool = name.partition("_")  # the reference server's usual name, or a
        # service's tool whose name is its own (``github_push_files``)
    else:
        return None
    return f"mcp__{server}__{tool}" if server and tool else None


def equivalents(
    data: Mapping[str, Any], places: Places | None = None, table: ToolTable | None = None
) -> Same | None:
    """What the MCP call in ``data`` amounts to, by ``table`` (default: `shipped_table`);
    None when it is not an MCP call the table names. An argument the row does not name,
    or not of its kind's shape, is ``unmapped``."""
    name = mcp_tool_name(data)
    if name is None:
        return None
    inputs = toolcalls.tool_input(data)
    row = (shipped_table() if table is None else table).find(name, inputs)
    if row is None:
        return None
    kinds = dict(row.args)
    bases = bases_of(places)
    calls: list[dict[str, Any]] = []
    moves: dict[str, list[str]] = {}
    unknown: list[str] = []
    unreadable: list[str] = []
    run: list[int] = []
    cells: list[int] = []
    texts = {k: v for k, v in inputs.items() if k in _TEXTS and kinds.get(k) == "data"}
    argv = [v for k, v in inputs.items() if kinds.get(k) == "argv"]
    words = argv[0] if argv else []
    for arg, value in inputs.items():
        kind = kinds.get(arg)
        paths = _paths(value)
        if kind == "data" or (kind == "argv" and _words(value)):
            continue
        if kind == "argv":  # a program's words in another shape than a list of words
            unreadable.append(arg)
            continue
        if kind is None or (paths is None and kind not in _TEXT_KINDS):
            unknown.append(arg)
        elif kind == "command":
            if isinstance(value, list) and all(isinstance(w, str) for w in value):
                value = shlex.join(value)  # an argv, as the shell tool reads one
            elif isinstance(value, str) and words and _words(words):
                value = shlex.join([value, *words])  # the program, and the words it is given
            if isinstance(value, str):
                run.append(len(calls))
                calls.append(_call("bash", command=value))
            else:
                unreadable.append(arg)
        elif kind == "cell":  # a kernel's cell: its shell lines and cells, and its Python
            if not isinstance(value, str):
                unreadable.append(arg)
                continue
            for language, code in ipython_code(value):
                (run if language == "shell" else cells).append(len(calls))
                program = "bash" if language == "shell" else "ipython"
                command = code if language == "shell" else shlex.join([program, "-c", code])
                calls.append(_call("bash", command=command))
            if not run and not cells:
                unknown.append(arg)  # another language's cell: what it does is not read
        elif kind == "applescript" and isinstance(value, str):  # as `osascript -e SCRIPT`
            said = inputs.get("language")
            jxa = isinstance(said, str) and said.lower() in ("javascript", "jxa", "js")
            run.append(len(calls))
            words = ["osascript", *(["-l", "JavaScript"] if jxa else []), "-e", value]
            calls.append(_call("bash", command=shlex.join(words)))
        elif kind in ("sql", "remote-sql"):
            if isinstance(value, str):  # the statements, as a database client runs them
                run.append(len(calls))
                # a hosted project's statements run on its server (`remote-sql`);
                # others where the server's name says (`mcpsql`)
                client = sql_client(name, inputs, hosted=kind == "remote-sql")
                calls.append(_call("bash", command=shlex.join([*client, value])))
            else:
                unreadable.append(arg)
        elif kind in ("move-from", "move-to"):
            moves[kind] = paths or []
        else:
            calls.extend(path_calls(kind, paths or [], bases, texts))
    if argv and not run:  # words with no program read: what runs is not known
        unknown.extend(k for k, v in kinds.items() if v == "argv" and k in inputs)
    remote: list[int] = []
    if row.runs:  # what it does to a remote, as the command that does the same there
        remote.append(len(calls))
        calls.append(_call("bash", command=shlex.join(filled(row.runs, inputs))))
        unreadable.extend(unfillable(row.runs, inputs))
    if moves:
        moved = moved_calls(moves.get("move-from", []), moves.get("move-to", []), bases)
        calls.extend(moved)
        if not moved:
            unknown.extend(k for k, v in kinds.items() if v in ("move-from", "move-to"))
    sends = bool(row.runs) and sends_secret_files(inputs)
    return Same(name, tuple(calls), tuple(unknown), tuple(unreadable), tuple(run),
                tuple(remote), sends, tuple(cells))  # fmt: skip


_CHANGES = frozenset({"write", "edit", "mkdir", "delete"})
_TEXT_KINDS = frozenset({"command", "sql", "remote-sql", "cell", "applescript"})
"""The kinds whose argument is text the server runs, never a path."""
_TEXTS = frozenset({"content", "edits"})
"""The data arguments that hold what a write or an edit puts into its file (the reference
server's ``content``, and ``edits``' ``newText``): given to the file call too, so the
rules on written text (code planted to run later, hooks, credentials) read it."""
_SERVER_RUNS = "an MCP server runs the command, in a folder and with a shell of its own"
"""Why a command an MCP tool runs is judged but never granted."""


def bases_of(places: Places | None) -> tuple[str, ...]:
    """The folders past which `_folded` lowers a changed path's case."""
    return ("~",) if places is None else (places.workspace.as_posix(), places.home.as_posix(), "~")


def path_calls(
    kind: str, paths: list[str], bases: tuple[str, ...], texts: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The file or shell calls that do to ``paths`` what an argument of path ``kind`` does
    (a change also at its case-folded spelling, `_folded`); a write or an edit is given
    ``texts``, what it puts into the file."""
    if kind in _CHANGES and paths:
        paths = [*paths, *_folded(paths, bases)]
    if kind in _FILE_TOOLS:
        tool, key = _FILE_TOOLS[kind]
        given = dict(texts or {}) if kind in ("write", "edit") else {}
        return [_call(tool, **{**given, key: path}) for path in paths]
    return [_call("bash", command=f"{_SHELL[kind]} {_quoted(p)}") for p in paths]


def moved_calls(
    sources: list[str], targets: list[str], bases: tuple[str, ...]
) -> list[dict[str, Any]]:
    """A move as ``mv`` (its destination also as `_folded`), and as a delete of each
    source: what leaves a place is gone from there, so it is granted only where a delete
    would be (git says it can come back). Nothing when it is not one destination."""
    if len(targets) != 1 or not sources:
        return []
    moved = " ".join(_quoted(p) for p in sources)
    ends = [targets[0], *_folded(targets, bases)]
    return [
        *(_call("bash", command=f"mv -- {moved} {_quoted(end)}") for end in ends),
        *(_call("bash", command=f"{_SHELL['delete']} {_quoted(p)}") for p in sources),
    ]


def _folded(paths: list[str], bases: tuple[str, ...]) -> list[str]:
    """``paths`` changed, in lower case past the workspace or home folder they are in
    (those stay as written), where that differs: on a file system that ignores case
    (macOS, Windows) ``.Claude/Settings.json`` is ``.claude/settings.json``, so a change
    of it meets that file's rules too. The fold only adds calls: a grant needs both."""
    found = []
    for path in paths:
        head = ""
        for base in bases:
            if path == base or path.startswith(base.rstrip("/") + "/"):
                head = base.rstrip("/")
                break
        if not head and path.startswith("/"):
            continue  # elsewhere: which part the file system folds is not known
        lower = head + path[len(head) :].lower()
        if lower != path:
            found.append(lower)
    return found


def _words(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(w, str) for w in value)


def _paths(value: object) -> list[str] | None:
    if isinstance(value, str):
        return [value] if value else None
    if isinstance(value, list) and all(isinstance(v, str) and v for v in value):
        return value
    return None


def _call(tool: str, **inputs: Any) -> dict[str, Any]:
    return {"tool_name": tool, "tool_input": inputs}


def _quoted(path: str) -> str:
    """``path`` as one shell word; a leading ``~`` stays outside the quotes, so it means
    home, as it does to the servers (and to the file tools)."""
    if path == "~":
        return "~"
    if path.startswith("~/"):
        return "~/" + shlex.quote(path[2:])
    return shlex.quote(path)


Split = Callable[[Mapping[str, Any]], tuple[str | None, tuple[Piece, ...], Verdict | None]]


def pieces_of(same: Same, split: Split) -> tuple[str | None, tuple[Piece, ...], Verdict | None]:
    """`policy.pieces_for` of every call ``same`` amounts to (``split`` is it for one):
    their pieces together (and the MCP tool itself when an argument is unmapped: no rule
    grants it), the command when there is one shell call alone, and the first command
    the guard cannot read."""
    found: list[Piece] = []
    commands: list[str] = []
    calls = same.calls
    if same.unmapped:
        shown = f"{same.tool} ({', '.join(same.unmapped)}: not in the guard's MCP table)"
        found.append(Piece(text=shown, program=same.tool, tool=same.tool, dynamic=False))
    for arg in same.unreadable:
        why = f"its command argument {arg!r} is neither text nor a list of words"
        found.append(Piece(text=f"{same.tool} {arg}", program=None, opaque=why))
    for index, call in enumerate(calls):
        command, pieces, unreadable = split(call)
        if unreadable is not None:
            return command, (), unreadable
        if index in same.run:  # the server's folder and shell are its own
            pieces = tuple(p if p.doubt else p._replace(doubt=_SERVER_RUNS) for p in pieces)
        if index in same.cells:
            pieces = tuple(
                p._replace(doubt=p.doubt or _SERVER_RUNS, wrappers=(*p.wrappers, KERNEL_CELL))
                for p in pieces
            )
        if index in same.remote:
            pieces = tuple(p if p.doubt else p._replace(doubt=REMOTE) for p in pieces)
        if same.sends_secret:
            pieces = tuple(p._replace(wrappers=(*p.wrappers, SECRET_TO_MCP)) for p in pieces)
        found.extend(pieces)
        if command is not None:
            commands.append(command)
    return (commands[0] if len(calls) == 1 and commands else None), tuple(found), None
