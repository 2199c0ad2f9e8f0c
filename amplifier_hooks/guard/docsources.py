"""Document sources and editor scripts whose text makes a tool run commands or read files
beyond the workspace when it next builds or opens them.

- TeX (``.tex``, ``.sty``, ``.cls``, ``.ltx``, ``.dtx``): ``\\write18{CMD}`` runs CMD
  when the document is built with shell escape (minted and its kin turn it on, and
  restricted mode runs a listed few); ``\\input{|"CMD"}`` reads CMD's output. A file
  named by ``\\input``, ``\\include``, ``\\verbatiminput``, ``\\lstinputlisting`` (and
  kin) outside the document's folder is read into the built PDF, which then carries it
  (TeX's ``openin_any`` lets it read any absolute path by default).
- Lua (a pandoc filter, a Neovim config: ``.lua``): ``os.execute``, ``io.popen``,
  ``vim.fn.system``, ``vim.fn.jobstart`` and ``vim.system`` run commands;
  ``io.open`` reads (or, with a ``w`` or ``a`` mode, writes) a file; ``os.remove``
  deletes one.
- Emacs Lisp (``.el``, ``.dir-locals.el``; ``emacs --eval``): ``shell-command``,
  ``call-process``, ``insert-file-contents``, ``delete-directory``, ``delete-file``,
  ``url-copy-file``.
- Vim's Ex scripts a project carries (``.exrc``, ``.vimrc``, ``*.vim``): read as the
  commands of ``vim -c`` are (`table.editors`).

Each is turned into the shell command that does the same (``cat -- FILE`` for a read), so
the rules judge it as they judge the command: a deny among them denies the write
(``planted-code``). Only literal text is read; a part computed at run time stands as a
variable nobody knows. Everyday text (``\\input{chapters/intro}``, a filter that edits the
document tree) holds none of them and stays as it was.
"""

from __future__ import annotations

import posixpath
import re
import shlex

from amplifier_hooks.guard.table.editors import editor_commands

__all__ = ["DOC_TOOLS", "doc_code", "elisp_commands", "lua_commands", "tex_commands"]

MAX_FOUND = 32
"""At most so many commands are given from one text (the rest are read by none)."""

_TEX = (".tex", ".sty", ".cls", ".ltx", ".dtx", ".ins")
_VIM = (".vim",)
_VIM_NAMES = frozenset({".exrc", "_exrc", ".vimrc", "_vimrc", ".gvimrc"})
DOC_TOOLS = {
    "tex": "LaTeX (pdflatex, latexmk), when the document is built",
    "lua": "the program that loads the Lua (a pandoc filter, Neovim, at its next run)",
    "elisp": "Emacs, when it loads the file (or opens a file in this folder)",
    "vim": "Vim or Neovim, when it starts in this folder (exrc) or sources the file",
}
"""The tool that runs each kind of text, for the reason a planted piece gives."""

UNKNOWN = '"$COMPUTED_AT_RUN_TIME"'
"""A part of a command or path only known when the code runs."""


def doc_code(path: str, text: str) -> tuple[str, list[str]] | None:
    """The tool that runs ``text`` written into ``path`` and the shell commands it amounts
    to (None: not a document source or editor script the guard reads here)."""
    name = posixpath.basename(path).lower()
    if name.endswith(_TEX):
        return DOC_TOOLS["tex"], tex_commands(text)
    if name.endswith(".lua"):
        return DOC_TOOLS["lua"], lua_commands(text)
    if name.endswith(".el"):
        return DOC_TOOLS["elisp"], elisp_commands(text)
    if name in _VIM_NAMES or name.endswith(_VIM):
        return DOC_TOOLS["vim"], _vim_commands(text)
    return None


# -- TeX -----------------------------------------------------------------------------------

