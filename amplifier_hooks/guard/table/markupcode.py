"""Files that some program later reads as instructions, by the file's kind: the
constructs in each that run code or read files when a tool opens or builds the file, as the
shell commands that do the same (``cat -- FILE`` for a read), so the rules judge each as
they judge the command (`docsources` hands them to the planted-code rules).

====================  ===========================================================
kind                  constructs read
====================  ===========================================================
ImageMagick MSL       ``filename=`` of ``<read>``/``<write>`` and kin: a coder that
(``.msl``)            reads a file's text (``text:``, ``@``, ``ephemeral:``) or another
                      script (``msl:``), a path outside the file's folder
MVG, SVG (``.mvg``,   ``image OP X,Y W,H 'REF'`` (MVG), ``href=`` (SVG): the same coders
``.svg``)
arara (``% arara:``   a directive's ``command``/``program`` option (a rule that runs it),
in TeX)               ``clean``'s ``files`` outside the document's folder
OpenDocument flat     an event listener's ``vnd.sun.star.script:`` macro run when the
(``.fod*``)           document opens: a script path that climbs out of LibreOffice's
                      script folders, an embedded Basic library (its ``Shell`` calls)
pandoc defaults       ``filters:`` outside the project (``/tmp``, the home folder),
(YAML)                ``include-in-header``/``-before-body``/``-after-body`` files
Markdown              image links and ``<img src>`` outside the file's folder, which
                      ``pandoc --embed-resources`` embeds in the page it builds
====================  ===========================================================

A construct that runs code the guard cannot read stands as `UNKNOWN_CODE` (asked).
Everyday text (an MSL that resizes ``logo.png``, ``% arara: pdflatex``, ``![](img/a.png)``)
holds none of them and gives nothing.
"""

from __future__ import annotations

import html
import posixpath
import re
import shlex

from amplifier_hooks.guard.table.doccode import MAX_FOUND, UNKNOWN, path_word

__all__ = ["UNKNOWN_CODE", "arara_commands", "image_script_commands", "markdown_commands",
           "odf_commands", "pandoc_defaults_commands"]  # fmt: skip

UNKNOWN_CODE = f"sh -c {UNKNOWN}"
"""Code a file makes a tool run that the guard cannot read (`guard-opaque` asks)."""


def _beyond(path: str) -> bool:
    """``path`` names a file outside the folder the text is read in: absolute, in the home
    folder or a variable's, or climbing out (``../``)."""
    return path.startswith(("/", "~", "$")) or ".." in path.split("/")


# -- ImageMagick: MSL, MVG, SVG ----------------------------------------------------------------

_CODERS_READ = ("text:", "txt:", "label:@", "caption:@", "@")
"""Coders whose name is followed by a file whose text ImageMagick reads into the image."""
_CODERS_SCRIPT = ("msl:", "mvg:")
"""Coders that run another file of drawing or scripting instructions, unread."""
_MSL_ATTR = re.compile(r"<\s*(\w+)\b[^>]*?\b(?:filename|image)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')",
                       re.IGNORECASE)  # fmt: skip
_MVG_IMAGE = re.compile(r"^\s*image\s+\w+\s+[-\d.,\s]+?(?:\"([^\"]*)\"|'([^']*)'|(\S+))\s*$",
                        re.IGNORECASE | re.MULTILINE)  # fmt: skip
_SVG_HREF = re.compile(r"\bhref\s*=\s*(?:\"([^\"]*)\"|'([^']*)')", re.IGNORECASE)


def image_script_commands(kind: str, text: str) -> list[str]:
    """What ImageMagick does with the files an MSL (``kind`` ``msl``), MVG or SVG text
    names: a read of a file's text, another script run unread, a write outside its folder.
    An SVG's plain links are left alone (a renderer draws them as images)."""
    found: list[str] = []
    if kind == "msl":
        refs = [(m[1].lower(), html.unescape(m[2] or m[3] or "")) for m in _MSL_ATTR.finditer(text)]
    elif kind == "mvg":
        refs = [("image", m[1] or m[2] or m[3] or "") for m in _MVG_IMAGE.finditer(text)]
    else:
        refs = [("href", html.unescape(m[1] or m[2] or "")) for m in _SVG_HREF.finditer(text)]
    for tag, ref in refs:
        found += _image_ref(tag, ref.strip(), plain=kind != "svg")
    return found[:MAX_FOUND]


