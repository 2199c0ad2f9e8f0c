"""A data engineer's tools: the warehouse and broker logins kept in the home folder are
credentials (read by any route: a shell, a link, inline code, a file tool), while the
project's own dbt profile, an example copy and the tools' everyday commands stay free."""

from __future__ import annotations

import pytest

from tests.guard.conftest import decided, tool_decided


@pytest.mark.parametrize(
    "command",
    [
        "cat ~/.dbt/profiles.yml",
        "head -n 30 /home/dev/.snowsql/config",
        "less ~/.snowflake/connections.toml",
        "cat ~/.config/kcat.conf",
        "cat ~/.config/kafkacat.conf",
        "cat ~/.trino_config",
        "cat ~/.confluent/config.json",
        "cat ~/.clickhouse-client/config.xml",
        "cat ~/.databricks/token-cache.json",
        "cp ~/.dbt/profiles.yml notes/profiles-copy.yml",
        "bash -c 'cat ~/.snowsql/config'",
        "c''at ~/.dbt/profiles.yml",
        "ln -s ~/.snowflake/connections.toml conn.txt && cat conn.txt",
        "python3 -c \"print(open('/home/dev/.snowsql/config').read())\"",
    ],
)
def test_warehouse_logins_are_credentials(command: str) -> None:
    assert decided(command) == ("deny", "credential-read")


@pytest.mark.parametrize("path", ["~/.snowsql/config", "/home/dev/.dbt/profiles.yml"])
def test_warehouse_logins_read_by_a_file_tool_are_denied(path: str) -> None:
    assert tool_decided("read_file", {"file_path": path}) == ("deny", "credential-read")


@pytest.mark.parametrize(
    "command",
    [
        "cat profiles.yml",  # the project's own, which reads its secrets from env_var()
        "cat ~/.dbt/profiles.yml.example",
        "ls ~/.dbt",
        "dbt debug",
    ],
)
def test_the_projects_profile_and_everyday_dbt_stay_free(command: str) -> None:
    assert decided(command)[0] in (None, "allow")


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("airflow connections get warehouse_prod -o yaml", "credential-print-airflow"),
        ("airflow connections list --output json", "credential-print-airflow"),
        # a pipe keeps the password as well as anything else it is given
        ("airflow connections list -o json | jq '.[0]'", "credential-print-airflow"),
        ("airflow connections export /dev/stdout", "credential-print-airflow-export"),
        ("airflow connections export - --file-format env", "credential-print-airflow-export"),
        # into a workspace file a commit or an upload takes along, like `kubectl get secret
        # -o yaml > s.yaml`
        ("airflow connections export exports/connections.json", "credential-print-airflow-export"),
        ("airflow config get-value database sql_alchemy_conn", "credential-print-airflow-config"),
        ("airflow config get-value core fernet_key", "credential-print-airflow-config"),
        ("databricks secrets get-secret etl-scope warehouse-token",
         "credential-print-databricks-secret"),
        ("databricks secrets get-secret etl k | base64 --decode",
         "credential-print-databricks-secret"),
    ],
)  # fmt: skip
def test_orchestrator_and_platform_secrets_printed_are_denied(command: str, rule: str) -> None:
    assert decided(command) == ("deny", rule)


