"""A tool call as the guard judges it: which tool, and the command, path or URL it acts on.

Read from a ``tool:pre`` event's data with the same reader every hook uses
(`amplifier_hooks.toolcalls`), so host payloads (canonical names, ``path`` aliased to
``file_path``) and Amplifier's own look alike here.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import unquote

from amplifier_hooks import toolcalls
from amplifier_hooks.guard.agentfiles import instruction_marks
from amplifier_hooks.guard.changemarks import change_marks
from amplifier_hooks.guard.checkwords import check_words_changed
from amplifier_hooks.guard.findnames import NAMES_LISTED, glob_lists_names
from amplifier_hooks.guard.inputs import (
    SHELL_PLAIN,
    empties,
    file_input,
    search_globs,
    shell_input,
    written_text,
)
from amplifier_hooks.guard.keyedsecrets import keyed_secrets
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.pathwords import FILE_READ_TOOLS, FILE_WRITE_TOOLS
from amplifier_hooks.guard.secrets import secret_kind, seeks_secrets
from amplifier_hooks.guard.sshhosts import ssh_host_marks
from amplifier_hooks.guard.urlpasswords import url_password
from amplifier_hooks.secret_shapes import credentials_in
from amplifier_hooks.tool_names import (
    BRIDGES,
    HOST_TOOL_NAMES,
    TYPED_INTO_SHELL,
    canonical_tool,
    folded_tool,
)

__all__ = [
    "EMPTIED",
    "HOOKS_WRITTEN",
    "SECRET_CONTENT",
    "SECRET_SEARCH",
    "SHELL_TOOLS",
    "UNKNOWN_TOOL",
    "ToolCall",
    "everyday_shell_command",
    "file_piece",
]

SECRET_SEARCH = "@secret-search"
"""The mark of a search tool's call whose pattern looks for secrets (`secrets.seeks_secrets`):
below the home folder it puts them where the model reads them."""
SECRET_CONTENT = "@secret-content"
"""The mark of a file write whose text holds a credential by its shape (an AWS access key
id, a private key, a provider's token), into a file that is not a secret by its name (a
``.env`` is where such a value belongs)."""

SHELL_TOOLS = frozenset(
    {"bash", "shell", "sh", "zsh", "run_shell", "run_shell_command", "shell_command",
     "execute_command", "exec", "terminal", "Bash"}
)  # fmt: skip

UNKNOWN_TOOL = "@unknown-tool"
"""The mark of a call of a tool no host names and the guard has no table for (``FileWriter``,
an MCP tool of an unknown server, ``PowerShell``): what it does with the paths it is given is
unknown, so a protected place given to it is taken as changed (`unknown-tool-protected`), as
for a program the guard does not know."""
_KNOWN_TOOLS = frozenset(
    {*HOST_TOOL_NAMES, *HOST_TOOL_NAMES.values(), *FILE_READ_TOOLS, *FILE_WRITE_TOOLS,
     *SHELL_TOOLS, "web_fetch", "web_search", "delete_file", "apply_patch"}
)  # fmt: skip
SECRET_SEARCH = "@secret-search"
"""The mark of a search tool's call whose pattern looks for keys, tokens or passwords (the
shell's ``grep -r AKIA ~`` is matched on its words; a Grep tool's pattern is no path, so it
is this mark): searching the home folder so is `search-home-for-secrets`."""
_SECRET_PATTERN = re.compile(
    r"PRIVATE KEY|BEGIN |passw|secret|token|AKIA|api[_-]?key|credential|id_rsa|id_ed25519"
    r"|ghp_|gho_|github_pat_|glpat-|xox[abpr]|\bsk-(?:\[|\\w|ant-|proj-|live_|test_|or-)",
    re.IGNORECASE,
)
HOOKS_WRITTEN = "@hooks-written"
"""The mark of a write or edit that puts a ``hooks:`` key into a Claude Code skill, subagent
or command file (``.claude/skills/*/SKILL.md``, ``.claude/agents/*.md``): Claude Code runs
those hooks while the skill or agent is active, as commands the guard never sees."""
EMPTIED = "@emptied"
"""The mark of a write that puts empty text over its file (`inputs.empties`): a truncation,
which loses what the file held (git's HEAD emptied: `git-records-emptied`)."""
_HOOKED_FILE = re.compile(r"(?:^|/)\.claude/(?:skills|agents|commands)/.*\.md\Z", re.IGNORECASE)
_HOOKS_KEY = re.compile(r"^\s*hooks\s*:", re.MULTILINE)
POWERSHELL_TOOLS = frozenset({"PowerShell", "powershell", "pwsh", "run_powershell"})
"""Shell tools of a language the guard does not parse: the words of their command are taken
as the paths they are given."""
_PS_HOME = re.compile(r"^(?:\$env:USERPROFILE|\$env:HOME|\$HOME|%USERPROFILE%|~)(?=[\\/]|$)", re.I)
_PS_WORD = re.compile(r"""'[^']*'|"[^"]*"|[^\s'"(),;|]+""")

# A payload may still carry its host's tool name: the hosts layer maps it before handlers
# run, and the guard reads a raw payload (``amplifier-hooks test --payload``) by every host's
# table at once (`tool_names.canonical_tool`), the same tables the hosts layer reads.


@dataclass(frozen=True)
class ToolCall:
    """The facts of one tool call the guard needs (of a shell call: its command, with the
    working folder and variables its input sets folded in: `guard.inputs`)."""

    tool: str
    command: str | None = None
    path: str | None = None
    url: str | None = None
    pattern: str | None = None
    doubt: str | None = None
    """Why the call's input is not understood whole, so it is never granted (None: it is)."""
    paths: tuple[str, ...] = ()
    """Every path a file tool's input names (``path`` is the first)."""
    written: str | None = None
    """The text a write or an edit puts into the file (an edit's new strings, joined)."""
    truncates: bool = False
    """A write of empty text over its file: judged as the shell's ``> FILE``."""
    globs: tuple[str, ...] = ()
    """The globs a search narrows the files it reads to (each read under its path)."""
    marks: tuple[str, ...] = ()
    """Marks every piece of the call carries (`UNKNOWN_TOOL`, `inputs.SANDBOX_OFF`)."""
    odd: str | None = None
    """Why the input is not of a shape the host takes (`inputs.FileInput.odd`): asked."""

    @classmethod
    def of(cls, call: ToolCall | Mapping[str, Any]) -> ToolCall:
        """``call`` itself, or the tool call in a ``tool:pre`` event's data."""
        if isinstance(call, ToolCall):
            return call
        inputs = toolcalls.tool_input(call)
        name = toolcalls.tool_name(call) or ""
        passed = _passed_on(cls, name, inputs)
        if passed is not None:
            return passed
        tool = canonical_tool(name)
        folded = folded_tool(name)
        other_case = "the tool's name is a host's only in another case" if folded else None
        tool = folded or tool
        if tool in SHELL_TOOLS:  # a shell call is judged by its command, where it runs
            command, doubt, marks = shell_input(toolcalls.command_of(call, inputs), inputs)
            return cls(tool, command, doubt=other_case or doubt, marks=marks)
        if name in POWERSHELL_TOOLS:
            said = toolcalls.command_of(call, inputs) or ""
            words = tuple(dict.fromkeys(_powershell_paths(said)))
            why = "the guard does not read PowerShell"
            return cls(name, said, doubt=why, paths=words, marks=(UNKNOWN_TOOL,))
        pattern = inputs.get("pattern")
        if pattern is None and tool == "grep":  # Cline's search_files names it `regex`
            pattern = inputs.get("regex")
        # the envelope's own path, as every hook reads it, when the input names none
        paths, doubt, odd = file_input(tool, inputs, toolcalls.path_of(call, inputs))
        return cls(
            tool=tool,
            command=toolcalls.command_of(call, inputs),
            path=paths[0] if paths else None,
            url=toolcalls.url_of(call, inputs) or _prompt_url(tool, inputs),
            pattern=pattern if isinstance(pattern, str) else None,
            doubt=other_case
            or (doubt if tool in FILE_READ_TOOLS | FILE_WRITE_TOOLS else None)
            or (check_words_changed(paths, inputs) if tool in FILE_WRITE_TOOLS else None),
            paths=paths,
            odd=odd,
            written=written_text(inputs) if tool in FILE_WRITE_TOOLS else None,
            truncates=empties(tool, inputs),
            globs=search_globs(inputs) if tool in ("grep", "read_file") else (),
            marks=(() if tool in _KNOWN_TOOLS else (UNKNOWN_TOOL,))
            + (change_marks(paths, inputs) if tool in FILE_WRITE_TOOLS else ()),
        )  # fmt: skip

    @property
    def is_shell(self) -> bool:
        return self.tool in SHELL_TOOLS


def _passed_on(cls: type[ToolCall], name: str, inputs: Mapping[str, Any]) -> ToolCall | None:
    """The call a bridge tool makes (judged as that call), or the text a tool types into a
    running shell (judged as a command): neither is ever granted. None for other tools."""
    bridge = BRIDGES.get(name)
    if bridge is not None:
        inner, given = inputs.get(bridge[0]), inputs.get(bridge[1])
        if isinstance(inner, str) and inner not in BRIDGES and isinstance(given, Mapping):
            made = cls.of({"tool_name": inner, "tool_input": given})
            return replace(made, doubt=made.doubt or "the call is made through a bridge tool")
    field = TYPED_INTO_SHELL.get(name)
    typed = inputs.get(field) if field is not None else None
    if isinstance(typed, str) and typed.strip():
        return cls("bash", typed.strip(), doubt="the text is typed into a running process")
    return None


def _powershell_paths(command: str) -> list[str]:
    """The words of a PowerShell command that may be paths, its home-folder spellings as
    ``~`` (``$env:USERPROFILE\\.claude\\settings.json`` is ``~/.claude/settings.json``)."""
    found: list[str] = []
    for word in _PS_WORD.findall(command):
        word = word.strip("'\"")
        if not word or word.startswith("-") or "=" in word:
            continue
        homed = _PS_HOME.sub("~", word).replace("\\", "/")
        if "/" in homed or homed.startswith("."):
            found.append(homed)
    return found


def everyday_shell_command(data: Mapping[str, Any]) -> str | None:
    """The command of a shell call's event data in its everyday shape (``tool_name`` text,
    ``tool_input`` a mapping with a ``command`` text), read as `ToolCall.of` reads it but
    without building the record; None for any other shape (`ToolCall.of` then reads it)."""
    name = data.get("tool_name")
    inputs = data.get("tool_input")
    if type(name) is not str or (type(inputs) is not dict and not isinstance(inputs, Mapping)):
        return None
    if canonical_tool(name) not in SHELL_TOOLS:
        return None
    if not SHELL_PLAIN.issuperset(inputs):  # a working folder, variables, ...: `ToolCall.of`
        return None
    command = inputs.get("command")
    return command.strip() if type(command) is str and command else None


_URL = re.compile(r"\b(?:https?|file)://[^\s\"'<>`)]+", re.IGNORECASE)


def _prompt_url(tool: str, inputs: Mapping[str, Any]) -> str | None:
    """The URL a fetch names only in its prompt (Gemini CLI's ``web_fetch``): a local
    file's first, as the one that matters most."""
    prompt = inputs.get("prompt")
    if tool != "web_fetch" or not isinstance(prompt, str):
        return None
    urls: list[str] = _URL.findall(prompt)
    local = [u for u in urls if u[:7].lower() == "file://"]
    found = local or urls
    return found[0] if found else None


_BRACES = re.compile(r"\{([^{}]*)\}")


def _alternatives(globs: tuple[str, ...]) -> list[str]:
    """Each glob with its first ``{a,b}`` spelled out as its alternatives (``*.{env,pem}``
    names ``*.env`` and ``*.pem``)."""
    found: list[str] = []
    for glob in globs:
        braces = _BRACES.search(glob)
        if braces is None:
            found.append(glob)
            continue
        head, tail = glob[: braces.start()], glob[braces.end() :]
        found.extend(head + part + tail for part in braces.group(1).split(","))
    return found


def _spellings(paths: list[str]) -> list[str]:
    """Each path as a host may also read it, where that differs: with ``\\`` as a
    separator (as on Windows), a ``file://`` URL as its path, and with ``%XX`` escapes
    decoded (as a ``file:`` URL's are), with each name's trailing dots and spaces dropped
    (as Windows opens it), and ended at a NUL (as the system ends it):
    judged at each, the stricter reading decides (``.github\\hooks/x.json``)."""
    found: list[str] = []
    for path in paths:
        if "\0" in path:  # the system's call ends a path at its first NUL
            path = path.partition("\0")[0]
            if path and path not in paths and path not in found:
                found.append(path)
        slashed = path.replace("\\", "/")
        if slashed[:7].lower() == "file://":  # a URL of a local file names it (any case)
            slashed = "/" + slashed[7:].partition("/")[2]
        for spelled in (slashed, unquote(slashed), _windows_trimmed(slashed)):
            if spelled != path and spelled not in paths and spelled not in found:
                found.append(spelled)
    return found


def _windows_trimmed(path: str) -> str:
    """``path`` as Windows opens it: each name's trailing dots and spaces dropped
    (``.claude./settings.json.`` is ``.claude/settings.json``); ``.`` and ``..`` kept."""
    if not path.endswith((".", " ")) and "./" not in path and " /" not in path:
        return path  # no name ends so (the common case: no split)
    names = path.split("/")
    return "/".join(n if n in ("", ".", "..") or not n.rstrip(". ") else n.rstrip(". ")
                    for n in names)  # fmt: skip


def file_piece(call: ToolCall) -> Piece:
    """A non-shell call as one piece: its tool is its program; its path (and a glob's
    pattern when it names a folder of its own) are its paths."""
    paths: list[str] = list(call.paths or ((call.path,) if call.path else ()))
    if call.globs:  # a search reads only the files its globs name, under its path
        named = [posixpath.join(p, g) for p in paths or ["."] for g in _alternatives(call.globs)]
        if any(secret_kind(n) for n in named):  # aimed at secrets: read as those
            paths = named
    paths.extend(_spellings(paths))
    if call.url and call.url[:7].lower() == "file://":  # a fetch of a local file reads it
        paths.append("/" + call.url[7:].partition("/")[2])  # (a scheme in any case: FILE://)
    if call.pattern and call.tool in ("glob",) and call.pattern.startswith(("/", "~")):
        paths.append(call.pattern)
    if not paths and call.tool in FILE_READ_TOOLS | FILE_WRITE_TOOLS and call.tool != "read_file":
        paths.append(".")  # a search with no path searches the workspace
    args = tuple(paths) + ((call.url,) if call.url else ())
    shown = " ".join([call.tool, *args])
    unnamed = call.written and paths and not any(secret_kind(p) for p in paths)
    written = call.written or ""
    secret = unnamed and (
        credentials_in(written) or keyed_secrets(written) or url_password(written)
    )
    marks = (SECRET_CONTENT,) if secret else ()
    if call.tool == "grep" and call.pattern and seeks_secrets(call.pattern):
        marks = (*marks, SECRET_SEARCH)
    if call.tool == "glob" and call.pattern and glob_lists_names(call.pattern):
        marks = (*marks, NAMES_LISTED)  # `*.pub` in ~/.ssh: names, as `ls` (`findnames`)
    # the URL is an argument (rules on what it sends see it), never a path (`Facts`)
    writes = tuple(paths) if call.truncates else ()  # `losses` asks git, as of `> FILE`
    marks = (*marks, *call.marks, *((EMPTIED,) if call.truncates else ()))
    if call.tool == "grep" and call.pattern and _SECRET_PATTERN.search(call.pattern):
        marks = (*marks, SECRET_SEARCH)
    if (  # the paths before the text: searched by lines, 20 KB cost `_HOOKS_KEY` 1.2 ms
        call.written and any(_HOOKED_FILE.search(p.replace("\\", "/")) for p in paths)
        and _HOOKS_KEY.search(call.written)
    ):  # fmt: skip
        marks = (*marks, HOOKS_WRITTEN)
    marks = (*marks, *instruction_marks(call.written, paths))
    marks = (*marks, *ssh_host_marks(call.tool, call.written, paths))
    return Piece(text=shown, program=call.tool, args=args, tool=call.tool, wrappers=marks,
                 writes=writes, dynamic=False, doubt=call.doubt)  # fmt: skip
