"""A warehouse account's protections and bill, BigQuery's production tables, GitHub's API
writes, a project's funding and settings files, bucket-to-bucket copies, and the commands
Mercurial's and Jujutsu's command-line settings run."""

from __future__ import annotations

import json

import pytest

from amplifier_hooks.guard.changemarks import change_marks
from amplifier_hooks.guard.forgegates import opens_gate
from amplifier_hooks.guard.fundingfields import FUNDING_CHANGED
from amplifier_hooks.guard.sqltokens import statements
from amplifier_hooks.guard.sqlwarehouse import safety_off, spends
from amplifier_hooks.guard.switchedoff import PROTECTION_SWITCHED_OFF
from amplifier_hooks.guard.table.vcsconfig import vcs_setting_commands

from .conftest import decided, tool_decided


@pytest.mark.parametrize(
    "sql",
    ["ALTER TABLE CRM.PUBLIC.CUSTOMERS MODIFY COLUMN EMAIL UNSET MASKING POLICY",
     "alter table t drop row access policy rap_region",
     "DROP MASKING POLICY PII.EMAIL_MASK",
     "ALTER ACCOUNT UNSET NETWORK_POLICY",
     "ALTER USER ETL_SVC SET MINS_TO_BYPASS_MFA = 100000",
     "ALTER ACCOUNT SET PREVENT_UNLOAD_TO_INLINE_URL = FALSE",
     "ALTER ACCOUNT SET DATA_RETENTION_TIME_IN_DAYS = 0"],
)  # fmt: skip
def test_a_warehouse_protection_taken_away_is_safety_off_on_any_connection(sql: str) -> None:
    assert safety_off(statements(sql), production=False)
    assert decided(f"snowsql -c dev -q {json.dumps(sql)}") == (
        "deny", "database-sql-safety-off-elsewhere")  # fmt: skip


def test_a_retention_cut_to_nothing_counts_on_production_only() -> None:
    sql = "ALTER SCHEMA SCRATCH.DBT_JSMITH SET DATA_RETENTION_TIME_IN_DAYS = 0"
    assert not safety_off(statements(sql), production=False)
    assert safety_off(statements(sql), production=True)
    assert decided(f'snowsql -c dev -q "{sql}"')[0] is None
    assert decided(f'snowsql -c prod -q "{sql}"')[0] == "deny"


@pytest.mark.parametrize(
    ("sql", "costs"),
    [("ALTER WAREHOUSE T SET WAREHOUSE_SIZE = 'X6LARGE'", True),
     ("CREATE WAREHOUSE B WITH WAREHOUSE_SIZE = '4X-LARGE' AUTO_SUSPEND = NULL", True),
     ("ALTER WAREHOUSE T SET AUTO_SUSPEND = 0", True),
     ("ALTER WAREHOUSE T SET MAX_CLUSTER_COUNT = 10", True),
     ("DROP RESOURCE MONITOR MONTHLY_CAP", True),
     ("ALTER WAREHOUSE DEV_WH SET WAREHOUSE_SIZE = 'XSMALL' AUTO_SUSPEND = 60", False),
     ("ALTER WAREHOUSE DEV_WH SUSPEND", False),
     ("DROP WAREHOUSE OLD_WH", False),
     ("SELECT WAREHOUSE_SIZE FROM T", False)],
)  # fmt: skip
def test_compute_made_large_kept_running_or_uncapped_spends(sql: str, costs: bool) -> None:
    assert spends(statements(sql)) is costs


@pytest.mark.parametrize(
    ("given", "decision", "rule"),
    [({"connection": "prod", "query": "ALTER TABLE C MODIFY COLUMN E UNSET MASKING POLICY"},
      "deny", "database-sql-safety-off-elsewhere"),
     ({"connection": "prod", "query": "GRANT SELECT ON ALL TABLES IN SCHEMA P TO ROLE PUBLIC"},
      "deny", "database-sql-privilege-elsewhere"),
     ({"connection": "prod", "query": "ALTER WAREHOUSE W SET WAREHOUSE_SIZE = 'X6LARGE'"},
      "ask", "database-sql-spends"),
     ({"connection": "prod", "query": "ALTER SHARE S ADD ACCOUNTS = VENDORCO.AB12345"},
      "ask", "database-sql-access-change"),
     ({"connection": "dev", "query": "SELECT COUNT(*) FROM ANALYTICS_DEV.T"}, None, None)],
)  # fmt: skip
def test_a_warehouse_tool_given_a_connection_is_judged_as_snowsql_on_it(
    given: dict[str, str], decision: str | None, rule: str | None
) -> None:
    assert tool_decided("mcp__snowflake__run_query", given) == (decision, rule)