@pytest.mark.parametrize(
    "command",
    [
        "airflow dags list",
        "airflow variables list",
        "airflow config get-value core dags_folder",
        "airflow connections list --help",
        "databricks secrets list-secrets etl-scope",
        "databricks secrets list-scopes",
    ],
)
def test_names_of_connections_and_secrets_stay_free(command: str) -> None:
    assert decided(command)[0] in (None, "allow")


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [
        # a production connection, server or name: denied, as psql's are
        ('snowsql -c prod -q "DROP SCHEMA ANALYTICS.MARTS"', "deny", "database-wipe-production"),
        ("snowsql --connection prod --query 'TRUNCATE TABLE RAW.EVENTS'", "deny",
         "database-wipe-production"),
        ("trino --server https://trino.prod.corp.example --execute 'DROP TABLE hive.web.clicks'",
         "deny", "database-wipe-production"),
        ("spark-sql -e 'TRUNCATE TABLE prod.sessions'", "deny", "database-sql-wipe-elsewhere"),
        ("bq query --nouse_legacy_sql 'DELETE FROM `acme-prod.core.orders` WHERE 1=1'", "deny",
         "database-sql-wipe-elsewhere"),
        ("psql -c 'DROP TABLE prod.events'", "deny", "database-sql-wipe-elsewhere"),
        # a dev connection, a local metastore: asked
        ("snowsql -c dev -q 'DROP TABLE DEV_DB.SCRATCH.T1'", "ask", "database-wipe"),
        ("spark-sql -e 'DROP TABLE scratch.tmp_events'", "ask", "database-wipe"),
        ("bq query 'TRUNCATE TABLE `acme-dev.scratch.t`'", "ask", "database-wipe"),
        ("beeline -u jdbc:hive2://localhost:10000 -e 'DROP DATABASE tmp CASCADE'", "ask",
         "database-wipe"),
        # rows changed on production, a WHERE given: asked
        ("snowsql -c prod -q \"UPDATE CORE.USERS SET tier = 'gold' WHERE id = 7\"", "ask",
         "database-change-production"),
        # statements the call does not show, run on production
        ("snowsql -c prod -f migrations/0042.sql", "ask", "database-sql-unread-production"),
        # who may reach the data: a warehouse's admin role is the whole account's
        ("snowsql -c dev -q 'GRANT ROLE SECURITYADMIN TO USER ETL'", "deny",
         "database-sql-privilege-elsewhere"),
        ("snowsql -c prod -q 'GRANT USAGE ON WAREHOUSE WH TO ROLE ANALYST'", "ask",
         "database-sql-access-change"),
        # a custom role given to SYSADMIN (Snowflake's advice) is no admin role given away
        ("snowsql -c dev -q 'GRANT ROLE REPORTER TO ROLE SYSADMIN'", "ask",
         "database-sql-access-change"),
        ("bq query 'REVOKE `roles/bigquery.dataViewer` ON SCHEMA d FROM \"user:a@x.io\"'", "ask",
         "database-sql-access-change"),
        ("trino --server https://trino.corp.example --execute 'GRANT SELECT ON t TO ROLE r'",
         "ask", "database-sql-access-change"),
    ],
)  # fmt: skip
def test_warehouse_sql_is_judged_as_psqls(command: str, decision: str, rule: str) -> None:
    assert decided(command) == (decision, rule)


@pytest.mark.parametrize(
    "command",
    [
        "bq query --use_legacy_sql=false 'SELECT id FROM `acme-dev.d.t` LIMIT 5'",
        "bq query --dry_run 'SELECT * FROM `acme-prod.marts.orders`'",
        "bq ls --project_id=acme-prod",
        "spark-sql -e 'SELECT `date`, count(*) FROM events GROUP BY 1'",
        "mysql -e 'SELECT `id` FROM users LIMIT 3'",
        "snowsql -c prod -q 'SHOW TABLES IN SCHEMA ANALYTICS.MARTS'",
        "trino --server https://trino.prod.corp.example --execute 'DESCRIBE hive.web.clicks'",
        "psql -c 'GRANT SELECT ON t TO app'",  # this machine's database
    ],
)
def test_warehouse_reads_stay_free(command: str) -> None:
    assert decided(command)[0] in (None, "allow")


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [
        # deletes a data platform, an orchestrator or a broker keeps
        ("databricks fs rm -r dbfs:/mnt/raw/stripe", "ask", "service-delete"),
        ("databricks bundle destroy -t dev", "ask", "service-delete"),
        ("databricks jobs delete 4411", "ask", "service-delete"),
        ("airflow dags delete daily_orders --yes", "ask", "service-delete"),
        ("airflow db clean --clean-before-timestamp 2024-01-01 -y", "ask", "service-delete"),
        ("airflow db reset -y", "ask", "service-delete"),
        ("confluent kafka topic delete payments.v2 --force", "ask", "service-delete"),
        ("kafka-streams-application-reset --application-id sink --input-topics t", "ask",
         "service-delete"),
        # production deployed or run, stores overwritten, brokers changed or written
        ("databricks bundle deploy --target prod", "ask", "data-platform-production-change"),
        ("databricks bundle run nightly -t prod", "ask", "data-platform-production-change"),
        ("databricks jobs run-now 77 --profile prod-ws", "ask", "data-platform-production-change"),
        ("airflow connections import conns.yaml", "ask", "airflow-store-import"),
        ("airflow variables import vars.json", "ask", "airflow-store-import"),
        ("kafka-configs --bootstrap-server b.acme.io:9092 --alter --entity-type topics "
         "--entity-name orders --add-config retention.ms=1", "ask", "broker-config-change"),
        ("kafka-acls --bootstrap-server b:9092 --add --allow-principal User:etl --topic t",
         "ask", "broker-config-change"),
        ("kafka-acls --bootstrap-server b:9092 --add --allow-principal 'User:*' --topic t",
         "deny", "broker-acl-everyone"),
        ("kcat -b broker.acme.io:9092 -t orders -P -l replay.jsonl", "ask",
         "broker-produce-elsewhere"),
        ("kafka-console-producer --bootstrap-server kafka-1.corp:9092 --topic orders", "ask",
         "broker-produce-elsewhere"),
    ],
)  # fmt: skip
def test_data_platform_and_broker_changes_are_asked(command: str, decision: str, rule: str) -> None:
    assert decided(command) == (decision, rule)


