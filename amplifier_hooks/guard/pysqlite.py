"""SQL that only reads, as inline Python hands it to SQLite (``c.execute("select ...")``,
`pyreader`): one ``SELECT`` (or ``WITH ... SELECT``), ``EXPLAIN``, or a ``PRAGMA`` that
reports (``integrity_check``, ``table_info(users)``), literal, with no second statement.

Python's sqlite3 loads no extension unless told to (``enable_load_extension``, never
quiet), and SQLite's SELECT writes nothing; ``ATTACH``, ``VACUUM INTO``, a ``PRAGMA`` given
a value (``journal_mode=WAL``, ``journal_mode(WAL)``) and every other statement change a
file, and are not read so.
"""

from __future__ import annotations

import re

__all__ = ["read_only_sql"]

_REPORTS = ("integrity_check", "quick_check", "table_info", "table_xinfo", "index_list",
            "index_info", "index_xinfo", "foreign_key_list", "foreign_key_check",
            "database_list", "table_list", "compile_options", "user_version",
            "schema_version", "page_count", "page_size", "freelist_count", "encoding",
            "function_list", "collation_list", "module_list", "pragma_list")  # fmt: skip
_NAME = r"[A-Za-z_][\w$]*"
_READS = re.compile(
    rf"\s*(?:(?:explain\s+(?:query\s+plan\s+)?)?(?:select|with)\b(?P<body>[^;]*)"
    rf"|pragma\s+(?:{_NAME}\.)?(?:{'|'.join(_REPORTS)})\s*(?:\(\s*['\"]?{_NAME}['\"]?\s*\))?)"
    r"\s*;?\s*",
    re.IGNORECASE,
)
_WRITES = re.compile(r"\b(?:insert|update|delete|replace|create|drop|alter|attach|vacuum"
                     r"|load_extension|writefile|into)\b", re.IGNORECASE)  # fmt: skip
"""Words that, in a WITH or SELECT, write (a CTE feeding an INSERT, ``SELECT ... INTO``)
or load code; a literal naming one in the text keeps it unread too (the safe reading)."""


def read_only_sql(text: str | None) -> bool:
    """``text`` is one literal statement that only reads (module doc)."""
    if text is None:
        return False
    found = _READS.fullmatch(text)
    if found is None:
        return False
    body = found.group("body")
    return body is None or _WRITES.search(body) is None