@pytest.mark.parametrize(
    ("command", "rule"),
    [("bq load --replace --source_format=CSV acme-prod:raw.rates ./data/rates.csv",
      "warehouse-production-write"),
     ("bq cp -f acme-staging:marts.dim acme-prod:marts.dim", "warehouse-production-write"),
     ("bq query --destination_table acme-prod:marts.daily --replace 'SELECT 1'",
      "warehouse-query-production-write"),
     ("bq mk --capacity_commitment --location=US --plan=ANNUAL --slots=500",
      "warehouse-capacity-bought"),
     ("bq mk --listing --data_exchange=partner_exchange --location=US weekly",
      "warehouse-listing-shared")],
)  # fmt: skip
def test_bigquery_production_writes_capacity_and_listings_are_asked(
    command: str, rule: str
) -> None:
    assert decided(command) == ("ask", rule)


@pytest.mark.parametrize(
    "command",
    ["bq load --source_format=CSV acme-dev:scratch.rates ./data/rates.csv",
     "bq load acme-dev:shop.products data.csv", "bq mk --dataset acme-dev:dbt_jsmith",
     "bq query --nouse_legacy_sql 'SELECT 1 FROM `acme-prod.marts.t`'",
     "bq query --dry_run --destination_table acme-prod:m.t 'SELECT 1'"],
)  # fmt: skip
def test_bigquery_dev_work_and_production_reads_are_not_asked(command: str) -> None:
    assert decided(command)[0] is None


@pytest.mark.parametrize(
    ("command", "rule"),
    [("gh api -X POST repos/o/r/actions/runs/881/approve", "github-api-write"),
     ("gh api --method=PUT orgs/o/blocks/someone", "github-api-write"),
     ("gh api repos/o/r/labels -f name=bug", "github-api-fields-sent"),
     ("gh api graphql -f query='mutation { cancelSponsorship(input: {}) { clientMutationId } }'",
      "github-graphql-mutation")],
)  # fmt: skip
def test_github_api_writes_are_asked(command: str, rule: str) -> None:
    assert decided(command) == ("ask", rule)


@pytest.mark.parametrize(
    "command",
    ["gh api repos/o/r/pulls --jq '.[].title'", "gh api -X GET search/issues -f q='is:open'",
     "gh api graphql -f query='query { viewer { login } }'"],
)  # fmt: skip
def test_github_api_reads_are_not_asked(command: str) -> None:
    assert decided(command)[0] is None


def test_azure_management_api_writes_are_asked_and_reads_are_not() -> None:
    url = "https://management.azure.com/subscriptions/s/resourceGroups/rg/providers/x/start"
    assert decided(f"az rest --method post --url {url}") == ("ask", "azure-rest-write")
    assert decided(f"az rest --method get --url {url}")[0] is None


def test_a_funding_file_naming_someone_new_is_asked_by_any_route() -> None:
    assert decided("echo 'github: [me]' > .github/FUNDING.yml") == ("ask", "funding-file-change")
    path = "/home/dev/project/.github/FUNDING.yml"
    edit = {"file_path": path, "old_string": "github: [a]",
            "new_string": "custom: [https://paypal.me/b]"}  # fmt: skip
    assert tool_decided("Edit", edit) == ("ask", "funding-address-changed")
    same = {"file_path": path, "old_string": "github: [loomjs]",
            "new_string": "github: [loomjs]\nliberapay: loomjs"}  # fmt: skip
    assert tool_decided("Edit", same)[0] is None  # the project's own account, elsewhere
    assert decided("cat .github/FUNDING.yml")[0] == "allow"


def test_a_new_payment_address_in_a_manifest_funding_is_marked_on_an_edit_and_a_patch() -> None:
    edit = {"old_string": '"funding": "https://opencollective.com/a"',
            "new_string": '"funding": "https://paypal.me/b"'}  # fmt: skip
    assert FUNDING_CHANGED in change_marks(("package.json",), edit)
    assert FUNDING_CHANGED not in change_marks(("README.md",), edit)
    own = {"old_string": '"funding": "https://opencollective.com/loomjs"',
           "new_string": '"funding": ["https://github.com/sponsors/loomjs"]'}  # fmt: skip
    assert FUNDING_CHANGED not in change_marks(("package.json",), own)
    bumped = {"old_string": '"version": "1.0.0"', "new_string": '"version": "1.0.1"'}
    assert FUNDING_CHANGED not in change_marks(("package.json",), bumped)
    patch = ("*** Begin Patch\n*** Update File: package.json\n@@\n   \"funding\": {\n"
             "-    \"url\": \"https://opencollective.com/a\"\n"
             "+    \"url\": \"https://commerce.coinbase.com/c/5f\"\n*** End Patch")  # fmt: skip
    assert tool_decided("apply_patch", {"input": patch}) == ("ask", "funding-address-changed")


