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

from amplifier_hooks.guard.table.doccode import (
    MAX_FOUND,
    UNKNOWN,
    elisp_commands,
    lua_commands,
    tex_commands,
)
from amplifier_hooks.guard.table.editors import editor_commands

__all__ = ["DOC_TOOLS", "UNKNOWN", "doc_code", "elisp_commands", "lua_commands", "tex_commands"]

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


# -- Vim -----------------------------------------------------------------------------------


def _vim_commands(text: str) -> list[str]:
    """An Ex script's lines, read as ``vim -c LINE`` commands are (`table.editors`)."""
    lines = [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith('"')
    ]
    words = tuple(w for line in lines[:256] for w in ("-c", line))
    return list(editor_commands(words, "vim"))[:MAX_FOUND]
