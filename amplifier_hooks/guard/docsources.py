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

from amplifier_hooks.guard.instructioncode import instruction_commands, instruction_file
from amplifier_hooks.guard.table.doccode import (
    MAX_FOUND,
    UNKNOWN,
    elisp_commands,
    lua_commands,
    tex_commands,
)
from amplifier_hooks.guard.table.editors import editor_commands
from amplifier_hooks.guard.table.markupcode import (
    arara_commands,
    image_script_commands,
    markdown_commands,
    odf_commands,
    pandoc_defaults_commands,
)
from amplifier_hooks.guard.table.modelines import modeline_commands

__all__ = ["DOC_TOOLS", "UNKNOWN", "doc_code", "elisp_commands", "latexmkrc_commands",
           "lua_commands", "python_tag_commands", "tex_commands"]  # fmt: skip

_TEX = (".tex", ".sty", ".cls", ".ltx", ".dtx", ".ins")
_VIM = (".vim",)
_VIM_NAMES = frozenset({".exrc", "_exrc", ".vimrc", "_vimrc", ".gvimrc"})
DOC_TOOLS = {
    "tex": "LaTeX (pdflatex, latexmk), when the document is built",
    "lua": "the program that loads the Lua (a pandoc filter, Neovim, at its next run)",
    "elisp": "Emacs, when it loads the file (or opens a file in this folder)",
    "vim": "Vim or Neovim, when it starts in this folder (exrc) or sources the file",
    "image": "ImageMagick, when it reads the script or drawing (convert, magick, mogrify)",
    "odf": "LibreOffice, when the document is opened",
    "pandoc": "pandoc, when it builds with these defaults (pandoc -d FILE)",
    "markdown": "pandoc, when it builds the page with --embed-resources (--self-contained)",
    "modeline": "Vim or Emacs, when the file is opened (its modeline)",
    "agent": "the agent, in its next session (the host reads these instructions to it)",
}
"""The tool that runs each kind of text, for the reason a planted piece gives."""


def doc_code(path: str, text: str) -> tuple[str, list[str]] | None:
    """The tool that runs ``text`` written into ``path`` and the shell commands it amounts
    to (None: not a document source or editor script the guard reads here)."""
    name = posixpath.basename(path).lower()
    found = _doc_code(name, path, text)
    if found is not None and found[1]:
        return found
    lines = modeline_commands(text)  # any text file an editor opens (a cheap test first)
    return (DOC_TOOLS["modeline"], lines) if lines else found


_IMAGE_SCRIPTS = {".msl": "msl", ".mvg": "mvg", ".svg": "svg"}
_ODF = (".fodt", ".fods", ".fodp", ".fodg", ".fodb")
_MARKDOWN = (".md", ".markdown", ".mdown", ".qmd", ".rmd")


def _doc_code(name: str, path: str, text: str) -> tuple[str, list[str]] | None:
    if instruction_file(path):  # `CLAUDE.md`: the commands it tells the next session to run
        return DOC_TOOLS["agent"], instruction_commands(text)
    if name.endswith(_TEX):
        return DOC_TOOLS["tex"], [*tex_commands(text), *arara_commands(text)][:MAX_FOUND]
    new = _markup_code(name, path, text)  # (given only when it holds something: the
    if new is not None:  # later readers of the written text still read the rest)
        return new
    if name.endswith(".lua"):
        return DOC_TOOLS["lua"], lua_commands(text)
    if name.endswith(".el"):
        return DOC_TOOLS["elisp"], elisp_commands(text)
    if name in _VIM_NAMES or name.endswith(_VIM):
        return DOC_TOOLS["vim"], _vim_commands(text)
    return None


def _markup_code(name: str, path: str, text: str) -> tuple[str, list[str]] | None:
    """Files other programs read as instructions (`table.markupcode`), when they hold any."""
    kind = _IMAGE_SCRIPTS.get(posixpath.splitext(name)[1])
    if kind is not None:
        tool, found = DOC_TOOLS["image"], image_script_commands(kind, text)
    elif name.endswith(_ODF):
        tool, found = DOC_TOOLS["odf"], odf_commands(text)
    elif name.endswith(_MARKDOWN):
        tool, found = DOC_TOOLS["markdown"], markdown_commands(text, posixpath.dirname(path))
    elif name.endswith((".yaml", ".yml")):
        tool, found = DOC_TOOLS["pandoc"], pandoc_defaults_commands(text) or []
    else:
        return None
    return (tool, found) if found else None