def _image_ref(tag: str, ref: str, plain: bool) -> list[str]:
    """The commands one image reference amounts to (``text:~/.ssh/id_rsa``: a read)."""
    lowered = ref.lower()
    if lowered.startswith(_CODERS_SCRIPT):
        return [UNKNOWN_CODE]
    if lowered.startswith("ephemeral:"):  # read, then deleted
        path = path_word(ref.partition(":")[2])
        return [f"cat -- {path}", f"rm -- {path}"]
    for coder in _CODERS_READ:
        if lowered.startswith(coder):
            return [f"cat -- {path_word(ref[len(coder) :])}"]
    if not plain or "://" in ref or not _beyond(ref.split("[", 1)[0]):
        return []
    path = path_word(ref.split("[", 1)[0])  # (``a.gif[0]``: a frame of the file)
    return [f"tee -a -- {path}" if tag == "write" else f"cat -- {path}"]


# -- arara -------------------------------------------------------------------------------------

_ARARA = re.compile(r"^\s*%\s*arara\s*:\s*([\w-]+)\s*(?::\s*(\{.*\}))?", re.MULTILINE)
_ARARA_RUN = re.compile(r"\b(?:command|program|cmd|exec|shell)\s*:\s*(?:'((?:[^']|'')*)'"
                        r"|\"((?:[^\"\\]|\\.)*)\"|@\{(.*)\})")  # fmt: skip
_ARARA_FILES = re.compile(r"\bfiles\s*:\s*\[([^\]]*)\]")
_ARARA_STRING = re.compile(r"'((?:[^']|'')*)'|\"((?:[^\"\\]|\\.)*)\"|([^,\s]+)")


def arara_commands(text: str) -> list[str]:
    """What a TeX file's arara directives make ``arara FILE`` run: a directive's command
    option (``% arara: shell: { command: 'CMD' }``) runs CMD; ``clean: { files: [...] }``
    deletes the files (the ones outside the document's folder are given). A rule's name
    alone (``% arara: pdflatex``) runs the rule's own program, read where it is run."""
    found: list[str] = []
    for match in _ARARA.finditer(text):
        options = match[2] or ""
        for run in _ARARA_RUN.finditer(options):
            found.append(UNKNOWN_CODE if run[3] is not None
                         else (run[1] or "").replace("''", "'") or run[2] or "")  # fmt: skip
        if match[1].lower() == "clean":
            for files in _ARARA_FILES.finditer(options):
                words = [a or b or c for a, b, c in _ARARA_STRING.findall(files[1])]
                found += [f"rm -f -- {path_word(w)}" for w in words if _beyond(w)]
    return [c.strip() for c in found if c.strip()][:MAX_FOUND]


# -- OpenDocument (flat XML) -------------------------------------------------------------------

_ODF_LISTENER = re.compile(r"<\s*script:event-listener\b[^>]*>", re.IGNORECASE)
_ODF_HREF = re.compile(r"\bxlink:href\s*=\s*(?:\"([^\"]*)\"|'([^']*)')", re.IGNORECASE)
_ODF_MACRO = re.compile(r"^vnd\.sun\.star\.script:([^?]*)\?(.*)$", re.IGNORECASE)
_ODF_BASIC = re.compile(r"<\s*(?:ooo|office):(?:source-code|library-embedded)\b", re.IGNORECASE)
_BASIC_SHELL = re.compile(r"\bShell\s*\(\s*\"((?:[^\"]|\"\")*)\"(?:\s*&\s*\"((?:[^\"]|\"\")*)\")?",
                          re.IGNORECASE)  # fmt: skip


