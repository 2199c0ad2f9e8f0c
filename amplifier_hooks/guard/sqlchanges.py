"""Whether SQL statements only look, or change the server they run on.

On another machine's server (`sqlservers.Reached.elsewhere`) a statement that does more
than look changes what others use: rows and tables, but also the server itself (``KILL``
of a session, ``STOP REPLICA``, ``ALTER SYSTEM``, ``VACUUM FULL`` locking a table) and
what a ``SELECT`` calls (``pg_terminate_backend``, ``pg_drop_replication_slot``,
``pg_promote``). So a statement looks only when its first word is one that reads
(``SELECT``, ``SHOW``, ``EXPLAIN``, psql's ``\\d``) and it calls no server action; any
other word, one the reader does not know included, changes.

A setting whose ``off`` takes the server's durability or transport security away
(``ALTER SYSTEM SET fsync = off``, ``SET GLOBAL require_secure_transport = OFF``) is read
apart: on another machine's server its users' data is the price.
"""

from __future__ import annotations

from amplifier_hooks.guard.sqltokens import Token, statements

__all__ = ["changes", "safety_off", "statements_change", "statements_safety_off"]

_LOOKS = frozenset({"SELECT", "SHOW", "EXPLAIN", "DESCRIBE", "DESC", "TABLE", "VALUES",
                    "WITH", "USE", "BEGIN", "COMMIT", "ROLLBACK", "START", "END", "FETCH",
                    "HELP", "STATUS", "LIST", "PREPARE", "EXECUTE", "DEALLOCATE",
                    "CHECKSUM", "ANALYZE"})  # fmt: skip
"""First words of statements that read (a transaction's bounds and a prepared query's
too: what runs inside them is read as its own statement; ``ANALYZE`` refreshes the
planner's statistics only)."""
_WRITES = frozenset({"INSERT", "UPDATE", "DELETE", "MERGE", "INTO", "UPSERT", "REPLACE",
                     "CALL", "DO"})  # fmt: skip
"""Words that make a reading statement write (``WITH d AS (DELETE ..)``, ``SELECT .. INTO
t``, ``EXPLAIN ANALYZE DELETE``)."""
_ACTIONS = frozenset({"PG_TERMINATE_BACKEND", "PG_CANCEL_BACKEND", "PG_RELOAD_CONF",
                      "PG_PROMOTE", "PG_DROP_REPLICATION_SLOT", "PG_SWITCH_WAL",
                      "PG_CREATE_PHYSICAL_REPLICATION_SLOT",
                      "PG_CREATE_LOGICAL_REPLICATION_SLOT", "PG_REPLICATION_SLOT_ADVANCE",
                      "PG_LOGICAL_SLOT_GET_CHANGES", "PG_WAL_REPLAY_PAUSE",
                      "PG_WAL_REPLAY_RESUME", "PG_BACKUP_START", "PG_BACKUP_STOP",
                      "PG_START_BACKUP", "PG_STOP_BACKUP", "PG_ROTATE_LOGFILE",
                      "PG_REPLICATION_ORIGIN_DROP", "LO_UNLINK", "LO_IMPORT", "LO_EXPORT",
                      "DBLINK_EXEC", "SETVAL", "PG_FILE_WRITE", "PG_FILE_UNLINK",
                      "PG_FILE_RENAME"})  # fmt: skip
"""Functions a ``SELECT`` calls that act on the server: its sessions, replication, files."""
_META_CHANGES = frozenset({"!", "O", "OUT", "W", "I", "INCLUDE", "IR", "GEXEC"})
"""psql's backslash commands that do more than describe (``\\copy .. from``, ``\\!``)."""
_SAFETY = frozenset({"FSYNC", "FULL_PAGE_WRITES", "SSL", "REQUIRE_SECURE_TRANSPORT",
                     "PGAUDIT", "INNODB_DOUBLEWRITE"})  # fmt: skip
_OFF = frozenset({"OFF", "0", "FALSE", "NONE"})


def changes(sql: str) -> bool:
    """Whether any statement of ``sql`` does more than look."""
    return statements_change(statements(sql))


def statements_change(read: list[list[Token]]) -> bool:
    """`changes` of statements already read (`sqltokens.statements`)."""
    return any(_changes(statement) for statement in read)


def _changes(statement: list[Token]) -> bool:
    first = statement[0]
    words = [t.text for t in statement if t.kind == "word"]
    if first == ("mark", "\\"):  # psql's own commands
        meta = statement[1].text.upper() if len(statement) > 1 else ""
        return meta in _META_CHANGES or (meta == "COPY" and _direction(statement) != "TO")
    if first.kind != "word":
        return True
    if first.text == "SET":  # the session's own settings; GLOBAL/PERSIST are the server's
        return bool({"GLOBAL", "PERSIST", "PERSIST_ONLY"} & set(words[1:2]))
    if first.text not in _LOOKS:
        return True
    return not _WRITES.isdisjoint(words) or not _ACTIONS.isdisjoint(words)


def _direction(statement: list[Token]) -> str:
    """``\\copy``'s direction: its first ``TO`` or ``FROM`` outside the query's brackets."""
    depth = 0
    for token in statement[2:]:
        if token.kind == "mark" and token.text in "()":
            depth += 1 if token.text == "(" else -1
        elif depth == 0 and token.kind == "word" and token.text in ("TO", "FROM"):
            return token.text
    return ""


def safety_off(sql: str) -> bool:
    """Whether ``sql`` switches a durability or transport-security setting off."""
    return statements_safety_off(statements(sql))


def statements_safety_off(read: list[list[Token]]) -> bool:
    """`safety_off` of statements already read (`sqltokens.statements`)."""
    for statement in read:
        words = [t.text for t in statement if t.kind == "word" or t.kind == "literal"]
        upper = [w.upper() for w in words]
        setting = upper[:3] == ["ALTER", "SYSTEM", "SET"] or (
            upper[:1] == ["SET"] and upper[1:2] in (["GLOBAL"], ["PERSIST"])
        )
        if setting and not _SAFETY.isdisjoint(upper[2:4]) and not _OFF.isdisjoint(upper[3:]):
            return True
    return False
