"""The files PostgreSQL's restore reads and writes here, read from its options.

``pg_restore ARCHIVE`` reads its archive and writes into a database (a server's, not a
file here); it writes a file only with ``-f F`` (``--file=F``), and reads one with ``-L F``
(its list) and ``--filter=F``. A program the guard does not read has every word taken as a
file it may write, so ``pg_restore -d app_dev ~/backups/app.dump`` was a write outside the
workspace. (``pg_dump`` keeps that reading: its operand names a database, and one named at
run time, ``pg_dump "$DATABASE_URL" | aws s3 cp - s3://..``, is a copy of unknown data
that the unknown place asks for; the letters here are read for it too, for its next
reader.)

Short options are read as getopt reads them (``-Fc``, ``-Ofout.sql``, ``-f out.sql``); an
option not listed here keeps the old reading (None: every word a file that may be
written). What the restore does to the database is the pack's rules' (``--clean`` on a
production host), as before.
"""

from __future__ import annotations

from amplifier_hooks.guard.sqlfiles import SqlFiles

__all__ = ["PG_ARCHIVERS", "pg_files"]

PG_ARCHIVERS = frozenset({"pg_restore"})

_FLAGS = {"pg_restore": frozenset("acCeOsvVxwW1l?")}
"""Short options that take no value and touch no file."""
_VALUED = {"pg_restore": frozenset("dFIjnNPStTpUh")}
"""Short options whose value is a name, a number or a format: no file."""
_FILES = {"pg_restore": {"f": "write", "L": "read"}}
_LONG_FLAGS = frozenset({
    "data-only", "clean", "create", "exit-on-error", "list", "no-owner", "schema-only",
    "verbose", "version", "no-privileges", "no-acl", "single-transaction", "no-password",
    "password", "disable-triggers", "enable-row-security", "if-exists", "no-comments",
    "no-data-for-failed-tables", "no-publications", "no-security-labels",
    "no-subscriptions", "no-table-access-method", "no-tablespaces", "strict-names",
    "use-set-session-authorization", "help",
})  # fmt: skip
_LONG_VALUED = frozenset({
    "dbname", "format", "index", "jobs", "schema", "exclude-schema", "function",
    "superuser", "table", "trigger", "host", "port", "username", "role", "section",
})  # fmt: skip
_LONG_FILES = {"file": "write", "use-list": "read", "filter": "read"}


def pg_files(program: str | None, args: tuple[str, ...]) -> SqlFiles | None:
    """What ``program`` (one of `PG_ARCHIVERS`) reads and writes here (None: an option
    it is given is not read here)."""
    if program not in _FLAGS:
        return None
    flags, valued, files = _FLAGS[program], _VALUED[program], _FILES[program]
    found: dict[str, list[str]] = {"read": [], "write": []}
    operands: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            operands.extend(args[index:])
            break
        if arg.startswith("--"):
            name, equals, value = arg[2:].partition("=")
            if name in _LONG_FLAGS and not equals:
                continue
            if name not in _LONG_VALUED and name not in _LONG_FILES:
                return None
            if not equals:
                if index >= len(args):
                    return None
                value, index = args[index], index + 1
            if name in _LONG_FILES:
                found[_LONG_FILES[name]].append(value)
            continue
        if not arg.startswith("-") or arg == "-":
            operands.append(arg)
            continue
        taken = _cluster(
            arg[1:], args[index] if index < len(args) else None, (flags, valued, files)
        )
        if taken is None:
            return None
        role, named, used_next = taken
        index += used_next
        if role is not None and named is not None:
            found[role].append(named)
    found["read"].extend(operands)  # the archive (a folder for `-F d`)
    return SqlFiles(tuple(found["read"]), tuple(found["write"]))


_Letters = tuple[frozenset[str], frozenset[str], dict[str, str]]


def _cluster(letters: str, following: str | None,
             known: _Letters) -> tuple[str | None, str | None, int] | None:  # fmt: skip
    """A cluster of short options (``Fc``, ``Of``, ``f``; ``known``: the program's flags,
    valued options and file options): the role of the file it names (read, write or
    none), the file, and whether it took the next word (None: a letter not read here, or
    a value missing)."""
    flags, valued, files = known
    for at, letter in enumerate(letters):
        if letter in flags:
            continue
        if letter not in valued and letter not in files:
            return None
        glued = letters[at + 1 :]
        if not glued and following is None:
            return None
        value = glued or following
        return (files.get(letter), value, 0 if glued else 1)
    return (None, None, 0)
