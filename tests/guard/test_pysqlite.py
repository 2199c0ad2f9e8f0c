"""SQL that inline Python gives sqlite3's ``execute``, read by the guard's SQL tokenizer
(`pysqlite.read_only_sql`): one statement that only reads, or not."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.pysqlite import read_only_sql

READS = [
    "select * from users",
    "  SELECT name FROM t WHERE id = 1;  ",
    "with x as (select 1) select * from x",
    "explain select 1",
    "explain query plan select * from t",
    "pragma integrity_check",
    "PRAGMA main.table_info(users)",
    "pragma table_info('users');",
    'pragma index_list("users")',
    "pragma user_version",
    "select insert_date from t",  # a column whose name starts with a keyword
    "select 'a;b' from t",  # a `;` inside a literal ends no statement
    "select 1 -- a comment; not a statement\n",
]

UNREAD = [
    None,
    "",
    ";",
    "insert into t values (1)",
    "select 1; drop table t",
    "select 1;;",
    "with x as (select 1) insert into t select * from x",
    "select * into backup from t",
    "select load_extension('evil.so')",
    "select writefile('/tmp/x', 'y')",
    "select 'drop table t'",  # the safe reading: a literal that spells a write
    'select "into" from t',
    "select 'it''s insert'",  # (inside a literal's own quotes, too)
    "explain insert into t values (1)",
    "attach database 'x.db' as x",
    "vacuum into 'copy.db'",
    "pragma journal_mode=WAL",
    "pragma journal_mode(WAL)",
    "pragma user_version(7)",  # the argument of a value pragma sets it
    "pragma user_version(x)",
    "pragma user_version = 3",
    "pragma table_info(1)",
    "pragma writable_schema",
    "pragma main.",
    "selectx from t",
]


@pytest.mark.parametrize("sql", READS)
def test_sql_that_only_reads_is_read_so(sql: str) -> None:
    assert read_only_sql(sql)


@pytest.mark.parametrize("sql", UNREAD)
def test_sql_that_writes_or_is_not_one_statement_is_not(sql: str | None) -> None:
    assert not read_only_sql(sql)
