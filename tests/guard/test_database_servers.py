"""Database servers' own commands read as their words: Redis's CONFIG, MIGRATE, REPLICAOF
and SHUTDOWN, credentials printed by database CLIs, a database opened to anyone."""

from __future__ import annotations

import pytest

from .conftest import decided, tool_decided


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


@pytest.mark.parametrize(
    ("command", "rule"),
    [("my_print_defaults --show client", "credential-print-mysql-options"),
     ("aws rds generate-db-auth-token --hostname h.rds.amazonaws.com --port 5432 --username a",
      "credential-print-database"),
     ("neonctl connection-string main --project-id p-1", "credential-print-database"),
     ("pscale password create shop main pw1", "credential-print-database-password"),
     ("bin/rails credentials:show", "credential-print-rails-show"),
     ("EDITOR=cat bin/rails credentials:edit", "credential-print-rails")],
)  # fmt: skip
def test_database_credentials_printed_by_their_clis_are_denied(command: str, rule: str) -> None:
    assert decided(command) == ("deny", rule)


@pytest.mark.parametrize(
    ("command", "rule"),
    [("supabase projects delete abcdefghijklmnop", "database-service-delete"),
     ("atlas clusters delete Cluster0 --projectId 5f1a --force", "database-service-delete"),
     ("pscale branch delete shop main --force", "database-service-main-branch-wipe"),
     ("neonctl branches reset main --parent", "database-service-main-branch-wipe"),
     ("gcloud sql backups delete 17013 --instance=i1 --quiet", "database-backups-delete-gcloud"),
     ("aws rds delete-db-snapshot --db-snapshot-identifier s1", "database-backups-delete"),
     ("aws rds modify-db-instance --db-instance-identifier a --backup-retention-period 0",
      "database-backups-retention-zero"),
     ("gcloud sql instances patch i1 --authorized-networks=0.0.0.0/0", "database-service-opened"),
     ("gcloud sql import sql prod-instance gs://b/d.sql --database=app",
      "database-service-import-production")],
)  # fmt: skip
def test_hosted_databases_lost_or_opened_are_denied(command: str, rule: str) -> None:
    assert decided(command) == ("deny", rule)


@pytest.mark.parametrize(
    ("command", "rule"),
    [("pscale branch delete shop add-index --force", "database-service-branch-change"),
     ("pscale deploy-request deploy shop 42", "database-service-branch-change"),
     ("gcloud sql users set-password app --instance=i1 --prompt-for-password",
      "database-service-password-set"),
     ("gcloud sql instances patch i1 --authorized-networks=203.0.113.4/32",
      "database-service-change"),
     ("atlas schema clean -u postgres://localhost:5432/app", "database-tool-wipe-schema")],
)  # fmt: skip
def test_hosted_database_changes_a_person_may_want_are_asked(command: str, rule: str) -> None:
    assert decided(command) == ("ask", rule)


@pytest.mark.parametrize(
    "command",
    ["my_print_defaults client mysql", "pscale password list shop main", "supabase db reset",
     "supabase projects list", "neonctl branches list", "pscale deploy-request list shop",
     "atlas clusters list", "gcloud sql backups list --instance=i1",
     "EDITOR=vim bin/rails credentials:edit", "aws rds describe-db-instances"],
)  # fmt: skip
def test_everyday_database_service_commands_are_not_stopped(command: str) -> None:
    assert decided(command)[0] not in ("ask", "deny")


@pytest.mark.parametrize(
    ("command", "rule"),
    [("bundle exec rake db:reset RAILS_ENV=production", "database-task-wipe-production"),
     ("RAILS_ENV=production bin/rails db:drop", "database-task-wipe-production-env"),
     ("npx sequelize-cli db:migrate:undo:all --env production",
      "database-migration-undo-production"),
     ("diesel database reset --database-url postgres://app@db.prod.internal/app",
      "database-migration-undo-production"),
     ("GOOSE_DBSTRING='host=db.prod.internal dbname=app' goose down-to 0",
      "database-migration-undo-production-env"),
     ("mongorestore --uri \"$MONGO_PROD_URI\" --drop dump/", "database-restore-drop-production"),
     ("sudo pg_dropcluster --stop 15 main", "database-server-wipe"),
     ("etcdctl del '' --prefix", "database-keys-wipe-etcd"),
     ("mysqladmin -h mysql.example.net -u root -f drop shop", "database-admin-drop-elsewhere"),
     ("PGHOST=db.prod.internal dropdb app", "dropdb-elsewhere-env"),
     ("terraform destroy -target=aws_db_instance.main -auto-approve",
      "infrastructure-database-destroy")],
)  # fmt: skip
def test_production_and_server_wipes_by_their_tools_are_denied(command: str, rule: str) -> None:
    assert decided(command) == ("deny", rule)


@pytest.mark.parametrize(
    ("command", "rule"),
    [("RAILS_ENV=production bin/rails runner 'puts User.count'", "database-production-code"),
     ("liquibase rollback-count --count=20", "database-migration-rollback"),
     ("NODE_ENV=production npm run db:reset", "database-script-production"),
     ("mongorestore --drop dump/", "database-restore-drop"),
     ("sqlite3 db.sqlite3 '.restore /tmp/old.sqlite3'", "database-restore-drop")],
)  # fmt: skip
def test_rollbacks_restores_and_production_code_are_asked(command: str, rule: str) -> None:
    assert decided(command) == ("ask", rule)


@pytest.mark.parametrize(
    "command",
    ["dropdb --help",
     "mongorestore dump/", "bin/rails db:migrate", "npx sequelize-cli db:migrate",
     "goose status", "liquibase status", "npm run db:migrate", "terraform plan -destroy"],
)  # fmt: skip
def test_everyday_migrations_and_restores_are_not_stopped(command: str) -> None:
    assert decided(command)[0] not in ("ask", "deny")


def test_compose_config_listing_volumes_is_not_a_prune() -> None:
    assert decided("docker compose config --volumes")[0] not in ("ask", "deny")
    assert decided("docker compose down --volumes") == ("ask", "docker-prune-volumes")


@pytest.mark.parametrize(
    ("tool", "given", "verdict"),
    [("mcp__neon__delete_project", {"projectId": "round-bird-1"},
      ("deny", "database-service-delete")),
     ("mcp__planetscale__delete_database", {"organization": "acme", "database": "shop"},
      ("deny", "database-service-delete")),
     ("mcp__redis__flushall", {}, ("ask", "database-wipe")),
     ("mcp__mongodb__drop-database", {"database": "shop"}, ("ask", "database-wipe")),
     ("mcp__neon__run_sql", {"projectId": "p1", "sql": "DELETE FROM users"},
      ("deny", "database-sql-wipe-elsewhere"))],
)  # fmt: skip
def test_hosted_database_mcp_tools_are_judged_as_their_clis(
    tool: str, given: dict[str, str], verdict: tuple[str, str]
) -> None:
    assert tool_decided(tool, given) == verdict
