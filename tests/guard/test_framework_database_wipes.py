"""The other frameworks' database wipes (packs/default.yaml: database-migration-wipe-framework,
-doctrine, database-tool-wipe-production, -production-url, database-tool-wipe-cli-production):
asked where nothing says production, denied where the environment or URL does."""

from __future__ import annotations

import pytest

from tests.guard.conftest import decided


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("php artisan migrate:fresh", ("ask", "database-migration-wipe-framework")),
        ("php artisan migrate:fresh --seed", ("ask", "database-migration-wipe-framework")),
        ("php artisan db:wipe", ("ask", "database-migration-wipe-framework")),
        ("php bin/console doctrine:schema:drop --force --full-database",
         ("ask", "database-migration-wipe-doctrine")),
        ("MIX_ENV=prod mix ecto.drop --force", ("deny", "database-tool-wipe-production")),
        ("MIX_ENV=prod mix ecto.reset", ("deny", "database-tool-wipe-production")),
        ("mvn liquibase:dropAll -Dliquibase.url=jdbc:postgresql://db.prod.internal:5432/app",
         ("deny", "database-tool-wipe-production-url")),
        ("ASPNETCORE_ENVIRONMENT=Production dotnet ef database drop -f",
         ("deny", "database-tool-wipe-cli-production")),
        ("mix ecto.reset", ("ask", "database-tool-wipe")),
        ("dotnet ef database drop -f", ("ask", "database-tool-wipe-cli")),
        ("RAILS_ENV=production bin/rails runner 'User.delete_all; Order.delete_all'",
         ("deny", "database-production-code-wipe")),
        ("APP_ENV=production php artisan tinker --execute='DB::table(\"jobs\")->truncate()'",
         ("deny", "database-production-code-wipe")),
        ("RAILS_ENV=production bin/rails runner 'puts User.count'",
         ("ask", "database-production-code")),
    ],
)  # fmt: skip
def test_wipes(command: str, expected: tuple[str, str]) -> None:
    assert decided(command) == expected


@pytest.mark.parametrize(
    "command",
    [
        "php artisan migrate",
        "php artisan migrate:status",
        "php bin/console doctrine:schema:drop --dump-sql",
        "MIX_ENV=prod mix release",
        "MIX_ENV=prod mix compile",
        "SPRING_PROFILES_ACTIVE=production mvn clean package",
        "ASPNETCORE_ENVIRONMENT=Production dotnet ef migrations list",
        "mix ecto.migrate",
    ],
)
def test_everyday_database_work_is_not_a_wipe(command: str) -> None:
    _, rule = decided(command)
    assert rule is None or "wipe" not in rule, rule
