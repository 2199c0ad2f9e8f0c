"""The readers of document sources and editor code: what TeX, Lua and Emacs Lisp text
runs, reads, writes and deletes, as the shell commands that do the same (``cat -- FILE``
for a read), so the rules judge each as they judge the command. `docsources` reads files
written with them; the document tools' options (``pandoc lua -e``, ``emacs --eval``, a
document given to ``pdflatex`` on its command line) are read with them in `documents`.
Only literal text is read; a part computed at run time stands as `UNKNOWN`.
"""

from __future__ import annotations

import re
import shlex

from amplifier_hooks.guard.table.editors import editor_commands

__all__ = ["MAX_FOUND", "UNKNOWN", "elisp_commands", "lua_commands", "path_word",
           "tex_commands"]  # fmt: skip

MAX_FOUND = 32
"""At most so many commands are given from one text (the rest are read by none)."""

UNKNOWN = '"$COMPUTED_AT_RUN_TIME"'
"""A part of a command or path only known when the code runs."""


# -- TeX -----------------------------------------------------------------------------------

_TEX_RUN = re.compile(r"\\(?:write\s*18|ShellEscape|DelayedShellEscape)\s*\{")
"""``\\write18{CMD}`` (TeX reads the stream's number after spaces: ``\\write 18 {``), and
the shellesc package's ``\\ShellEscape{CMD}`` that writes it."""
_TEX_PIPE = re.compile(r"\\(?:input|include|verbatiminput|VerbatimInput|lstinputlisting)"
                       r"\s*(?:\[[^\]]*\]\s*)?\{?\s*\|\s*\"?")  # fmt: skip
_TEX_READ = re.compile(
    r"\\(?:input|include|InputIfFileExists|verbatiminput|VerbatimInput|lstinputlisting"
    r"|includegraphics|includepdf|import|subimport|inputminted\s*(?:\[[^\]]*\])?\s*\{[^}]*\})"
    r"\s*(?:\[[^\]]*\]\s*)?\{([^}|]+)\}"
)
_TEX_OPENOUT = re.compile(r"\\openout\s*\d*\s*=?\s*([^\s\\{}]+)")


def tex_commands(text: str) -> list[str]:
    """What TeX ``text`` runs (``\\write18``, a piped ``\\input``), reads (a file named
    outside the document's folder) and writes (``\\openout`` there) when it is built."""
    found = [_braced(text, m.end()) for m in _TEX_RUN.finditer(text)]
    for match in _TEX_PIPE.finditer(text):
        rest = text[match.end() :]
        found.append(re.split(r"\"|\}", rest, maxsplit=1)[0])
    found += [f"cat -- {path_word(m[1])}" for m in _TEX_READ.finditer(text)
              if _beyond(m[1].strip())]  # fmt: skip
    found += [f"tee -a -- {path_word(m[1])}" for m in _TEX_OPENOUT.finditer(text)
              if _beyond(m[1].strip())]  # fmt: skip
    return [c.strip() for c in found if c.strip()][:MAX_FOUND]


def _braced(text: str, start: int) -> str:
    """The text from ``start`` to its closing brace (nested braces kept)."""
    depth = 1
    for index in range(start, min(len(text), start + 4096)):
        char = text[index]
        depth += 1 if char == "{" else -1 if char == "}" else 0
        if depth == 0:
            return text[start:index]
    return text[start : start + 4096]


def _beyond(path: str) -> bool:
    """Whether ``path`` names a file outside the folder the text is built in: an absolute
    path, one in the home folder or a variable's, or one that climbs out (``../``)."""
    return path.startswith(("/", "~", "$", "\\string~")) or ".." in path.split("/")


def path_word(path: str) -> str:
    """``path`` as a shell word that names the same file (``~`` and ``$HOME`` kept)."""
    path = path.strip().replace("\\string~", "~")
    if UNKNOWN in path:  # (`$HOME/` then a part computed at run time keeps its folder)
        head = path.partition(UNKNOWN)[0]
        return head + UNKNOWN if head.startswith(("~/", "$HOME/")) else UNKNOWN
    for head in ("~/", "$HOME/", "${HOME}/"):
        if path.startswith(head):
            return head + shlex.quote(path[len(head) :])
    return UNKNOWN if path.startswith("$") else shlex.quote(path)


# -- Lua -----------------------------------------------------------------------------------

_LUA_STRING = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\[=*\[.*?\]=*\])"""
_LUA_PART = rf"""(?:{_LUA_STRING}|os\.getenv\s*\(\s*{_LUA_STRING}\s*\)|[\w.:]+(?:\([^()]*\))?)"""
_LUA_VALUE = rf"(\{{[^{{}}]*\}}|{_LUA_PART}(?:\s*\.\.\s*{_LUA_PART})*)"
_LUA_CALL = re.compile(
    r"\b(os\.execute|io\.popen|vim\.fn\.system|vim\.fn\.systemlist|vim\.fn\.jobstart"
    r"|vim\.fn\.termopen|vim\.system|io\.open|os\.remove|io\.lines|vim\.cmd"
    r"|vim\.api\.nvim_command|vim\.api\.nvim_exec2?)\s*(?:\(\s*" + _LUA_VALUE
    + rf"(?:\s*,\s*({_LUA_STRING}))?|({_LUA_STRING}|\{{[^{{}}]*\}}))",
    re.DOTALL,
)  # fmt: skip
"""A call of Lua that runs, reads, writes or deletes: ``f(ARGS)``, or Lua's call with one
string or table and no parentheses (``os.execute[[CMD]]``, ``io.popen"CMD"``)."""
_EX_RUNNERS = frozenset({"vim.cmd", "vim.api.nvim_command", "vim.api.nvim_exec",
                         "vim.api.nvim_exec2"})  # fmt: skip
"""Neovim's calls that run their string as Ex commands (``vim.cmd("!CMD")``)."""
_LUA_ENV = re.compile(rf"os\.getenv\s*\(\s*({_LUA_STRING})\s*\)")