def odf_commands(text: str) -> list[str]:
    """What a flat OpenDocument file (``.fodt``, ``.fods``, ...) runs when LibreOffice
    opens it: each event listener's macro. A Python or JavaScript macro named by a path
    that climbs out of LibreOffice's script folders (``../../../../tmp/p.py$run``) runs that
    file, the path taken from the root; a macro in the document's Basic library runs the
    commands its ``Shell`` calls name, or code the guard does not read."""
    found: list[str] = []
    listened = False
    for listener in _ODF_LISTENER.finditer(text):
        href = _ODF_HREF.search(listener[0])
        url = html.unescape((href[1] or href[2] or "") if href else "")
        macro = _ODF_MACRO.match(url)
        if macro is None:
            continue
        listened = True
        name = macro[1].split("$", 1)[0]
        if ".." in name.split("/") or name.startswith("/"):
            parts = [p for p in name.split("/") if p not in ("", ".", "..")]
            found.append(shlex.quote("/" + "/".join(parts)))
        elif "language=basic" not in macro[2].lower():
            found.append(UNKNOWN_CODE)
    if listened and _ODF_BASIC.search(text):
        source = html.unescape(text)
        shells = [(m[1] + (m[2] or "")).replace('""', '"') for m in _BASIC_SHELL.finditer(source)]
        found += shells or [UNKNOWN_CODE]
    return [c for c in found if c.strip()][:MAX_FOUND]


# -- pandoc defaults ---------------------------------------------------------------------------

_PANDOC_KEY = re.compile(r"^(filters|include-in-header|include-before-body|include-after-body"
                         r"|lua-filter)\s*:\s*(.*)$")  # fmt: skip
_YAML_ITEM = re.compile(r"^\s+-\s+(.*)$")
_YAML_PATH = re.compile(r"^\s+(?:-\s+)?path\s*:\s*(.*)$")


def pandoc_defaults_commands(text: str) -> list[str] | None:
    """What a pandoc defaults file (``pandoc -d FILE``) makes pandoc run and read: a filter
    outside the project (``/tmp/f.lua``, one in the home folder) as ``pandoc --filter``
    runs it, and each file included into the output outside the project (``cat``).
    None: the text has none of those keys at its top level (not a defaults file)."""
    if not any(_PANDOC_KEY.match(line) for line in text.splitlines()):
        return None
    found: list[str] = []
    key = ""
    for line in text.splitlines()[:512]:
        top = _PANDOC_KEY.match(line)
        if top is not None:
            key = top[1]
            values = _yaml_list(top[2])
        elif line[:1] not in (" ", "\t", "-", ""):
            key, values = "", []
        else:
            item = _YAML_ITEM.match(line) or _YAML_PATH.match(line)
            values = _yaml_list(item[1]) if item and key else []
        for value in values:
            if not value or not _beyond(value) or value.startswith(("type:", "path:")):
                continue
            if key in ("filters", "lua-filter"):
                option = "--lua-filter" if value.endswith(".lua") else "--filter"
                found.append(f"pandoc {option} {path_word(value)}")
            else:
                found.append(f"cat -- {path_word(value)}")
    return found[:MAX_FOUND]


def _yaml_list(value: str) -> list[str]:
    """The plain values of one YAML line's value (``a``, ``[a, b]``, ``"a"``)."""
    value = value.split(" #", 1)[0].strip()
    if value.startswith("{"):
        path = re.search(r"\bpath\s*:\s*([^,}]+)", value)
        return [path[1].strip().strip("'\"")] if path else []
    if value.startswith("["):
        value = value.strip("[]")
    return [v.strip().strip("'\"") for v in value.split(",") if v.strip()]


# -- Markdown ----------------------------------------------------------------------------------

_MD_IMAGE = re.compile(r"!\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)"
                       r"|<img\b[^>]*?\bsrc\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)  # fmt: skip


def markdown_commands(text: str, folder: str) -> list[str]:
    """The files outside ``folder`` (the Markdown file's) its images name: pandoc's
    ``--embed-resources`` (``--self-contained``) reads each into the page it builds."""
    found: list[str] = []
    for match in _MD_IMAGE.finditer(text):
        ref = match[1] or match[2] or ""
        if "://" in ref or ref.startswith(("data:", "#")) or not _beyond(ref):
            continue
        if ref.startswith(("~", "$")):
            found.append(f"cat -- {path_word(ref)}")
        else:
            found.append(f"cat -- {shlex.quote(posixpath.normpath(posixpath.join(folder, ref)))}")
    return found[:MAX_FOUND]
