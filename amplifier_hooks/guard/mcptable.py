"""The pack's MCP table: which argument of which MCP tool is a path read, a path written,
a folder made, a path moved or a command (`TABLE_FILE`, beside the default pack), read and
checked once, with the file, line and key of each mistake.

It is data, not code per server: a tool-name pattern (``mcp__*__write_file``: the server's
name is the user's choice, so it is a wildcard) and what each argument is. A bundle adds
rows for its own servers (ah-guard's ``mcp_tools``) before the shipped ones.
`guard.mcptools` turns a call into the calls it amounts to by this table.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from fnmatch import translate
from importlib import resources
from typing import Any, Literal, NamedTuple

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from amplifier_hooks.guard.mcpremote import slot_names

__all__ = [
    "KINDS",
    "TABLE_FILE",
    "McpTableError",
    "ToolEntry",
    "ToolMap",
    "ToolTable",
    "extended_table",
    "parse_table",
    "shipped_table",
]

TABLE_FILE = "packs/default.mcp.yaml"
"""The shipped table, inside ``amplifier_hooks/guard``."""

Kind = Literal["read", "list", "stat", "write", "edit", "mkdir", "delete", "move-from",
               "move-to", "command", "argv", "sql", "remote-sql", "cell", "applescript",
               "data"]  # fmt: skip
KINDS: tuple[str, ...] = Kind.__args__  # type: ignore[attr-defined]
"""What an argument is: a path read (``read``), a folder listed or searched (``list``), a
path's metadata read (``stat``), a file replaced (``write``) or changed in place
(``edit``), a folder made (``mkdir``), a path deleted (``delete``), the two ends of a move
(``move-from``, ``move-to``), a shell command (``command``), the words the server runs
that command with (``argv``: a list, each one word), SQL a database server runs (``sql``:
judged as ``psql -c SQL``, on a server elsewhere when the server is named for one,
`mcpsql`; ``remote-sql``: a hosted database's, judged as ``psql -h HOST -c SQL``, a
server elsewhere), a notebook cell a kernel runs (``cell``: Python with
IPython's shell lines and cells, each judged), an AppleScript (``applescript``: judged as
``osascript -e SCRIPT``, JavaScript for Automation when the call's ``language`` says so),
or data that names no place (``data``: contents, counts, patterns). A path kind takes one
path or a list of them."""

Scalar = str | int | float | bool | None


class ToolEntry(BaseModel):
    """One row of the table, as written (in the pack's table, or a bundle's ah-guard
    ``mcp_tools``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: list[str] = Field(min_length=1)
    when: dict[str, Scalar] = {}
    needs: list[str] = []
    """Arguments the row holds only when given (GitHub's ``delete_file`` names an ``owner``
    and a ``repo``; a file server's ``delete_file`` does not)."""
    args: dict[str, Kind]
    runs: list[str] = []
    """The words of the command that does what the tool does to a remote (a push, a merge,
    a delete on GitHub): ``{arg}`` is that argument's text, ``{arg|word}`` with ``word``
    when it is not given (`guard.mcpremote`). Judged as that command, never granted."""

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

    @model_validator(mode="after")
    def _slots_named(self) -> ToolEntry:
        for word in self.runs:
            for name in slot_names(word):
                if name not in self.args:
                    raise ValueError(f"runs names {{{name}}}, which args does not name")
        for name in self.needs:
            if name not in self.args:
                raise ValueError(f"needs names {name}, which args does not name")
        return self

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
    runs: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()

    @classmethod
    def of(cls, entry: ToolEntry) -> ToolMap:
        return cls(tuple(entry.tool), tuple(entry.when.items()), tuple(entry.args.items()),
                   tuple(entry.runs), tuple(entry.needs))  # fmt: skip

    def holds(self, inputs: Mapping[str, Any]) -> bool:
        if any(inputs.get(name) in (None, "") for name in self.needs):
            return False
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