def lua_commands(text: str) -> list[str]:
    """What Lua ``text`` runs, reads, writes and deletes, as shell commands."""
    found: list[str] = []
    for match in _LUA_CALL.finditer(text):
        call, value, mode = match[1], match[2] or match[4], match[3]
        if call in _EX_RUNNERS:  # its lines read as `vim -c LINE` is (`table.editors`)
            lines = _lua_value(value).splitlines() if not value.startswith("{") else []
            found += editor_commands(tuple(w for line in lines for w in ("-c", line)), "nvim")
        elif call in ("io.open", "io.lines"):
            writes = mode is not None and any(c in _lua_text(mode) for c in "wa+")
            found.append(f"{'tee -a' if writes else 'cat'} -- {path_word(_lua_value(value))}")
        elif call == "os.remove":
            found.append(f"rm -- {path_word(_lua_value(value))}")
        elif value.startswith("{"):  # a list of words: the program and its arguments
            words = [_lua_text(s) for s in re.findall(_LUA_STRING, value, re.DOTALL)]
            found.append(shlex.join(words) if words else UNKNOWN)
        else:
            found.append(_lua_value(value))
    return [c for c in found if c.strip()][:MAX_FOUND]


def _lua_value(value: str) -> str:
    """A Lua string expression's text: its literals joined, ``os.getenv("X")`` as ``$X``,
    any other part unknown."""
    parts: list[str] = []
    for part in re.split(r"\s*\.\.\s*", value.strip()):
        env = _LUA_ENV.fullmatch(part)
        if env is not None:
            parts.append("$" + _lua_text(env[1]))
        elif re.fullmatch(_LUA_STRING, part, re.DOTALL):
            parts.append(_lua_text(part))
        else:
            parts.append(UNKNOWN)
    return "".join(parts)


def _lua_text(literal: str) -> str:
    if literal.startswith("["):  # a long string: [[...]], [==[...]==]
        return re.sub(r"^\[=*\[|\]=*\]$", "", literal)
    return re.sub(r"\\(.)", r"\1", literal[1:-1])


# -- Emacs Lisp ----------------------------------------------------------------------------

_EL_STRING = r'"((?:[^"\\]|\\.)*)"'
_EL_SHELL = re.compile(r"\((?:async-|call-process-|process-file-)?shell-command(?:-to-string)?"
                       r"\s+" + _EL_STRING)  # fmt: skip
_EL_ARG = r'(?:"(?:[^"\\]|\\.)*"|[^\s()"]+|\([^()]*\))'
_EL_SHELL_LATER = re.compile(
    r"\((?:start-process-shell-command|start-file-process-shell-command"
    r"|shell-command-on-region)\s+" + _EL_ARG + r"\s+" + _EL_ARG + r"\s+" + _EL_STRING
)
"""The shell command a form takes third (after a process's name and buffer, or a region's
start and end)."""
_EL_WORD = r'"(?:[^"\\]|\\.)*"'
_EL_PROCESS = re.compile(
    r"\((?:call-process|start-process|process-lines)\s+((?:(?:" + _EL_WORD + r"|nil|t)\s*)+)"
)
_EL_READ = re.compile(r"\((?:insert-file-contents(?:-literally)?|find-file|load|load-file)\s+"
                      + _EL_STRING)  # fmt: skip
_EL_DELETE_DIR = re.compile(r"\(delete-directory\s+" + _EL_STRING + r"(\s+t\b)?")
_EL_DELETE = re.compile(r"\(delete-file\s+" + _EL_STRING)
_EL_COPY_URL = re.compile(r"\(url-copy-file\s+" + _EL_STRING + r"\s+" + _EL_STRING)
_EL_WRITE = re.compile(r"\((?:write-region|append-to-file)\s+.*?" + _EL_STRING + r"\s*\)")


def elisp_commands(text: str) -> list[str]:
    """What Emacs Lisp ``text`` runs, reads, deletes and fetches, as shell commands."""
    found = [_el_text(m[1]) for m in _EL_SHELL.finditer(text)]
    found += [_el_text(m[1]) for m in _EL_SHELL_LATER.finditer(text)]
    for match in _EL_PROCESS.finditer(text):
        # (call-process PROGRAM INFILE BUFFER DISPLAY ARGS...): the strings are the words
        words = [_el_text(s) for s in re.findall(_EL_STRING, match[1])]
        found.append(shlex.join(words) if words else UNKNOWN)
    found += [f"cat -- {path_word(_el_text(m[1]))}" for m in _EL_READ.finditer(text)]
    found += [f"rm {'-rf' if m[2] else '-d'} -- {path_word(_el_text(m[1]))}"
              for m in _EL_DELETE_DIR.finditer(text)]  # fmt: skip
    found += [f"rm -- {path_word(_el_text(m[1]))}" for m in _EL_DELETE.finditer(text)]
    found += [f"curl -sLo {path_word(_el_text(m[2]))} {shlex.quote(_el_text(m[1]))}"
              for m in _EL_COPY_URL.finditer(text)]  # fmt: skip
    found += [f"tee -a -- {path_word(_el_text(m[1]))}" for m in _EL_WRITE.finditer(text)]
    return [c for c in found if c.strip()][:MAX_FOUND]


def _el_text(literal: str) -> str:
    return re.sub(r"\\(.)", r"\1", literal)
