"""Editor modelines: lines in any text file that Vim or Emacs obey when the file is opened.

- Vim reads a ``vim:``/``vi:``/``ex:`` modeline in the first and last five lines
  (``vim: set foldexpr=EXPR fdm=expr:``). An expression option (``foldexpr``,
  ``indentexpr``, ``includeexpr``, ...) is evaluated as the file is shown: a
  ``system('CMD')`` in it runs CMD, an ``execute('!CMD')`` runs it through the shell, and
  an expression that builds code at run time (``eval``, ``luaeval``) runs what the guard
  cannot read.
- Emacs evaluates ``eval:`` forms of the first line's ``-*- ... -*-`` and of a
  ``Local Variables:`` block near the end: read as Emacs Lisp (`table.doccode`).

Only files whose text holds a modeline's marker are read (a cheap test of the text); a
modeline that sets tabs or a mode gives nothing.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.table.doccode import MAX_FOUND, elisp_commands
from amplifier_hooks.guard.table.editors import editor_commands

__all__ = ["modeline_commands"]

_UNKNOWN_CODE = 'sh -c "$COMPUTED_AT_RUN_TIME"'
_MARKERS = ("vim:", "vi:", "ex:", "Vim:", "-*-", "Local Variables:")
_VIM = re.compile(r"(?:^|\s)(?:vi|vim|Vim|ex)(?:[<=>]?\d+)?:\s*(?:se(?:t)?\s+(.*)(?<!\\):|(.*))")
_EXPR_OPTIONS = frozenset({
    "foldexpr", "fde", "indentexpr", "inde", "formatexpr", "fex", "includeexpr", "inex",
    "foldtext", "fdt", "printexpr", "pexpr", "diffexpr", "dex", "patchexpr", "pex",
    "charconvert", "ccv", "balloonexpr", "bexpr", "statusline", "stl", "tabline", "tal",
    "rulerformat", "ruf", "titlestring", "iconstring", "guitablabel", "gtl",
    "completefunc", "cfu", "omnifunc", "ofu", "operatorfunc", "opfunc", "tagfunc", "tfu",
})  # fmt: skip
"""Vim's options whose value is an expression (or a function) evaluated while editing."""
_PROGRAM_OPTIONS = frozenset({"keywordprg", "kp", "makeprg", "mp", "grepprg", "gp",
                              "equalprg", "ep", "formatprg", "fp", "shell", "sh"})  # fmt: skip
"""Vim's options naming a program it runs (at ``K``, ``:make``, ``=``, ``gq``, ``:!``)."""
_QUOTED = r"""(?:'((?:[^']|'')*)'|"((?:[^"\\]|\\.)*)")"""
_RUNS = re.compile(rf"\b(?:system|systemlist)\s*\(\s*{_QUOTED}|\b(?:execute|exe)\s*\(\s*{_QUOTED}")
_COMPUTED = re.compile(r"\b(?:eval|luaeval|py3eval|pyeval|pyxeval|rubyeval|perleval|libcall"
                       r"|libcallnr|job_start|jobstart|term_start|termopen|feedkeys|function"
                       r"|funcref|call|system|systemlist|execute)\s*\(")  # fmt: skip
_EMACS_LINE = re.compile(r"-\*-(.*?)-\*-")
_EMACS_EVAL = re.compile(r"(?:^|;)\s*eval\s*:\s*(\(.*)")
_EMACS_LOCALS = re.compile(r"Local Variables:\s*$(.*?)End:", re.MULTILINE | re.DOTALL)


def modeline_commands(text: str) -> list[str] | None:
    """The commands the modelines in ``text`` make Vim or Emacs run when the file is
    opened. None: no modeline's marker in the text (the cheap test)."""
    if not any(marker in text for marker in _MARKERS):
        return None
    lines = text.splitlines()
    ends = lines[:5] + lines[5:][-5:]
    found: list[str] = []
    for line in ends:
        match = _VIM.search(line)
        if match is not None:
            found += _vim_options(match[1], r"(?<!\\)\s+") if match[1] is not None else []
            found += _vim_options(match[2], r"(?<!\\)[\s:]+") if match[2] is not None else []
    for line in lines[:2]:
        first = _EMACS_LINE.search(line)
        for part in first[1].split(";") if first else ():
            found += _emacs_eval(part)
    for block in _EMACS_LOCALS.finditer(text[-3000:]):
        for line in block[1].splitlines():
            found += _emacs_eval(line.split("eval:", 1)[-1] if "eval:" in line else "")
    return found[:MAX_FOUND]


def _vim_options(spec: str, between: str) -> list[str]:
    """The commands one Vim modeline's options run (``foldexpr=execute('!CMD')``), the
    options parted by ``between`` (blanks in the ``set`` form, blanks or colons else)."""
    found: list[str] = []
    for option in re.split(between, spec):
        name, _, value = option.partition("=")
        name = name.strip().lower()
        value = re.sub(r"\\(.)", r"\1", value)  # a modeline's `\ ` and `\|` are the characters
        if name in _PROGRAM_OPTIONS and value:
            found.append(value)
        elif name in _EXPR_OPTIONS and value:
            found += _vim_expression(value)
    return found


def _vim_expression(value: str) -> list[str]:
    runs = list(_RUNS.finditer(value))
    found: list[str] = []
    for run in runs:
        if run[1] is not None or run[2] is not None:
            found.append((run[1] or "").replace("''", "'") or run[2] or "")
        else:
            ex = (run[3] or "").replace("''", "'") or run[4] or ""
            found += editor_commands(("-c", ex), "vim")
    if not found and _COMPUTED.search(value):
        found.append(_UNKNOWN_CODE)
    return found


def _emacs_eval(part: str) -> list[str]:
    """The commands an ``eval:`` form runs (Emacs Lisp's readers in `table.doccode`)."""
    match = _EMACS_EVAL.search(part) if "eval" in part else None
    form = match[1] if match else part.strip() if part.strip().startswith("(") else ""
    return elisp_commands(form) if form else []
