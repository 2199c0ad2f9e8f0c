"""MCP tools judged as the file and shell calls they amount to, by a table in the pack.

An MCP server's tool reaches the same files a file tool or a shell command does, so the
same rules must judge it: a ``write_file`` of the filesystem server into ``.claude/`` is
the guard's own ``write_file`` there. Which argument of which tool is a path read, a path
written, a folder made, a path moved or a command is data (`TABLE_FILE`, beside the
default pack), not code per server: a tool-name pattern (``mcp__*__write_file``: the server's
name is the user's choice, so it is a wildcard) and what each argument is. The guard then
judges the call as all of its equivalent calls; the strictest verdict wins, and a grant
needs every one granted. An argument the table does not name leaves the call ungranted
(CONTRACT §12: a grant is a promise); a tool the table does not name is judged as before
(`calls.ToolCall`: its path arguments as reads, never granted).
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Callable, Iterable, Mapping
from fnmatch import translate
from importlib import resources
from typing import Any, Literal, NamedTuple

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from amplifier_hooks import toolcalls
from amplifier_hooks.guard.model import Piece, Places, Verdict

__all__ = [
    "KINDS",
    "TABLE_FILE",
    "McpTableError",
    "Same",
    "ToolEntry",
    "ToolMap",
    "ToolTable",
    "bases_of",
    "equivalents",
    "extended_table",
    "mcp_tool_name",
    "moved_calls",
    "parse_table",
    "path_calls",
    "pieces_of",
    "shipped_table",
]

TABLE_FILE = "packs/default.mcp.yaml"
"""The shipped table, inside ``amplifier_hooks/guard``."""

Kind = Literal["read", "list", "stat", "write", "edit", "mkdir", "delete", "move-from",
               "move-to", "command", "data"]  # fmt: skip
KINDS: tuple[str, ...] = Kind.__args__  # type: ignore[attr-defined]
"""What an argument is: a path read (``read``), a folder listed or searched (``list``), a
path's metadata read (``stat``), a file replaced (``write``) or changed in place
(``edit``), a folder made (``mkdir``), a path deleted (``delete``), the two ends of a move
(``move-from``, ``move-to``), a shell command (``command``), or data that names no place
(``data``: contents, counts, patterns). A path kind takes one path or a list of them."""

Scalar = str | int | float | bool | None


class ToolEntry(BaseModel):
    """One row of the table, as written (in the pack's table, or a bundle's ah-guard
    ``mcp_tools``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: list[str] = Field(min_length=1)
    when: dict[str, Scalar] = {}
    args: dict[str, Kind]

    @field_validator("tool", mode="before")
    @classmethod
    def _listed(cls, value: object) -> object:
        return [value] if isinstance(value, str) else value

    @field_validator("tool")
    @classmethod
    def _mcp_names(cls, value: list[str]) -> list[str]:
        for pattern in value:
            if not pattern.startswith("mcp__") or pattern.count("__") < 2:
                raise ValueError(
                    f"{pattern!r} is not an MCP tool name pattern (mcp__<server>__<tool>, "
                    "e.g. mcp__*__write_file)"
                )
        return value

    @field_validator("args")
    @classmethod
    def _moves_pair(cls, value: dict[str, Kind]) -> dict[str, Kind]:
        ends = [kind for kind in value.values() if kind in ("move-from", "move-to")]
        if ends and sorted(ends) != ["move-from", "move-to"]:
            raise ValueError("a move needs exactly one move-from and one move-to argument")
        return value


class _TableFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    mcp_tools: list[ToolEntry]


class ToolMap(NamedTuple):
    """What the arguments of the tools matching ``patterns`` are, when ``when`` holds (each
    named argument equal to its value, of the same type)."""

    patterns: tuple[str, ...]
    when: tuple[tuple[str, Scalar], ...]
    args: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, entry: ToolEntry) -> ToolMap:
        return cls(tuple(entry.tool), tuple(entry.when.items()), tuple(entry.args.items()))

    def holds(self, inputs: Mapping[str, Any]) -> bool:
        for name, want in self.when:
            got = inputs.get(name)
            if type(got) is not type(want) or got != want:
                return False
        return True


