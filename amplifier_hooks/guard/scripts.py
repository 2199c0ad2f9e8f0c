"""The files a shell or an interpreter runs as its code: its script, and what its options
load before it (``node -r F``, ``perl -I D``, ``bash --rcfile F``). A rule on where code
comes from (``paths: {access: run}``: a script in a shared temporary folder) asks about
these, not about every path the script is given (``train.py --output /tmp/run``), a
module (``python3 -m http.server``) or the folder it runs in.
"""

from __future__ import annotations

from amplifier_hooks.guard.checkers import checks_only
from amplifier_hooks.guard.programs import SHELLS, is_interpreter
from amplifier_hooks.guard.sourceruns import SOURCE_RUNNERS, source_run_words
from amplifier_hooks.guard.table.python import is_python, python_read
from amplifier_hooks.guard.table.shells import shell_read

__all__ = ["may_run_files", "run_words"]

_NO_SCRIPT = frozenset({"-e", "-E", "--eval", "-p", "--print", "-"})
"""Options after which an interpreter (not Python: `_python`) runs inline code or its
input: no script (what those run is judged elsewhere: `inline`, `earlier`)."""
_LOADING = frozenset({"-r", "--require", "--import", "--loader", "--experimental-loader",
                      "-I"})  # fmt: skip
"""Options whose value is code loaded first: node's preloads, ruby's libraries, ruby's and
perl's library folders."""
_VALUED = _LOADING | {"-C", "-F", "--input-type", "--conditions", "--env-file"}
IN_FOLDER = "/…"
"""Ends a library folder's word (``perl -I /tmp``): the code loaded is a file in it, so
the folder is read as its contents are (``/tmp`` itself is not scratch space, what is in
it is), as find's folders are (`facts`)."""
_MAKERS = frozenset({"make", "gmake"})


def run_words(program: str, args: tuple[str, ...], reads: tuple[str, ...]) -> tuple[str, ...]:
    """The words of ``args`` and the files of ``reads`` (its input's redirects) that name
    code ``program`` runs (as given, not resolved): a shell's or interpreter's script and
    loaded files, or its input when it reads its program there (``node - < x.js``,
    ``bash < x.sh``), ``source``'s file, make's ``-f`` makefiles; () for any other
    program."""
    if not may_run_files(program):
        return ()
    if program in SHELLS:
        if checks_only(program, args):
            return ()  # `bash -n F`, `zsh -n F`: F is parsed, nothing in it runs
        script, stdin = _shell(args)
        return (*script, *reads) if stdin else script
    if program in ("source", "."):
        return tuple(a for a in args[:1] if a != "--") or args[1:2]
    if program in _MAKERS:
        return _makefiles(args)
    if program == "rg":  # `rg --pre CMD` runs CMD on every file it searches
        return _preprocessors(args)
    if is_python(program):
        return _python(args, reads)
    if program.startswith("php"):
        return _php(args, reads)
    if program in SOURCE_RUNNERS and not is_interpreter(program):
        return source_run_words(program, args)  # (`go run /tmp/x.go`, `swift /tmp/x.swift`)
    found: list[str] = []  # (another interpreter: `may_run_files`)
    taking: str | None = None
    stdin = True  # no script: it reads its program from its input
    for arg in args:
        if taking is not None:
            if taking in _LOADING:
                found.append(arg + IN_FOLDER if taking == "-I" else arg)
            taking = None
            continue
        if arg in _NO_SCRIPT or (program.startswith("php") and arg == "-r"):
            stdin = arg == "-"
            break
        if arg.startswith("--") and "=" in arg:
            name, _, value = arg.partition("=")
            if name in _LOADING:
                found.append(value)
            continue
        if arg[:2] in ("-r", "-I") and len(arg) > 2:  # `ruby -r/tmp/x.rb`, `perl -I/tmp/lib`
            found.append(arg[2:] + IN_FOLDER if arg[1] == "I" else arg[2:])
            continue
        if arg.startswith("-") and arg != "--":
            taking = arg if arg in _VALUED else None
            continue
        if arg != "--":
            found.append(arg)  # the script: what follows is its own arguments
            stdin = False
            break
    return (*found, *reads) if stdin else tuple(found)


