"""Python's command line (``python``, ``python3``, ``python3.12``): its options, and the
program they give it to run.

CPython reads its options with a getopt of its own: short options bundle (``-IBc``), a
short option's value is the rest of the word or the next one (``-Wignore``, ``-W
ignore``), long options are spelled out in full (no abbreviations), and the first
operand (a script, or ``-``) ends them. So do ``-c CODE`` and ``-m MODULE``: every word
after them is the program's own (``python3 -c CODE -i`` runs CODE with ``-i`` in
``sys.argv``). Python always runs code the guard does not read here, so its entry never
grants; the inline reader (`inline`) reads ``-c`` code with it.
"""

from __future__ import annotations

from functools import lru_cache

from amplifier_hooks.guard.table.acts import Reading, doubtful
from amplifier_hooks.guard.table.options import Read, opts, read_options

__all__ = [
    "PYTHON",
    "is_python",
    "module_writes",
    "python_args",
    "python_entry",
    "python_read",
    "quiet_options",
    "runs_code",
    "unpacks_into",
]

PYTHON = opts(
    "-b:quiet -B:quiet -E:quiet -I:quiet -O:quiet -P:quiet -q:quiet -s:quiet -S:quiet "
    "-u:quiet -W=:quiet -X=:quiet -c=:code -m=:module -i:interactive -d -v -x -R "
    "-h,-?,--help --help-env --help-xoptions --help-all -V,--version "
    "--check-hash-based-pycs=",
    permute=False,
    abbreviations=False,
)
"""CPython 3's options. ``quiet``: changes nothing of the code Python runs or what it
loads with it (``-I`` isolates, ``-W`` filters warnings); ``-i`` reads more code from its
input once the program ends."""
_PROGRAM_ROLES = frozenset({"code", "module"})


def is_python(program: str) -> bool:
    """``program`` runs Python (``python``, ``python3``, ``python3.12``)."""
    return program.rstrip("0123456789.") == "python"


def python_read(args: tuple[str, ...]) -> tuple[Read, tuple[str, ...]]:
    """Python's options up to the program they give it (``-c CODE``, ``-m MODULE``, a
    script or ``-``), and the program's own words after it."""
    if sum(map(len, args)) <= _REMEMBERED_BYTES:
        return _remembered(args)
    return _python_read(args)


_REMEMBERED_BYTES = 4096
"""Command lines up to this size are remembered: one piece's facts ask for them twice
(whether it runs ``-c`` code, and which script it runs), a call's pieces and the next
calls again; a larger one (its code) would make the cache large."""


@lru_cache(maxsize=1024)  # pure on its arguments
def _remembered(args: tuple[str, ...]) -> tuple[Read, tuple[str, ...]]:
    return _python_read(args)


def _python_read(args: tuple[str, ...]) -> tuple[Read, tuple[str, ...]]:
    for end in range(1, len(args) + 1):
        read = read_options(PYTHON, args[:end])
        if read.operands:  # a script: the first operand ends the options
            return read, args[end:]
        last = read.given[-1] if read.given else None
        if last is not None and last.opt.does in _PROGRAM_ROLES and last.value is not None:
            return read, args[end:]
    return read_options(PYTHON, args), ()


def python_args(args: tuple[str, ...]) -> Read:
    """Python's options, and as operands its script or ``-`` and the program's own words
    after it or after ``-c CODE``/``-m MODULE`` (never read as Python's options)."""
    read, rest = python_read(args)
    if not rest:
        return read
    return read._replace(operands=read.operands + rest, words=read.words + rest)


def runs_code(args: tuple[str, ...]) -> bool:
    """Python is given code on its command line (``-c``) before any script or module:
    ``python3 -I -c ..`` (``-I`` takes no value), ``python3 -W x -c ..``."""
    read, _ = python_read(args)
    return any(g.opt.does == "code" for g in read.given)


def quiet_options(args: tuple[str, ...]) -> bool:
    """Every option before Python's ``-c`` code is one that runs no other code
    (``python3 -I -W ignore -c ..``: yes; ``python3 -i -c ..``, ``python3 -m x``: no)."""
    read, _ = python_read(args)
    if read.doubt is not None or read.operands or not read.given:
        return False
    *before, program = read.given
    return program.opt.does == "code" and all(g.opt.does == "quiet" for g in before)


def python_entry(args: tuple[str, ...]) -> Reading:
    """Python's home in the table: never granted (its script, module or ``-c`` code is
    code the guard does not judge here), but its options are read as Python reads them."""
    read, _ = python_read(args)
    if read.doubt is not None:
        return doubtful(f"python: {read.doubt}")
    return doubtful("python runs code the guard does not read (a script, a module or -c)")


_UNPACKERS = frozenset({"zipfile", "tarfile"})
"""Standard-library modules with a command line that unpacks an archive (``-e``)."""


def unpacks_into(args: tuple[str, ...]) -> tuple[str, ...]:
    """The folder ``python3 -m zipfile -e A DIR`` or ``-m tarfile -e A [DIR]`` unpacks
    into, as a whole (what the archive holds is not known); () for any other call."""
    read, rest = python_read(args)
    modules = read.values("module")
    if not modules or modules[-1] not in _UNPACKERS:
        return ()
    for index, word in enumerate(rest):
        if word in ("-e", "--extract"):
            operands = rest[index + 1 : index + 3]
            if len(operands) == 2:
                return (operands[1],)
            return (".",) if modules[-1] == "tarfile" else ()
    return ()


_JSON_TOOL = frozenset({"--sort-keys", "--no-ensure-ascii", "--json-lines", "--tab",
                        "--no-indent", "--compact"})  # fmt: skip
"""``python -m json.tool``'s options that take no value (``--indent N`` takes one)."""


_PYTEST_WRITES = ("--basetemp", "--junitxml", "--junit-xml", "--result-log", "--report-log",
                  "--html", "--cov-report", "--json-report-file", "--override-ini", "--rootdir",
                  "--confcutdir")  # fmt: skip
"""pytest options that name a folder it empties or a file it writes (``--basetemp``
deletes what is there), or point its settings elsewhere (``-o``, ``--override-ini``)."""


def _pytest_writes(rest: tuple[str, ...]) -> tuple[str, ...] | None:
    """``python -m pytest ARGS`` is ``pytest ARGS``: its operands are the tests it reads
    and runs (the project's own code, never granted), none of them written. None when an
    option names something it writes (or may: any short group with ``o``): every operand
    then counts as written."""
    for word in rest:
        if any(word == o or word.startswith(f"{o}=") for o in _PYTEST_WRITES):
            return None
        if word[:1] == "-" and word[1:2] != "-" and "o" in word:
            return None
    return ()


def module_writes(args: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words of the files a standard-library module Python is told to run writes,
    where its command line is known: ``-m json.tool [IN [OUT]]`` reads IN and writes
    only OUT. None: another program, or words the guard does not read (then every
    operand counts as written, as for any program)."""
    read, rest = python_read(args)
    modules = read.values("module")
    if read.doubt is None and not read.operands and modules[-1:] == ("pytest",):
        return _pytest_writes(rest)
    if read.doubt is not None or read.operands or modules[-1:] != ("json.tool",):
        return None
    operands: list[str] = []
    index = 0
    while index < len(rest):
        word = rest[index]
        index += 1
        if word == "--indent" and index < len(rest):
            index += 1
        elif word.startswith("--indent=") or word in _JSON_TOOL:
            continue
        elif word.startswith("-") and word != "-":
            return None
        else:
            operands.append(word)
    if len(operands) > 2:
        return None
    return tuple(o for o in operands[1:] if o != "-")
