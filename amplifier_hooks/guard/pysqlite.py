"""SQL that only reads, as inline Python hands it to SQLite (``c.execute("select ...")``,
`pyreader`): one ``SELECT`` (or ``WITH ... SELECT``), ``EXPLAIN``, or a ``PRAGMA`` that
reports (``integrity_check``, ``table_info(users)``), literal, with no second statement.

Python's sqlite3 loads no extension unless told to (``enable_load_extension``, never
quiet), and SQLite's SELECT writes nothing; ``ATTACH``, ``VACUUM INTO``, a ``PRAGMA`` given
a value (``journal_mode=WAL``, ``journal_mode(WAL)``, ``user_version(x)``) and every other
statement change a file, and are not read so.

The text is read by the guard's one SQL reader (`sqltokens`), as `sqleffects` reads
it: words in order, literals and comments told apart from keywords.
"""

from __future__ import annotations

from amplifier_hooks.guard.sqltokens import Token, tokens

__all__ = ["read_only_sql"]

_REPORTS = frozenset({
    "INTEGRITY_CHECK", "QUICK_CHECK", "TABLE_INFO", "TABLE_XINFO", "INDEX_LIST",
    "INDEX_INFO", "INDEX_XINFO", "FOREIGN_KEY_LIST", "FOREIGN_KEY_CHECK", "DATABASE_LIST",
    "TABLE_LIST", "COMPILE_OPTIONS", "USER_VERSION", "SCHEMA_VERSION", "PAGE_COUNT",
    "PAGE_SIZE", "FREELIST_COUNT", "ENCODING", "FUNCTION_LIST", "COLLATION_LIST",
    "MODULE_LIST", "PRAGMA_LIST",
})  # fmt: skip
"""Pragmas that report when given no value."""
_TAKES_NAME = frozenset({
    "INTEGRITY_CHECK", "QUICK_CHECK", "TABLE_INFO", "TABLE_XINFO", "INDEX_LIST",
    "INDEX_INFO", "INDEX_XINFO", "FOREIGN_KEY_LIST", "FOREIGN_KEY_CHECK", "TABLE_LIST",
})  # fmt: skip
"""Of those, the ones whose argument (``table_info(users)``) names what to report on; the
others' argument is a value they are set to (``user_version(7)``)."""
_WRITES = frozenset({"INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER",
                     "ATTACH", "VACUUM", "LOAD_EXTENSION", "WRITEFILE", "INTO"})  # fmt: skip
"""Words that, in a WITH or SELECT, write (a CTE feeding an INSERT, ``SELECT ... INTO``)
or load code; a literal or quoted name spelling one keeps the text unread too (the safe
reading)."""
_END = Token("mark", ";")


def read_only_sql(text: str | None) -> bool:
    """``text`` is one literal statement that only reads (module doc)."""
    if text is None:
        return False
    found = tokens(text)
    if found and found[-1] == _END:
        found = found[:-1]
    if not found or _END in found:
        return False  # nothing, or a second statement
    if found[0] == ("word", "PRAGMA"):
        return _reports(found[1:])
    start = 0
    if found[0] == ("word", "EXPLAIN"):
        start = 3 if found[1:3] == [("word", "QUERY"), ("word", "PLAN")] else 1
    if found[start : start + 1] not in ([("word", "SELECT")], [("word", "WITH")]):
        return False
    return not any(_writes(token) for token in found[start + 1 :])


def _writes(token: Token) -> bool:
    """``token`` is a word that writes, or a literal or quoted name whose text spells one."""
    if token.kind == "word":
        return token.text in _WRITES
    if token.kind in ("literal", "ident"):  # (each level's text is shorter: it ends)
        return any(_writes(inner) for inner in tokens(token.text))
    return False


def _reports(found: list[Token]) -> bool:
    """``[schema.]name`` of a pragma that reports, with no value; those that report on a
    table or index may name it (``table_info(users)``, ``table_info("users")``)."""
    if found[1:2] == [("mark", ".")]:
        found = found[2:]  # `main.table_info(..)`
    if not found or found[0].kind != "word" or found[0].text not in _REPORTS:
        return False
    argument = found[1:]
    if not argument:
        return True
    return (
        found[0].text in _TAKES_NAME
        and len(argument) == 3
        and argument[0] == ("mark", "(")
        and argument[2] == ("mark", ")")
        and _names(argument[1])
    )


def _names(token: Token) -> bool:
    """A table's or index's name: a word that is no number, or a quoted name or literal."""
    if token.kind == "word":
        return not token.text[:1].isdigit()
    return token.kind in ("literal", "ident") and token.text != ""