def may_run_files(program: str) -> bool:
    """Whether ``program`` may run code from a file it is given (`run_words` finds none
    for any other, whatever its words)."""
    return (
        program in ("source", ".")
        or program in _MAKERS
        or program == "rg"
        or is_python(program)
        or is_interpreter(program)  # (a shell too)
        or program in SOURCE_RUNNERS
    )


def _python(args: tuple[str, ...], reads: tuple[str, ...]) -> tuple[str, ...]:
    """Python's script, as Python reads its options (`table.python`): none for ``-c`` or
    ``-m``; its input for ``-`` or no script (``python3 -IX dev x.py``: ``x.py``)."""
    read, _ = python_read(args)
    if any(g.opt.does in ("code", "module") for g in read.given):
        return ()
    script = read.operands[:1]
    return reads if script in ((), ("-",)) else script


def _shell(args: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
    """(its script and loaded files, whether it reads its program from its input)."""
    shell = shell_read(args)
    script = () if shell.script is None else (args[shell.script],)
    return (*shell.loaded, *script), shell.stdin


def _makefiles(args: tuple[str, ...]) -> tuple[str, ...]:
    found: list[str] = []
    taking = False
    for arg in args:
        if taking:
            found.append(arg)
            taking = False
        elif arg in ("-f", "--file", "--makefile"):
            taking = True
        elif arg.startswith(("--file=", "--makefile=")):
            found.append(arg.partition("=")[2])
        elif arg.startswith("-f") and len(arg) > 2:
            found.append(arg[2:])
    return tuple(found)


def _preprocessors(args: tuple[str, ...]) -> tuple[str, ...]:
    """The programs ``rg --pre PROGRAM`` (or ``--pre=PROGRAM``) is told to run on each
    file, but a decompressor found on PATH by its bare name (`_PRE_READERS`), which only
    reads the file it is given (``rg --pre zcat``)."""
    found: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--pre" and index + 1 < len(args):
            found.append(args[index + 1])
        elif arg.startswith("--pre="):
            found.append(arg[6:])
    return tuple(f for f in found if f not in _PRE_READERS)


_PRE_READERS = frozenset({"cat", "zcat", "gzcat", "bzcat", "xzcat", "lzcat", "zstdcat",
                          "lz4cat", "strings"})  # fmt: skip
"""Programs that print the file they are given and change nothing (named bare, rg looks
them up on PATH: ``./cat`` is a script)."""


_PHP_LOADING = ("extension=", "zend_extension=", "auto_prepend_file=", "auto_append_file=")
"""php's ``-d`` settings whose value is code loaded before the script (a library, a file)."""
_PHP_VALUED = frozenset({"-d", "-c", "-z", "-f", "-F", "-r", "-R", "-B", "-E", "-t", "-S"})


def _php(args: tuple[str, ...], reads: tuple[str, ...]) -> tuple[str, ...]:
    """php's script (``-f F`` or its first operand) and what it loads first: ``-d
    extension=F`` (and the prepended files), ``-c INI`` (an ini sets those too), ``-z F``;
    none after ``-r``/``-R`` (inline code, judged elsewhere); its input with no script."""
    found: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--" or arg[:1] != "-" or arg == "-":
            rest = args[index + 1 :] if arg == "--" else args[index:]
            script = [w for w in rest[:1] if w != "-"]
            return (*found, *script) if script else (*found, *reads)
        name, value = arg[:2], arg[2:]
        if name in _PHP_VALUED and not value and index + 1 < len(args):
            index += 1
            value = args[index]
        if name in ("-r", "-R", "-B", "-E"):
            return tuple(found)
        if name in ("-c", "-z", "-f", "-F") or (name == "-d" and value.startswith(_PHP_LOADING)):
            found.append(value.partition("=")[2] if name == "-d" else value)
        index += 1
    return (*found, *reads)