def test_settings_app_file_and_security_scans_deleted_are_asked() -> None:
    edit = {"file_path": "/home/dev/project/.github/settings.yml", "old_string": "a",
            "new_string": "b"}  # fmt: skip
    assert tool_decided("Edit", edit) == ("ask", "forge-settings-file-change")
    assert decided("git rm .github/workflows/codeql.yml") == ("ask", "security-scan-deleted")
    assert decided("rm .github/dependabot.yml") == ("ask", "security-scan-deleted")
    assert decided("git rm .github/workflows/test.yml")[0] != "ask"


def test_forge_gates_taken_away_are_read_apart_from_service_switches() -> None:
    assert opens_gate(True, False, "/src @a @b\n", "/src @a\n")
    assert opens_gate(False, True, "    environment: production\n", "")
    assert opens_gate(False, False, "allow_force_pushes: false", "allow_force_pushes: true")
    assert opens_gate(False, False, "", 'SAST_DISABLED: "true"')
    assert not opens_gate(False, False, "allow_force_pushes: true", "allow_force_pushes: false")
    unsecure = {
        "old_string": "env:\n  A: 1",
        "new_string": "env:\n  ACTIONS_ALLOW_UNSECURE_COMMANDS: true",
    }
    assert PROTECTION_SWITCHED_OFF in change_marks((".github/workflows/ci.yml",), unsecure)


@pytest.mark.parametrize(
    "command",
    ["gsutil -m cp gs://acme-exports/users/*.csv gs://jdev-scratch/",
     "aws s3 cp s3://acme-exports/users.csv s3://jdev-scratch/",
     "gcloud storage cp gs://a/x gs://b/",
     "azcopy copy https://acme.blob.core.windows.net/exports/x https://mine.blob.core.windows.net/c/"],
)  # fmt: skip
def test_a_copy_from_one_bucket_into_another_is_asked(command: str) -> None:
    assert decided(command) == ("ask", "bucket-copied-to-bucket")


@pytest.mark.parametrize(
    "command",
    ["aws s3 cp s3://acme-exports/a.csv s3://acme-exports/archive/a.csv",
     "gsutil cp gs://a/x.csv ./data/", "aws s3 sync s3://a-dev ./data"],
)  # fmt: skip
def test_a_copy_within_one_bucket_or_down_here_is_not_asked(command: str) -> None:
    assert decided(command)[0] != "ask"


@pytest.mark.parametrize(
    ("program", "args", "commands"),
    [("hg", ("--config", "alias.st=!rm -rf ~", "st"), ("rm -rf ~",)),
     ("hg", ("--config=ui.editor=vim -x", "commit"), ("vim -x",)),
     ("hg", ("--config", "alias.l=log -l 3", "l"), ()),
     ("hg", ("--config", "extensions.e=/tmp/e.py", "log"), ("python3 /tmp/e.py",)),
     ("hg", ("--config", "extensions.rebase=", "log"), ()),
     ("jj", ("--config", 'ui.diff.tool=["sh", "-c", "rm -rf ~"]', "diff"), ("sh -c 'rm -rf ~'",)),
     ("jj", ("--config-toml", 'ui.pager = "less -R"', "log"), ("less -R",)),
     ("jj", ("--config", "ui.diff-editor=:builtin", "split"), ()),
     ("jj", ("--config", 'aliases.x=["util", "exec", "--", "id"]', "x"), ("id",)),
     ("jj", ("--config", "user.name=me", "log"), ())],
)  # fmt: skip
def test_vcs_settings_on_the_command_line_run_what_they_name(
    program: str, args: tuple[str, ...], commands: tuple[str, ...]
) -> None:
    assert vcs_setting_commands(program, args) == commands


def test_a_destructive_command_in_an_hg_or_jj_setting_is_denied() -> None:
    assert decided("hg --config alias.st='!rm -rf ~' st")[0] == "deny"
    assert decided("""jj --config ui.diff.tool='["sh","-c","rm -rf ~"]' diff""")[0] == "deny"
    assert decided("hg status")[0] is None