class ToolTable:
    """The rows in order; the first whose pattern and ``when`` hold decides a call."""

    def __init__(self, rows: Iterable[ToolMap]) -> None:
        self.rows = tuple(rows)
        self._patterns = tuple(
            re.compile("|".join(translate(p) for p in row.patterns)) for row in self.rows
        )
        self._by_name: dict[str, tuple[ToolMap, ...]] = {}

    def rows_for(self, name: str) -> tuple[ToolMap, ...]:
        """The rows whose patterns match ``name`` (remembered per name, bounded)."""
        found = self._by_name.get(name)
        if found is None:
            if len(self._by_name) >= 1024:
                self._by_name.clear()
            found = tuple(r for r, p in zip(self.rows, self._patterns, strict=True)
                          if p.match(name))  # fmt: skip
            self._by_name[name] = found
        return found

    def find(self, name: str, inputs: Mapping[str, Any]) -> ToolMap | None:
        for row in self.rows_for(name):
            if row.holds(inputs):
                return row
        return None


_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class McpTableError(ValueError):
    """A table that cannot be used: one line per problem, ``file:line: key: what``."""


def parse_table(text: str, source: str) -> ToolTable:
    """The table in ``text`` (YAML, ``mcp_tools:`` a list of rows); `McpTableError`
    naming ``source``, the line and the key of each problem."""
    try:
        data = yaml.load(text, Loader=_LOADER)  # a safe loader (libyaml when there)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        raise McpTableError(f"{source}{line}: invalid YAML: {exc.problem}") from None
    try:
        table = _TableFile.model_validate(data)
    except ValidationError as exc:
        lines = _lines(yaml.compose(text, Loader=_LOADER))  # only now: where each key is
        problems = []
        for error in exc.errors():
            where = tuple(error["loc"])
            while where and where not in lines:
                where = where[:-1]
            at = lines.get(where, 1)
            key = ".".join(str(p) for p in error["loc"]) or "(top)"
            problems.append(f"{source}:{at}: {key}: {error['msg']}")
        raise McpTableError("\n".join(problems)) from None
    return ToolTable(ToolMap.of(e) for e in table.mcp_tools)


@functools.cache
def shipped_table() -> ToolTable:
    """The table shipped with the default pack, read once per process."""
    files = resources.files("amplifier_hooks.guard").joinpath(TABLE_FILE)
    return parse_table(files.read_text(encoding="utf-8"), f"amplifier_hooks/guard/{TABLE_FILE}")


def extended_table(entries: Iterable[ToolEntry]) -> ToolTable:
    """``entries`` (a bundle's own rows, for its own servers) before the shipped table's
    rows: the first row that holds decides, so a bundle's row wins for the tools it names."""
    return ToolTable((*(ToolMap.of(e) for e in entries), *shipped_table().rows))


def _lines(node: yaml.Node | None) -> dict[tuple[str | int, ...], int]:
    """Key path -> line (1-based) of every value in the composed ``node``."""
    found: dict[tuple[str | int, ...], int] = {}
    stack: list[tuple[yaml.Node, tuple[str | int, ...]]] = [] if node is None else [(node, ())]
    while stack:
        item, path = stack.pop()
        found.setdefault(path, item.start_mark.line + 1)
        if isinstance(item, yaml.MappingNode):
            for key, value in item.value:
                if isinstance(key, yaml.ScalarNode):
                    found[(*path, key.value)] = key.start_mark.line + 1
                    stack.append((value, (*path, key.value)))
        elif isinstance(item, yaml.SequenceNode):
            stack.extend((value, (*path, i)) for i, value in enumerate(item.value))
    return found


# -- equivalent calls -------------------------------------------------------------------