_TEX_RUN = re.compile(r"\\write18\s*\{")
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
    found += [f"cat -- {_path_word(m[1])}" for m in _TEX_READ.finditer(text)
              if _beyond(m[1].strip())]  # fmt: skip
    found += [f"tee -a -- {_path_word(m[1])}" for m in _TEX_OPENOUT.finditer(text)
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


def _path_word(path: str) -> str:
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

_LUA_STRING = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\[\[.*?\]\])"""
_LUA_PART = rf"""(?:{_LUA_STRING}|os\.getenv\s*\(\s*{_LUA_STRING}\s*\)|[\w.:]+(?:\([^()]*\))?)"""
_LUA_VALUE = rf"(\{{[^{{}}]*\}}|{_LUA_PART}(?:\s*\.\.\s*{_LUA_PART})*)"
_LUA_CALL = re.compile(
    r"\b(os\.execute|io\.popen|vim\.fn\.system|vim\.fn\.systemlist|vim\.fn\.jobstart"
    r"|vim\.system|io\.open|os\.remove|io\.lines)\s*\(\s*" + _LUA_VALUE
    + rf"(?:\s*,\s*({_LUA_STRING}))?",
    re.DOTALL,
)  # fmt: skip
_LUA_ENV = re.compile(rf"os\.getenv\s*\(\s*({_LUA_STRING})\s*\)")


def lua_commands(text: str) -> list[str]:
    """What Lua ``text`` runs, reads, writes and deletes, as shell commands."""
    found: list[str] = []
    for match in _LUA_CALL.finditer(text):
        call, value, mode = match[1], match[2], match[3]
        if call in ("io.open", "io.lines"):
            writes = mode is not None and any(c in _lua_text(mode) for c in "wa+")
            found.append(f"{'tee -a' if writes else 'cat'} -- {_path_word(_lua_value(value))}")
        elif call == "os.remove":
            found.append(f"rm -- {_path_word(_lua_value(value))}")
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
    if literal.startswith("[["):
        return literal[2:-2]
    return re.sub(r"\\(.)", r"\1", literal[1:-1])


# -- Emacs Lisp ----------------------------------------------------------------------------

_EL_STRING = r'"((?:[^"\\]|\\.)*)"'
_EL_SHELL = re.compile(r"\((?:async-)?shell-command(?:-to-string)?\s+" + _EL_STRING)
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
    for match in _EL_PROCESS.finditer(text):
        # (call-process PROGRAM INFILE BUFFER DISPLAY ARGS...): the strings are the words
        words = [_el_text(s) for s in re.findall(_EL_STRING, match[1])]
        found.append(shlex.join(words) if words else UNKNOWN)
    found += [f"cat -- {_path_word(_el_text(m[1]))}" for m in _EL_READ.finditer(text)]
    found += [f"rm {'-rf' if m[2] else '-d'} -- {_path_word(_el_text(m[1]))}"
              for m in _EL_DELETE_DIR.finditer(text)]  # fmt: skip
    found += [f"rm -- {_path_word(_el_text(m[1]))}" for m in _EL_DELETE.finditer(text)]
    found += [f"curl -sLo {_path_word(_el_text(m[2]))} {shlex.quote(_el_text(m[1]))}"
              for m in _EL_COPY_URL.finditer(text)]  # fmt: skip
    found += [f"tee -a -- {_path_word(_el_text(m[1]))}" for m in _EL_WRITE.finditer(text)]
    return [c for c in found if c.strip()][:MAX_FOUND]


def _el_text(literal: str) -> str:
    return re.sub(r"\\(.)", r"\1", literal)


# -- Vim -----------------------------------------------------------------------------------


def _vim_commands(text: str) -> list[str]:
    """An Ex script's lines, read as ``vim -c LINE`` commands are (`table.editors`)."""
    lines = [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith('"')
    ]
    words = tuple(w for line in lines[:256] for w in ("-c", line))
    return list(editor_commands(words, "vim"))[:MAX_FOUND]
