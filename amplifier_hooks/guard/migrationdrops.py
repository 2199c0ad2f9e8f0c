"""An edit of a migration that drops a column or a table, or deletes its rows.

``remove_column :users, :legacy_email``, ``migrationBuilder.DropColumn("Ssn", "Patients")``,
``op.drop_table("invoices")``, ``migrations.RemoveField(...)``, ``migrationBuilder.Sql(
"DELETE FROM AuditLogs")``: a migration runs once on every database the project deploys to,
production's among them, and what it drops is gone there, with no undo but a backup. Writing
migrations is everyday work, so what counts is a drop or a delete in what the migration does
going forward: a ``down``/``Down``/``downgrade`` step undoes a table the same migration
creates and is not read. Such an edit is marked `MIGRATION_DROPS` (asked)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import commented
from amplifier_hooks.guard.ignorefiles import change_pairs
from amplifier_hooks.guard.testpaths import test_code

__all__ = ["MIGRATION_DROPS", "drops_in_migration", "migration"]

MIGRATION_DROPS = "@migration-drops-data"
_MIGRATION = re.compile(
    r"(?:^|/)(?:db/migrate|migrations?|alembic/versions)/(?:[^/]+/)?[^/]+$", re.I
)


def migration(path: str) -> bool:
    """Whether ``path`` is in a migrations folder (Rails' ``db/migrate/``, Django's and EF
    Core's ``migrations/``, Alembic's ``versions/``): code that runs once on every database
    the project deploys to."""
    return _MIGRATION.search(path) is not None


_DROP = re.compile(
    r"\b(?:remove_column|remove_columns|drop_table|drop_join_table|remove_reference"
    r"|remove_belongs_to|remove_timestamps)\b"
    r"|\bmigrationBuilder\.(?:DropColumn|DropTable)\b"
    r"|\bop\.(?:drop_column|drop_table)\b|\bbatch_op\.drop_column\b"
    r"|\bmigrations\.(?:RemoveField|DeleteModel)\b"
    r"|\$table->drop(?:Column|Columns)?\b|\bSchema::drop(?:IfExists)?\b"
    r"|\.(?:dropColumn|dropColumns|dropTable|dropTableIfExists)\s*\("
    r"|\bDROP\s+(?:TABLE|COLUMN)\b|(?:^|[;\"'`(])\s*TRUNCATE\s+(?!ON\b)"
    r"|\bDELETE\s+FROM\s+[\w.\"`\[\]]+\s*;?\s*(?:[\"'`)]|$)",
    re.I,
)
"""A column or a table dropped, or a table's rows deleted (no ``WHERE``), in the words of
Rails, EF Core, Alembic, Django, Laravel, Knex and plain SQL."""
_DOWN = re.compile(
    r"^\s*(?:def\s+(?:down|downgrade)\b|(?:(?:protected|public|private|static|override)\s+)*"
    r"(?:(?:void|async|function|Task)\s+)*[Dd]own\s*[(=:]|exports\.down\s*="
    r"|--\s*\+?(?:goose|migrate)\s+[Dd]own\b|--\s*migrate:down\b)",
    re.M,
)
_UP = re.compile(
    r"^\s*(?:def\s+(?:up|upgrade|change)\b|(?:(?:protected|public|private|static|override)\s+)*"
    r"(?:(?:void|async|function|Task)\s+)*[Uu]p\s*[(=:]|exports\.up\s*="
    r"|--\s*\+?(?:goose|migrate)\s+[Uu]p\b|--\s*migrate:up\b)",
    re.M,
)
_SCRATCH = re.compile(r"staging|stg_|_stg\b|\btmp|_tmp\b|\btemp|_temp\b|scratch", re.I)
"""A table kept only to load or stage rows: emptying it is its use."""
_DOWN_FILE = re.compile(r"[._-]down\.sql$", re.I)
"""A migration's own down file (golang-migrate's ``000042_x.down.sql``): it undoes its up."""
_MAX_TEXT = 64 * 1024


def drops_in_migration(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit of a migration adds a drop or a delete to what it does going
    forward (module doc)."""
    if not any(migration(p) and not test_code(p) and not _DOWN_FILE.search(p) for p in paths):
        return False
    return any(
        _drops(_forward(new)) > _drops(_forward(old))
        for old, new in change_pairs(inputs)
        if len(old) + len(new) <= _MAX_TEXT
    )


def _drops(text: str) -> int:
    return sum(
        1
        for line in text.splitlines()
        if not commented(line)
        for found in _DROP.finditer(line)
        if not _SCRATCH.search(line[found.end() : found.end() + 60])
    )


def _forward(text: str) -> str:
    """``text`` without its ``down`` steps: each runs from its marker to the next ``up``."""
    kept: list[str] = []
    down = False
    for line in text.splitlines():
        if _DOWN.match(line):
            down = True
        elif _UP.match(line):
            down = False
        if not down:
            kept.append(line)
    return "\n".join(kept)