_FILE_TOOLS = {
    "read": ("read_file", "file_path"),
    "list": ("list_dir", "path"),
    "write": ("write_file", "file_path"),
    "edit": ("edit_file", "file_path"),
}
_SHELL = {"stat": "stat --", "mkdir": "mkdir -p --", "delete": "rm -r --"}


class Same(NamedTuple):
    """What an MCP call amounts to: ``calls`` (``tool:pre`` data of file and shell calls),
    the arguments the guard does not understand (``unmapped``: no grant), and commands it
    cannot read (``unreadable``: asked, as any command it cannot tell the effect of)."""

    tool: str
    calls: tuple[dict[str, Any], ...]
    unmapped: tuple[str, ...] = ()
    unreadable: tuple[str, ...] = ()


def mcp_tool_name(data: Mapping[str, Any]) -> str | None:
    """The MCP tool of ``data`` as the table names tools, ``mcp__<server>__<tool>``: the
    tool name as it is, or Gemini CLI's ``mcp_<server>_<tool>`` rebuilt from the
    ``mcp_context`` it sends beside it (the name alone cannot be split: a server's name
    may hold ``_``, so without the context the call is not in the table). None for a
    tool that is not an MCP server's."""
    name = toolcalls.tool_name(data)
    if name is None or name.startswith("mcp__"):
        return name
    context = data.get("mcp_context")
    if not name.startswith("mcp_") or not isinstance(context, Mapping):
        return None
    server, tool = context.get("server_name"), context.get("tool_name")
    if not isinstance(server, str) or not isinstance(tool, str) or not server or not tool:
        return None
    if name != f"mcp_{server}_{tool}":
        return None  # a context that does not describe this call
    return f"mcp__{server}__{tool}"


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
    for arg, value in inputs.items():
        kind = kinds.get(arg)
        paths = _paths(value)
        if kind == "data":
            continue
        if kind is None or (paths is None and kind != "command"):
            unknown.append(arg)
        elif kind == "command":
            if isinstance(value, list) and all(isinstance(w, str) for w in value):
                value = shlex.join(value)  # an argv, as the shell tool reads one
            if isinstance(value, str):
                calls.append(_call("bash", command=value))
            else:
                unreadable.append(arg)
        elif kind in ("move-from", "move-to"):
            moves[kind] = paths or []
        else:
            calls.extend(path_calls(kind, paths or [], bases))
    if moves:
        moved = moved_calls(moves.get("move-from", []), moves.get("move-to", []), bases)
        calls.extend(moved)
        if not moved:
            unknown.extend(k for k, v in kinds.items() if v in ("move-from", "move-to"))
    return Same(name, tuple(calls), tuple(unknown), tuple(unreadable))


_CHANGES = frozenset({"write", "edit", "mkdir", "delete"})


def bases_of(places: Places | None) -> tuple[str, ...]:
    """The folders past which `_folded` lowers a changed path's case."""
    return ("~",) if places is None else (places.workspace.as_posix(), places.home.as_posix(), "~")


def path_calls(kind: str, paths: list[str], bases: tuple[str, ...]) -> list[dict[str, Any]]:
    """The file or shell calls that do to ``paths`` what an argument of path ``kind`` does
    (a change also at its case-folded spelling, `_folded`)."""
    if kind in _CHANGES and paths:
        paths = [*paths, *_folded(paths, bases)]
    if kind in _FILE_TOOLS:
        tool, key = _FILE_TOOLS[kind]
        return [_call(tool, **{key: path}) for path in paths]
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


def _paths(value: object) -> list[str] | None:
    if isinstance(value, str):
        return [value] if value else None
    if isinstance(value, list) and all(isinstance(v, str) and v for v in value):
        return value
    return None


def _call(tool: str, **inputs: str) -> dict[str, Any]:
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
    for call in calls:
        command, pieces, unreadable = split(call)
        if unreadable is not None:
            return command, (), unreadable
        found.extend(pieces)
        if command is not None:
            commands.append(command)
    return (commands[0] if len(calls) == 1 and commands else None), tuple(found), None