# -- Vim -----------------------------------------------------------------------------------


def _vim_commands(text: str) -> list[str]:
    """An Ex script's lines, read as ``vim -c LINE`` commands are (`table.editors`)."""
    lines = [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith('"')
    ]
    words = tuple(w for line in lines[:256] for w in ("-c", line))
    return list(editor_commands(words, "vim"))[:MAX_FOUND]


# -- latexmk's and MkDocs' settings ----------------------------------------------------------

_PERL_STRING = r"'((?:[^'\\]|\\.)*)'" + r'|"((?:[^"\\]|\\.)*)"'
_LATEXMK_SET = re.compile(r"\$(?:pdf|xe|lua|pdflua|pdfxe)?latex|\$(?:bibtex|biber|makeindex"
                          r"|dvipdf|dvips|ps2pdf|pdf_previewer|ps_previewer|dvi_previewer"
                          r"|print_type|lpr|lpr_pdf|compiling_cmd|success_cmd|failure_cmd"
                          r"|warning_cmd)\b")  # fmt: skip
_LATEXMK_VALUE = re.compile(r"=\s*(?:" + _PERL_STRING + r")")
_PERL_RUN = re.compile(r"\b(?:system|exec)\s*\(?\s*(?:" + _PERL_STRING + r")|`([^`]*)`"
                       r"|\bqx\s*[{(/]([^})/]*)[})/]")  # fmt: skip


def latexmkrc_commands(text: str) -> list[str]:
    """The commands a ``latexmkrc`` (Perl that latexmk runs at every build) makes it run:
    the ones its settings name for each pass (``$pdflatex = 'pdflatex -shell-escape %O
    %S'``, latexmk's ``%`` placeholders left out), and those its Perl runs (``system``,
    backticks, ``qx``)."""
    found: list[str] = []
    for line in text.splitlines():
        setting = _LATEXMK_SET.search(line)
        value = _LATEXMK_VALUE.search(line, setting.end()) if setting else None
        if value is not None:
            found.append(re.sub(r"%[A-Za-z]", "", value[1] or value[2] or "").strip())
    for match in _PERL_RUN.finditer(text):
        found.append(next((g for g in match.groups() if g), ""))
    return [c for c in found if c.strip()][:MAX_FOUND]


_PYTHON_TAG = re.compile(r"!!python/(?:object/apply|object/new|object|name|module):([\w.]+)"
                         r"\s*(\[[^\]\n]*\]\]?)?")  # fmt: skip
_QUOTED = re.compile(_PERL_STRING)
_RUNNERS = frozenset({"os.system", "os.popen", "subprocess.call", "subprocess.run",
                      "subprocess.check_call", "subprocess.check_output", "subprocess.Popen",
                      "subprocess.getoutput", "subprocess.getstatusoutput"})  # fmt: skip


def python_tag_commands(text: str) -> list[str]:
    """The commands YAML's Python tags run when a tool loads the file with PyYAML's full
    loader (MkDocs does, for its ``!!python/name:`` settings): ``!!python/object/apply:
    os.system ['CMD']`` runs CMD; a call of any other Python stands as a command nobody
    reads. ``!!python/name:`` (naming a function, as MkDocs' extensions' settings do) runs
    nothing and gives none."""
    found: list[str] = []
    for match in _PYTHON_TAG.finditer(text):
        tag = match[0]
        if tag.startswith("!!python/name:"):
            continue
        words = [a or b for a, b in _QUOTED.findall(match[2] or "")]
        if match[1] in _RUNNERS and words:
            found.append(words[0] if match[1].startswith("os.") or len(words) == 1
                         else shlex.join(words))  # fmt: skip
        else:
            found.append(f"python3 -c {shlex.quote(match[1])}")
    return found[:MAX_FOUND]