@pytest.mark.parametrize(
    "command",
    [
        "databricks bundle deploy -t dev",
        "databricks bundle validate -t prod",
        "databricks fs ls dbfs:/mnt/raw/",
        "databricks jobs list --output json",
        "airflow dags list",
        "airflow dags test daily_orders 2024-06-01",
        "airflow db check",
        "airflow variables import vars.json --action-on-existing-key skip",
        "confluent kafka topic list",
        "confluent local services start",
        "kafka-streams-application-reset --application-id sink --dry-run",
        "kafka-configs --bootstrap-server b:9092 --describe --entity-type topics",
        "kafka-acls --bootstrap-server b:9092 --list",
        "kcat -C -b kafka-1.corp:9092 -t orders -o -5 -e",
        "kcat -L -b kafka-1.corp:9092",
        "kcat -P -b localhost:9092 -t test.events -l fixtures/events.jsonl",
        "kafka-console-producer --bootstrap-server localhost:9092 --topic test",
    ],
)
def test_data_platform_and_broker_looks_stay_free(command: str) -> None:
    assert decided(command)[0] in (None, "allow")


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [
        # dbt on production: a macro that drops there is denied, a run or build asked
        ("dbt run-operation drop_old_relations --target prod", "deny", "dbt-production-wipe"),
        ("dbt run-operation purge_schema -t prod --args '{schema: marts}'", "deny",
         "dbt-production-wipe"),
        ("dbt build --target=prod --select marts", "ask", "dbt-production-change"),
        ("dbt seed --full-refresh -t prod", "ask", "dbt-production-change"),
        # rows unloaded to a URL, a table extracted into a bucket
        ("snowsql -c dev -q \"COPY INTO 'gcs://x-share/orders/' FROM CORE.ORDERS\"", "deny",
         "database-sql-rows-send"),
        ("bq extract acme:core.users gs://some-bucket/users-*.json", "ask", "warehouse-extract"),
        # a service account's key file by its name, in the project too
        ("cat secrets/etl-loader-sa.json", "deny", "secret-file-read"),
        ("jq .private_key conf/ingest_sa.json", "deny", "secret-file-read"),
    ],
)  # fmt: skip
def test_production_runs_unloads_and_key_files(command: str, decision: str, rule: str) -> None:
    assert decided(command) == (decision, rule)


@pytest.mark.parametrize(
    "command",
    [
        "dbt run -s stg_events --full-refresh --target dev",
        "dbt build --select state:modified+ --state prod-artifacts/",  # a folder's name
        "dbt compile --target prod",
        "dbt ls --target prod",
        "dbt run-operation generate_source --args '{schema_name: raw}'",
        "snowsql -c dev -q 'COPY INTO @unload_stage/orders/ FROM CORE.ORDERS'",  # a stage
        "snowsql -c dev -q \"COPY INTO RAW.EVENTS FROM 's3://acme-raw/events/'\"",  # a load
        "cat data/visa.json",
        "cat config/sa-east-1.json",
    ],
)
def test_dev_runs_stages_and_plain_names_stay_free(command: str) -> None:
    assert decided(command)[0] in (None, "allow")


def test_a_service_account_key_read_by_a_file_tool_is_denied() -> None:
    found = tool_decided("read_file", {"file_path": "/home/dev/project/keys/bq-sa.json"})
    assert found == ("deny", "secret-file-read")
