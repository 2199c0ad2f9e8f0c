"""Programs whose words `facts.Facts` reads plainly: its paths are its operands as given,
it writes each of them, it runs no script and takes no code on its command line.

Most programs a command names are such (a test runner, a build tool, ``mkdir``); each of
the others has a reading of its own in `facts` (one that only reads, a copier, a
downloader, a search, a container, a cloud service, an interpreter, ...). Told once per
program name (`plain`), so the piece of a plain program meets one lookup, not a dozen
tests and calls (`benchmarks.bench_guard`'s fresh row: ``pytest -q tests/test_N.py``).
"""

from __future__ import annotations

from functools import lru_cache

from amplifier_hooks.guard.backuprepos import BACKUP_TOOLS
from amplifier_hooks.guard.checkers import CHECKERS
from amplifier_hooks.guard.containers import CONTAINER_PROGRAMS
from amplifier_hooks.guard.devicewords import DEVICE_NAMERS, is_emulator
from amplifier_hooks.guard.elsewhere import ELSEWHERE
from amplifier_hooks.guard.inline import code_flags
from amplifier_hooks.guard.lookwords import LOOKING_TOOLS
from amplifier_hooks.guard.pgfiles import PG_ARCHIVERS
from amplifier_hooks.guard.programs import READ_ONLY
from amplifier_hooks.guard.scripts import may_run_files
from amplifier_hooks.guard.sqlfiles import SQL_CLIENTS
from amplifier_hooks.guard.table import PATTERN_FIRST, PROGRAMS, SPELLED
from amplifier_hooks.guard.table.brokers import BROKERS
from amplifier_hooks.guard.table.certs import AGE_KEYGENS
from amplifier_hooks.guard.table.datafiles import DATA_VIEWERS
from amplifier_hooks.guard.table.fetch import FETCHING
from amplifier_hooks.guard.table.splitting import SPLITTERS
from amplifier_hooks.guard.table.system import LOOKERS

__all__ = ["COPIERS", "NOT_PATHS", "OPTION_FILES", "SOURCES", "TARS", "UNPACKERS", "plain"]

NOT_PATHS = frozenset(
    {"echo", "printf", "true", "false", ":", "trap", "export", "unset", "local", "declare",
     "readonly", "typeset", "sleep", "exit", "return", "set", "shift", "alias", "[[", "read",
     "wait", "kill", "pkill", "date", "seq", "yes", "expr", "let", "envsubst", "ps", "(("}
)  # fmt: skip
"""Programs whose words name no path."""
OPTION_FILES = frozenset({"date"})
"""Of `NOT_PATHS`, those an option of which names a file read (``date -f FILE``, glued
``-fFILE`` too): their path words are read even with no operand (`pathwords`)."""
SOURCES = frozenset({"source", "."})
TARS = frozenset({"tar", "gtar", "bsdtar"})
UNPACKERS = frozenset({*TARS, "unzip", "7z", "7za", "7zz", "7zr"})
"""Archivers `facts` reads apart: they write only the folder they unpack into."""
COPIERS = frozenset({"cp", "mv", "ln", "install", "ditto"})
"""Programs whose operands are not all written: `places.changed` names the ones that are."""

_READ_APART = frozenset(
    {*NOT_PATHS, *SOURCES, *TARS, *COPIERS, *CONTAINER_PROGRAMS, *ELSEWHERE, *PATTERN_FIRST,
     *FETCHING, *READ_ONLY, *LOOKERS, *SPELLED, *SQL_CLIENTS, *UNPACKERS, *CHECKERS, "dd",
     "sed", "ssh", "ssh-keygen", "mkcert", "openssl", "amplifier-hooks", "exiftool", "qpdf",
     "adb", *SPLITTERS, "chezmoi", "tmux", "rclone", *LOOKING_TOOLS,
     *DEVICE_NAMERS, *BACKUP_TOOLS, *PG_ARCHIVERS, *AGE_KEYGENS, *DATA_VIEWERS, *BROKERS,
     *(p for p in PROGRAMS if p != "mkdir")}
)  # fmt: skip
"""The programs `facts.Facts` reads apart by name (`pathwords`: their path and written
words; its ``ssh`` remote, its ``amplifier-hooks`` and ``ssh-keygen`` modes that only
read, the files ``mkcert`` makes, the files ``openssl x509``/``req`` read and write,
the files ``split``/``csplit`` name by a prefix, the identity ``age-keygen -y`` reads,
the files ``h5dump``/``xmllint`` read and write (not the paths inside them),
the ones ``pg_dump``/``pg_restore`` read and write, ``exiftool``'s printing mode,
``qpdf``'s output, what ``chezmoi`` and ``rclone`` write, the commands of ``tmux`` and `lookwords`'
tools that write nothing, the files here of ``adb pull``/``push`` (not the device's);
``envsubst``'s words are variables; the files a cache's or a broker's client names:
`table.brokers`; what the table reads in full writes only what it says, `zcat F` none:
`mkdir` writes every operand, as a plain program)."""


@lru_cache(maxsize=1024)
def plain(program: str) -> bool:
    """Whether ``program``'s words are read plainly (see the module)."""
    if program in _READ_APART or is_emulator(program):  # (qemu-system-*: its -append)
        return False
    return not may_run_files(program) and code_flags(program) is None
