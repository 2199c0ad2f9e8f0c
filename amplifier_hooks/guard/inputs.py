"""What a tool's input may hold for the guard to understand it whole.

A grant is a promise to the host, so the guard grants a call only when it understands every
field of its input, not only the command or the path it reads first. A shell tool's working
folder (Gemini CLI's ``dir_path``, OpenCode's and OpenClaw's ``workdir``, Codex's
``working_directory``) and its environment (OpenClaw's ``env``) change what the command does:
they are folded into the command the guard reads, as the ``cd`` and ``export`` they stand for.
A file tool's paths are read under every name a host gives them. Any other field the guard
does not know for that tool keeps the call from being granted (rules still judge it): a host
that adds a field, or a model that sends one, gets no promise about what it does.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from typing import Any, NamedTuple

__all__ = [
    "SANDBOX_OFF",
    "FileInput",
    "ShellInput",
    "empties",
    "file_input",
    "search_globs",
    "shell_input",
    "written_text",
]

SHELL_PLAIN = frozenset(
    {"command", "cmd", "commands", "description", "timeout", "timeout_ms", "timeoutMs",
     "run_in_background", "is_background", "isBackground", "background", "yield_time_ms",
     "yieldMs", "max_output_tokens", "justification", "explanation", "title", "reason",
     "sessionId", "session_id", "mode", "initial_wait", "async", "detach", "requires_approval",
     "login"}
)  # fmt: skip
"""Fields of a shell tool's input that say nothing about what the command does (how long to
wait for it, how to show it, why it is run)."""

_FALSE_ONLY = ("dangerouslyDisableSandbox", "with_escalated_permissions", "elevated")
"""Fields that, when true, run the command with more power than the host's usual sandbox:
known, but a call that sets one is not granted, and its pieces are marked `SANDBOX_OFF`."""
_SANDBOX_PERMISSIONS = "sandbox_permissions"
"""Codex's field for the same: ``use_default`` runs in the sandbox, ``require_escalated``
outside it."""
SANDBOX_OFF = "@sandbox-off"
"""The mark of a shell call's pieces when the call asks its host to run it outside the
sandbox (Claude Code's ``dangerouslyDisableSandbox``, Codex's ``sandbox_permissions:
require_escalated``, OpenClaw's ``elevated``): a person decides that (`host-sandbox-off`)."""

_WORKDIR = ("workdir", "working_directory", "workingDirectory", "dir_path", "cwd", "directory")
_ENV = "env"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

PATH_FIELDS = ("file_path", "path", "absolute_path", "filePath", "notebook_path", "dir_path",
               "filename", "file", "target", "target_file")  # fmt: skip
"""Every name a host gives the one path a file tool acts on."""

_LISTED = "paths"
"""The field of a tool that reads many files at once (Gemini CLI's ``read_many_files``,
Cline's ``read_files``): a list of paths, each read."""

_READ_FIELDS = frozenset({"offset", "limit", "pages", "view_range", "start_line", "end_line",
                          "should_read_entire_file", "start_line_one_indexed",
                          "end_line_one_indexed_inclusive", "include", "exclude",
                          "useDefaultExcludes", "respect_git_ignore",
                          "file_filtering_options", "recursive"})  # fmt: skip
_SEARCH_FIELDS = frozenset(
    {"pattern", "include", "exclude", "glob", "type", "output_mode", "-i", "-n", "-A", "-B",
     "-C", "context", "multiline", "head_limit", "offset", "case_sensitive",
     "respect_git_ignore", "respect_gemini_ignore", "file_filtering_options", "ignore",
     "recursive", "regex", "file_pattern", "fixed_strings", "names_only", "query",
     "include_pattern", "exclude_pattern"}
)  # fmt: skip
_WRITE_FIELDS = frozenset({"content", "contents", "file_text"})
_EDIT_FIELDS = frozenset(
    {"old_string", "new_string", "replace_all", "instruction", "expected_replacements",
     "allow_multiple", "oldString", "newString", "replaceAll", "edits", "old_str", "new_str",
     "old_text", "new_text", "insert_line", "diff", "modified_by_user", "ai_proposed_content",
     "command", "new_source", "cell_id", "cell_type", "edit_mode", "instructions", "code_edit",
     "view_range"}
)  # fmt: skip
_FIELDS_OF: Mapping[str, frozenset[str]] = {
    "read_file": _READ_FIELDS,
    "notebook_read": _READ_FIELDS,
    "glob": _SEARCH_FIELDS,
    "grep": _SEARCH_FIELDS,
    "list_dir": _SEARCH_FIELDS,
    "write_file": _WRITE_FIELDS,
    "create_file": _WRITE_FIELDS,
    "edit_file": _EDIT_FIELDS | _WRITE_FIELDS,
    "multi_edit": _EDIT_FIELDS,
    "notebook_edit": _EDIT_FIELDS,
}
"""Per canonical file tool: the fields besides its path that do not change where it acts."""
_COMMON = frozenset({"description", "explanation", "reason", "title"})


_TEXT_FIELDS = ("content", "contents", "file_text", "new_string", "newString", "new_str",
                "new_text", "new_source", "newText", "code_edit")  # fmt: skip
"""The fields that hold the text a write or an edit puts into its file."""


_SEARCH = re.compile(r"(?:-{3,}|<{3,}) ?SEARCH\Z")
_DIVIDER = re.compile(r"={3,}\Z")
_REPLACE = re.compile(r"(?:\+{3,}|>{3,}) ?REPLACE\Z")


def replaced_text(diff: str) -> str:
    """The text Cline's ``replace_in_file`` puts into its file: each SEARCH/REPLACE
    block's replacement (``------- SEARCH``/``<<<<<<< SEARCH``, ``=======``, ``+++++++
    REPLACE``/``>>>>>>> REPLACE``). A diff with no such block, or a block left open, is
    read whole: more is read, never less."""
    found: list[str] = []
    state = "outside"
    for line in diff.splitlines():
        bare = line.strip()
        if state == "outside" and _SEARCH.match(bare):
            state = "search"
        elif state == "search" and _DIVIDER.match(bare):
            state = "replace"
        elif state == "replace" and _REPLACE.match(bare):
            state = "outside"
        elif state == "replace":
            found.append(line)
        elif state == "outside" and bare:
            return diff  # text outside any block: not the shape read here
    return diff if state != "outside" or not found else "\n".join(found)


def written_text(inputs: Mapping[str, Any]) -> str | None:
    """The text a file tool's input writes: every text field's, each of ``edits``'s new
    strings, and Cline's ``diff`` blocks' replacements, joined (None: none)."""
    texts = [v for k in _TEXT_FIELDS if isinstance(v := inputs.get(k), str) and v]
    if isinstance(diff := inputs.get("diff"), str) and diff:
        texts.append(replaced_text(diff))
    edits = inputs.get("edits")
    if isinstance(edits, list):
        texts.extend(
            v for e in edits if isinstance(e, Mapping)
            for k in _TEXT_FIELDS if isinstance(v := e.get(k), str) and v
        )  # fmt: skip
    return "\n".join(texts) if texts else None


def empties(tool: str, inputs: Mapping[str, Any]) -> bool:
    """Whether a write's input puts empty text over its file: a truncation, judged as the
    shell's ``> FILE`` is (`losses`)."""
    if tool not in ("write_file", "create_file"):
        return False
    texts = [inputs[k] for k in _WRITE_FIELDS if k in inputs]
    return bool(texts) and all(t == "" for t in texts)


_SEARCH_GLOBS = ("glob", "include", "file_pattern", "include_pattern")
"""A search tool's fields that narrow the files it reads to those a glob names (Claude
Code Grep's ``glob``, Gemini CLI's ``include``)."""


def search_globs(inputs: Mapping[str, Any]) -> tuple[str, ...]:
    """The globs a search tool's input narrows its files to (a text or a list of texts)."""
    found: list[str] = []
    for key in _SEARCH_GLOBS:
        value = inputs.get(key)
        values = value if isinstance(value, list) else [value]
        found.extend(v for v in values if isinstance(v, str) and v)
    return tuple(found)


class ShellInput(NamedTuple):
    """A shell call's command with its working folder and environment folded in, and why
    the call is not understood well enough to be granted (None: it is)."""

    command: str | None
    doubt: str | None
    marks: tuple[str, ...] = ()
    """`SANDBOX_OFF` when the call asks to run outside the host's sandbox."""


class FileInput(NamedTuple):
    """The paths a file tool's input names (every distinct one), and its doubt."""

    paths: tuple[str, ...]
    doubt: str | None
    odd: str | None = None
    """Why the input is not of a shape the host takes (a list where one path goes): the
    host may refuse it or read it its own way, so a person decides (asked)."""


def shell_input(command: str | None, inputs: Mapping[str, Any]) -> ShellInput:
    """``command`` as the shell tool runs it: in its working folder, with its variables.
    A list of ``commands`` (Cline's ``run_commands``) is one script, a line each."""
    doubt: str | None = None
    marks: tuple[str, ...] = ()
    prefix: list[str] = []
    listed = inputs.get("commands")
    if command is None and isinstance(listed, str | list):
        lines = [listed] if isinstance(listed, str) else listed
        if all(isinstance(line, str) for line in lines):
            command = "\n".join(lines)
        else:
            doubt = "the tool's commands are not all text"
    for key, value in inputs.items():
        if key in SHELL_PLAIN:
            continue
        if key in _FALSE_ONLY or (key == _SANDBOX_PERMISSIONS and isinstance(value, str)):
            if value not in (None, False, "use_default"):
                doubt = doubt or f"the call sets {key}, which runs it with more power"
                marks = (SANDBOX_OFF,)
            continue
        if key in _WORKDIR:
            if value is None or value == "":
                continue
            if isinstance(value, str):
                prefix.insert(0, f"cd -- {shlex.quote(value)}")
                continue
        elif key == _ENV:
            if value is None or value == {}:
                continue
            if isinstance(value, Mapping) and all(
                isinstance(k, str) and _NAME.match(k) and isinstance(v, str)
                for k, v in value.items()
            ):
                # the name is a plain word (checked), the value quoted: an assignment the
                # shell grammar reads as one
                prefix.extend(f"export {k}={shlex.quote(v)}" for k, v in value.items())
                continue
        doubt = doubt or f"the tool's input has a field the guard does not read ({key!r})"
    if prefix and command is not None:
        command = "\n".join([*prefix, command])
    return ShellInput(command, doubt, marks)


def file_input(tool: str, inputs: Mapping[str, Any], fallback: str | None = None) -> FileInput:
    """The paths of a file tool's call, and why it is not granted when a field is unknown,
    no path is named where one must be, or two names of the path disagree. ``fallback``:
    the path the event names outside the input, read when the input names none."""
    known = _FIELDS_OF.get(tool)
    paths: list[str] = []
    doubt: str | None = None
    odd: str | None = None
    listed: list[str] = []
    for key, value in inputs.items():
        if key in PATH_FIELDS:
            if isinstance(value, str):
                if value and value not in paths:
                    paths.append(value)
                continue
            if value is None:
                continue
            if isinstance(value, list) and value and all(isinstance(v, str) and v for v in value):
                # a list where one path goes: what the host does with it is not known, so
                # each is judged (the strictest decides) and none is granted
                paths.extend(v for v in value if v not in paths)
                odd = odd or f"the tool's {key!r} is a list, where the host takes one path"
                continue
        elif key == _LISTED and tool == "read_file" and isinstance(value, list):
            if all(isinstance(v, str) and v for v in value):
                listed.extend(v for v in value if v not in listed)
                continue
        elif known is None or key in known or key in _COMMON:
            continue
        doubt = doubt or f"the tool's input has a field the guard does not read ({key!r})"
    if not paths and fallback and not listed:
        paths.append(fallback)
    if len(paths) > 1 or (paths and listed):
        doubt = doubt or "the tool's input names more than one path"
    elif not (paths or listed) and tool in ("read_file", "notebook_read", "write_file",
                                            "create_file", "edit_file", "multi_edit",
                                            "notebook_edit"):  # fmt: skip
        doubt = doubt or "the tool's input names no path the guard can place"
    paths.extend(p for p in listed if p not in paths)  # each is read
    if tool in ("glob", "grep", "read_file", "list_dir"):
        doubt = doubt or _climbing_glob(tool, inputs)
    return FileInput(tuple(paths), doubt or odd, odd)


def _climbing_glob(tool: str, inputs: Mapping[str, Any]) -> str | None:
    """Why a glob that narrows what a read or search tool reads is not granted: one that
    is absolute, starts at the home folder or climbs with ``..`` (``../.ssh/*``) names
    files outside the folder it is placed in, which the guard never placed (None: none
    does). A Glob tool's ``pattern`` is such a glob; a Grep's is its regex."""
    globs = search_globs(inputs)
    pattern = inputs.get("pattern")
    if tool == "glob" and isinstance(pattern, str):
        globs += (pattern,)
    for glob in globs:
        spelled = glob.replace("\\", "/")
        if spelled.startswith(("/", "~")) or ".." in spelled.split("/") or spelled[1:3] == ":/":
            return f"its glob {glob!r} names files outside the folder it reads"
    return None
