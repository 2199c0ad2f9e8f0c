"""The shell commands an interpreter's inline code hands to a shell or runs as a program,
when they are written out as literals: ``os.system("git reset --hard")``,
``subprocess.run(["git", "push", "--force", "origin", "main"])``,
``require("child_process").execSync("rm -rf src")``, ``system('...')``, Ruby's, Perl's
and PHP's backticks, AppleScript's ``do shell script "..."`` (`applescript`).

The guard does not read Python or JavaScript: the inline code stays asked whatever it
says. But a command it spells out in full is a command like any other, so it is judged
too, and what it does can only add to the verdict (a deny), never take from it. A command
built at run time (a variable, ``f"..."``, ``${...}``, ``%s``) is not read.
"""

from __future__ import annotations

import re
import shlex

from amplifier_hooks.guard.applescript import applescript_commands
from amplifier_hooks.guard.inline import code_flags
from amplifier_hooks.guard.notebooks import ipython_code

__all__ = ["code_texts", "shell_commands"]

_RUNNERS = (
    r"system|popen|execSync|execFile|execFileSync|spawn|spawnSync|run|call|check_call"
    r"|check_output|Popen|getoutput|getstatusoutput|shell_exec|passthru|proc_open"
    r"|capture2|capture2e|capture3"
)
"""Python's ``exec`` runs Python, so ``exec`` is read for the backtick families only."""
_STRING = r"""(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')"""
_CALL = re.compile(rf"\b(?:{_RUNNERS})\s*\(\s*{_STRING}")
"""A runner called with a literal string first: the command (or the program)."""
_LIST_CALL = re.compile(rf"\b(?:{_RUNNERS})\s*\(\s*\[((?:\s*{_STRING}\s*,?)+)\]")
"""A runner called with a list of literal words first: a program and its arguments."""
_WORD = re.compile(_STRING)
_BACKTICKS = re.compile(r"`([^`$\\]*)`|\bqx\s*[({]([^)}$]*)[)}]|%x\(([^)$#]*)\)")
"""Ruby's, Perl's and PHP's backticks (and ``qx()``, ``%x()``): a shell command."""
_BACKTICK_FAMILIES = ("ruby", "perl", "php")
_JS_FAMILIES = ("node", "javascript", "deno", "bun")
"""JavaScript's ``child_process.exec(CMD)`` runs CMD with a shell (read here only when the
code does not parse: an edit's fragment of a config file)."""
_EXEC = re.compile(rf"\bexec\s*\(?\s*{_STRING}")
_BUILT = re.compile(r"\$\{|%[sd]|\{\}|#\{")
"""A string filled in at run time (a template, ``%s``, ``{}``): not the command it runs."""
MAX_COMMANDS = 16


def code_texts(program: str, args: tuple[str, ...]) -> list[str]:
    """The code ``program`` is given on its command line (``python3 -c CODE``, ``perl -ne
    CODE``, ``node --eval=CODE``); empty when it takes none."""
    flags = code_flags(program)
    if flags is None:
        return []
    letters, longs = flags
    found: list[str] = []
    for index, arg in enumerate(args):
        name, equals, value = arg.partition("=")
        if equals and name in longs:
            found.append(value)
        elif arg in longs and arg[:1] != "-":  # a subcommand: `deno eval -p CODE`
            found.extend(_first_operand(args[index + 1 :]))
        elif index + 1 < len(args) and (
            arg in longs or (arg[:1] == "-" and arg[1:2] != "-" and arg[-1:] in letters)
        ):
            found.append(args[index + 1])
    return found


def _first_operand(args: tuple[str, ...]) -> list[str]:
    """The first word that is no option (nor ``--ext``'s value), as a list."""
    skip = False
    for arg in args:
        if not skip and arg[:1] != "-":
            return [arg]
        skip = arg == "--ext"
    return []


def shell_commands(program: str, code: str) -> list[str]:
    """The commands ``code`` (given to ``program``) spells out in full for a shell or as a
    program and its words, as shell command lines."""
    found: list[str] = []
    found.extend(_literal(match) for match in _CALL.finditer(code))
    for match in _LIST_CALL.finditer(code):
        words = [_literal(m) for m in _WORD.finditer(match.group(1))]
        found.append(shlex.join(words))
    family = program.rstrip("0123456789.")
    if family == "ipython":  # `!cmd`, a `%%bash` cell
        found.extend(text for language, text in ipython_code(code) if language == "shell")
    if family == "osascript":  # `do shell script "CMD"`, Terminal's `do script "CMD"`
        found.extend(applescript_commands(code))
    if family in _BACKTICK_FAMILIES or family in _JS_FAMILIES:  # Node's exec runs a shell
        found.extend(_literal(match) for match in _EXEC.finditer(code))
    if family in _BACKTICK_FAMILIES:
        for match in _BACKTICKS.finditer(code):
            found.append(next(g for g in match.groups() if g is not None))
    return [c for c in found if c.strip() and not _BUILT.search(c)][:MAX_COMMANDS]


def _literal(match: re.Match[str]) -> str:
    """The text of the string literal ``match`` found (its first two groups: "..." or
    '...'), escapes undone."""
    text = match.group(1) if match.group(1) is not None else match.group(2)
    return re.sub(r"\\(.)", r"\1", text)
