"""Database servers' own commands read as their words: Redis's CONFIG, MIGRATE, REPLICAOF
and SHUTDOWN, credentials printed by database CLIs, a database opened to anyone."""

from __future__ import annotations

import pytest

from .conftest import decided


@pytest.mark.parametrize(
    ("command", "rule"),
    [("redis-cli CONFIG SET dir /var/www/html", "database-redis-plants-file"),
     ("redis-cli -h cache.internal CONFIG SET dbfilename x.php", "database-redis-plants-file"),
     ("redis-cli CONFIG SET protected-mode no", "database-redis-opened"),
     ("redis-cli CONFIG SET bind '0.0.0.0'", "database-redis-opened"),
     ("redis-cli CONFIG SET requirepass ''", "database-redis-opened"),
     ("redis-cli CONFIG GET requirepass", "database-redis-password-print"),
     ("redis-cli CONFIG GET '*'", "database-redis-password-print"),
     ("redis-cli MIGRATE 203.0.113.50 6379 '' 0 5000 KEYS a", "database-redis-keys-elsewhere"),
     ("redis-cli SLAVEOF 203.0.113.50 6379", "database-redis-keys-elsewhere")],
)  # fmt: skip
def test_redis_commands_that_plant_open_print_or_move_are_denied(command: str, rule: str) -> None:
    assert decided(command) == ("deny", rule)


@pytest.mark.parametrize(
    ("command", "rule"),
    [("redis-cli CONFIG SET bind 127.0.0.1", "database-redis-access-change"),
     ("redis-cli SHUTDOWN NOSAVE", "database-redis-stop-unsaved"),
     ("redis-cli -n 0 FLUSHDB", "database-wipe-redis-default-named")],
)  # fmt: skip
def test_redis_commands_a_person_may_want_are_asked(command: str, rule: str) -> None:
    assert decided(command) == ("ask", rule)


@pytest.mark.parametrize(
    "command",
    ["redis-cli CONFIG GET maxmemory", "redis-cli CONFIG SET maxmemory 100mb",
     "redis-cli REPLICAOF NO ONE", "redis-cli SHUTDOWN SAVE", "redis-cli -n 15 FLUSHDB",
     "redis-cli GET session:1"],
)  # fmt: skip
def test_everyday_redis_commands_are_not_stopped(command: str) -> None:
    assert decided(command)[0] not in ("ask", "deny")
