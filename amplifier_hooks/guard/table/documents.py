"""What document and media tools run, read, write and delete because of their options,
as the shell commands that do the same, for the parser to judge like any other command
(`commands_run`).

- pandoc: ``-L``/``--lua-filter FILE`` runs FILE as Lua (``lua FILE``); ``-F``/
  ``--filter FILE`` runs FILE (by its ending's interpreter, as pandoc does: ``.py`` with
  Python, ``.lua`` with Lua; any other as a program); ``pandoc lua SCRIPT`` runs a Lua
  script, ``pandoc lua -e CODE`` its code (read with `doccode.lua_commands`).
- TeX (pdflatex, xelatex, lualatex, latex, tex and their kin): a document given on the
  command line (``pdflatex '\\documentclass...'``) is read as a file's text is
  (`doccode.tex_commands`); latexmk's ``-pdflatex=CMD`` (and ``-latex=``, ``-xelatex=``,
  ``-lualatex=``) is the command it runs for each pass.
- Ghostscript (gs, ps2pdf and kin): an output file ``%pipe%CMD`` or ``|CMD`` is a
  command its output is fed to; PostScript given with ``-c`` that opens a file by name
  (``(F) (r) file``), deletes one (``deletefile``) or renames one reads, writes or deletes
  it (only with ``-dNOSAFER``; read as if it were given, the safe reading).
- ImageMagick (convert, magick, mogrify, montage, composite, identify): a file name
  ``|CMD`` is a command it runs; ``text:F``, ``@F``, ``label:@F``, ``caption:@F`` read F;
  an MVG or MSL script fetched from a URL runs instructions nobody read (asked).
- ffmpeg (ffmpeg, ffplay, ffprobe): a filter's ``textfile=F`` reads F into the picture;
  an input ``concat:A|B`` reads each part.
- Emacs: ``--eval CODE`` (``-eval``) is read with `doccode.elisp_commands`.
"""

from __future__ import annotations

import posixpath
import re
import shlex

from amplifier_hooks.guard.table.doccode import (
    UNKNOWN,
    elisp_commands,
    lua_commands,
    path_word,
    tex_commands,
)

__all__ = ["DOCUMENT_TOOLS", "document_commands"]

PANDOC = frozenset({"pandoc"})
TEX = frozenset({"tex", "etex", "latex", "pdflatex", "xelatex", "lualatex", "pdftex", "xetex",
                 "luatex", "platex", "uplatex", "pdflatex-dev", "lualatex-dev",
                 "latexmk"})  # fmt: skip
GHOSTSCRIPT = frozenset({"gs", "gsc", "gswin32c", "gswin64c", "ps2pdf", "ps2pdf12", "ps2pdf13",
                         "ps2pdf14", "ps2pdfwr", "pdf2ps", "ps2ps", "ps2ps2", "eps2eps",
                         "ps2ascii"})  # fmt: skip
IMAGEMAGICK = frozenset({"convert", "magick", "mogrify", "montage", "composite", "identify",
                         "compare", "conjure", "stream"})  # fmt: skip
FFMPEG = frozenset({"ffmpeg", "ffplay", "ffprobe"})
EMACS = frozenset({"emacs", "emacs-nox", "emacsclient"})
DOCUMENT_TOOLS = PANDOC | TEX | GHOSTSCRIPT | IMAGEMAGICK | FFMPEG | EMACS
"""The programs `document_commands` reads."""

_FILTER_RUNNERS = {".py": "python3", ".lua": "lua", ".pl": "perl", ".rb": "ruby", ".js": "node",
                   ".php": "php", ".r": "Rscript"}  # fmt: skip
"""The interpreter pandoc runs a ``--filter`` with, by its ending (any other: run itself)."""
_LATEXMK_COMMANDS = ("-pdflatex=", "-latex=", "-xelatex=", "-lualatex=", "-pdflualatex=",
                     "-pdfxelatex=", "-dvipdf=", "-ps2pdf=", "-bibtex=", "-makeindex=")  # fmt: skip
_PS_STRING = r"\(((?:[^()\\]|\\.)*)\)"
_PS_OPEN = re.compile(_PS_STRING + r"\s*\(([rwa])\+?\)\s*file\b")
_PS_DELETE = re.compile(_PS_STRING + r"\s*deletefile\b")
_PS_RENAME = re.compile(_PS_STRING + r"\s*" + _PS_STRING + r"\s*renamefile\b")
_TEXTFILE = re.compile(r"(?:^|[:,=])\s*textfile\s*=\s*('[^']*'|[^:,]+)")


