"""An edit that makes the application's own code wipe a table each time it runs.

``self.conn.execute("DELETE FROM listings")`` put at a pipeline's start "to start fresh",
a ``TRUNCATE`` or a ``DROP TABLE`` in a job: the next run empties the table in whichever
database its settings name, production's among them, with no one asked. An edit that
adds to code (not a migration, a seed or a test, whose wiping is their purpose and runs
where they are pointed) a literal ``DELETE FROM`` with no ``WHERE``, a ``TRUNCATE`` or a
``DROP TABLE``/``DATABASE``/``SCHEMA`` is marked `DATA_WIPED_BY_CODE` (asked).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs
from amplifier_hooks.guard.migrationdrops import migration
from amplifier_hooks.guard.testpaths import test_code

__all__ = ["DATA_WIPED_BY_CODE", "wipes_data"]

DATA_WIPED_BY_CODE = "@data-wiped-by-code"
_WIPE = re.compile(
    r"[\"'`]\s*(?:DELETE\s+FROM\s+[\w.\"`]+\s*;?\s*[\"'`]|TRUNCATE\b|DROP\s+(?:TABLE|DATABASE|SCHEMA)\b)"
    r"|\b(?:dropSchema|drop_schema|drop_all_tables)\s*[:=]\s*(?!false\b)[\w(!]"
    r"|\bDatabase\.EnsureDeleted(?:Async)?\s*\("
    r"|\bddl-auto\s*[:=]\s*[\"']?create(?:-drop)?\b|\bhbm2ddl\.auto\s*[:=]\s*[\"']?create\b",
    re.I,
)
"""A whole table's rows deleted, a table truncated or dropped, in a string of code; an
ORM told to drop the schema at each connection (TypeORM's ``dropSchema: true``, or on a
condition: ``dropSchema: process.env.RESET_DB === '1'``); EF Core's
``Database.EnsureDeleted()``, which drops the whole database its connection string names."""
_SYNCED = re.compile(r"\bsynchronize\s*:\s*(?P<value>[^,\n}]+)")
"""TypeORM's ``synchronize``: when true, each start alters the live schema to the entities
(a column renamed in code is dropped with its data)."""
_PURPOSE = re.compile(r"migrat|seed|fixture|/sql/|\.sql$|schema", re.I)
"""Besides a migration: code whose purpose is to reset data (a seed, a fixture, an SQL
script, a schema, a one-off ``migrate_*`` script)."""
_DEV_PROFILE = re.compile(r"application-(?:dev|development|local|test|h2)\.", re.I)
"""A Spring profile's settings for a developer's or a test's run (an in-memory database
Hibernate creates at each start)."""
_MAX_TEXT = 64 * 1024


def wipes_data(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit adds a table's wipe to the application's code (module doc)."""
    if not paths or any(
        test_code(p) or migration(p) or _PURPOSE.search(p) or _DEV_PROFILE.search(p) for p in paths
    ):
        return False
    return any(
        more(_WIPE, old, new) or _sync_forced(old, new)
        for old, new in change_pairs(inputs)
        if old and len(old) + len(new) <= _MAX_TEXT
    )


def _sync_forced(old: str, new: str) -> bool:
    """``synchronize`` made ``true`` where it was false or held to a condition (``NODE_ENV
    !== 'production'``): the production schema follows the code from the next start."""
    before = [m["value"].strip() for m in _SYNCED.finditer(old)]
    after = [m["value"].strip() for m in _SYNCED.finditer(new)]
    return any(v != "true" for v in before) and "true" in after
