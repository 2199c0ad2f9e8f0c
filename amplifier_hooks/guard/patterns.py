"""A search pattern or an editing script is not a path: ``grep -rn id_rsa docs/`` searches
``docs/`` for a word; ``sed -i 's/a*/b/' f.py`` edits ``f.py`` with a script.

The first operand of ``grep``, ``rg``, ``ag``, ``ack`` and ``sed`` is its pattern or
script unless an option gives it one (``-e``, ``-f``); the rest are the paths.
"""

from __future__ import annotations

from amplifier_hooks.guard.places import read_options

__all__ = ["PATTERN_FIRST", "path_operands"]

_GREP_VALUED = frozenset(
    {"-e", "--regexp", "-f", "--file", "-m", "--max-count", "-A", "--after-context", "-B",
     "--before-context", "-C", "--context", "--include", "--exclude", "--exclude-dir",
     "--exclude-from", "-d", "--directories", "-D", "--devices", "--label", "--color",
     "--colour", "-g", "--glob", "--iglob", "-t", "--type", "-T", "--type-not", "-j",
     "--threads", "--max-depth", "-M", "--max-columns", "-r", "--replace", "-E",
     "--encoding", "--pre", "--pre-glob", "--ignore-file", "--sort", "--sortr", "--path-separator",
     "--max-filesize", "-G", "--file-search-regex", "--ignore-dir", "--type-set"}
)  # fmt: skip
_SED_VALUED = frozenset({"-e", "--expression", "-f", "--file", "-l", "--line-length"})
_GIVEN = ("-e", "--regexp", "-f", "--file", "--expression")
PATTERN_FIRST = {
    "grep": _GREP_VALUED - {"-r", "-E"},
    "egrep": _GREP_VALUED - {"-r", "-E"},
    "fgrep": _GREP_VALUED - {"-r", "-E"},
    "zgrep": _GREP_VALUED - {"-r", "-E"},
    "rg": _GREP_VALUED,
    "ag": _GREP_VALUED - {"-r", "-E"},
    "ack": _GREP_VALUED - {"-r", "-E"},
    "sed": _SED_VALUED,
}
"""Programs whose first operand is a pattern or script, and their options that take a
value (``rg -r`` replaces; ``grep -r`` recurses)."""


def path_operands(program: str, args: tuple[str, ...]) -> list[str]:
    """The operands of ``program`` that are paths (its pattern or script left out)."""
    options = read_options(args, PATTERN_FIRST[program])
    if any(name in options.values for name in _GIVEN):
        return options.operands
    return options.operands[1:]