def document_commands(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The commands ``program`` (one of `DOCUMENT_TOOLS`) runs, and the reads, writes and
    deletes its ``args`` make it do, as shell commands."""
    name = posixpath.basename(program)
    if name in PANDOC:
        return _pandoc(args)
    if name in TEX:
        return _tex(args)
    if name in GHOSTSCRIPT:
        return _ghostscript(args)
    if name in IMAGEMAGICK:
        return _imagemagick(args)
    if name in FFMPEG:
        return _ffmpeg(args)
    if name in EMACS:
        return tuple(c for code in _values(args, ("--eval", "-eval")) for c in elisp_commands(code))
    return ()


def _values(args: tuple[str, ...], names: tuple[str, ...], short: str = "") -> list[str]:
    """The values of the options ``names`` (``--x V``, ``--x=V``) and ``short``
    (``-LV`` too)."""
    found: list[str] = []
    for index, arg in enumerate(args):
        if arg in names or (short and arg == short):
            if index + 1 < len(args):
                found.append(args[index + 1])
        elif arg.startswith(tuple(n + "=" for n in names)):
            found.append(arg.partition("=")[2])
        elif short and arg.startswith(short) and len(arg) > len(short) and arg[1] != "-":
            found.append(arg[len(short) :])
    return found


def _pandoc(args: tuple[str, ...]) -> tuple[str, ...]:
    found = [f"lua -- {shlex.quote(f)}" for f in _values(args, ("--lua-filter",), "-L")]
    for filter_file in _values(args, ("--filter",), "-F"):
        runner = _FILTER_RUNNERS.get(posixpath.splitext(filter_file)[1].lower())
        found.append(f"{runner} -- {shlex.quote(filter_file)}" if runner else filter_file)
    if args[:1] == ("lua",):  # pandoc's own Lua interpreter
        rest = args[1:]
        codes = _values(rest, ("-e",))
        found += [c for code in codes for c in lua_commands(code)]
        scripts = [a for a in rest if not a.startswith("-") and a not in codes]
        found += [f"lua -- {shlex.quote(s)}" for s in scripts[:1]]
    return tuple(found)


def _tex(args: tuple[str, ...]) -> tuple[str, ...]:
    found: list[str] = []
    for arg in args:
        if arg.startswith(_LATEXMK_COMMANDS):
            command = arg.partition("=")[2]
            found.append(re.sub(r"%[A-Za-z]", "", command).strip() or UNKNOWN)
        elif "\\" in arg and not arg.startswith("-"):  # the document itself, given here
            found.extend(tex_commands(arg))
    return tuple(found)


def _ghostscript(args: tuple[str, ...]) -> tuple[str, ...]:
    found: list[str] = []
    outputs = _values(args, ("-sOutputFile", "-o"), "-o")
    outputs += [a for a in args if a.startswith(("%pipe%", "|"))]
    rendered = _gs_inputs(args)  # what the output is made of: fed to the command
    fed = "cat -- " + (" ".join(shlex.quote(f) for f in rendered) or '"$GHOSTSCRIPT_INPUT"')
    for output in outputs:
        command = output.removeprefix("%pipe%") if output.startswith("%pipe%") else output[1:]
        if output.startswith(("%pipe%", "|")) and command.strip():
            found.append(f"{fed} | {command}")
    for code in _values(args, ("-c",)):
        for path, mode in _PS_OPEN.findall(code):
            found.append(f"{'cat' if mode == 'r' else 'tee -a'} -- {path_word(path)}")
        found += [f"rm -- {path_word(p)}" for p in _PS_DELETE.findall(code)]
        found += [f"mv -- {path_word(a)} {path_word(b)}" for a, b in _PS_RENAME.findall(code)]
    return tuple(dict.fromkeys(c for c in found if c.strip()))


def _gs_inputs(args: tuple[str, ...]) -> list[str]:
    """The files Ghostscript renders: its words that are no option or option's value."""
    files: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in ("-o", "-c", "-sOutputFile", "-I"):
            skip = arg != "-c"  # (`-c`'s code runs up to `-f`: rarely files after it)
        elif not arg.startswith(("-", "%pipe%", "|")):
            files.append(arg)
    return files


def _imagemagick(args: tuple[str, ...]) -> tuple[str, ...]:
    found: list[str] = []
    for arg in args:
        if arg.startswith("|"):
            found.append(arg[1:])
            continue
        coder, colon, rest = arg.partition(":")
        if colon and coder.lower() in ("label", "caption", "text", "txt") and rest.startswith("@"):
            found.append(f"cat -- {path_word(rest[1:])}")
        elif colon and coder.lower() == "text" and rest and rest != "-":
            found.append(f"cat -- {path_word(rest)}")
        elif arg.startswith("@") and len(arg) > 1:  # a file of arguments, read
            found.append(f"cat -- {path_word(arg[1:])}")
        elif "://" in arg and _fetched_script(arg):  # its instructions, unread, run
            found.append(f"sh -c {UNKNOWN}")
    return tuple(found)


def _fetched_script(arg: str) -> bool:
    """An ImageMagick script or drawing fetched from a URL (``https://h/x.mvg``,
    ``msl:https://h/x``): instructions that read and write files, run as served."""
    lowered = arg.lower()
    if lowered.startswith(("msl:", "mvg:")):
        return True
    return lowered.split("?", 1)[0].split("[", 1)[0].endswith((".mvg", ".msl"))


def _ffmpeg(args: tuple[str, ...]) -> tuple[str, ...]:
    found: list[str] = []
    filters = _values(args, ("-vf", "-af", "-filter_complex", "-lavfi", "-filter:v",
                             "-filter:a", "-filter"))  # fmt: skip
    for graph in filters:
        for match in _TEXTFILE.finditer(graph):
            found.append(f"cat -- {path_word(match[1].strip().strip(chr(39)))}")
    for source in _values(args, ("-i",)):
        if source.startswith("concat:"):
            parts = [p for p in source[len("concat:") :].split("|") if p]
            found.append("cat -- " + " ".join(path_word(p) for p in parts))
    return tuple(found)
