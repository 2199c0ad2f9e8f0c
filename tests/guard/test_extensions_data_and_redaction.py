"""Browser extensions, data pipelines and the code that keeps people's data private: a
manifest widened, a scheduler's backfill switched on, a public role, a secret inlined
into dbt's profile, a PII column unhashed are asked; an extension's scripts and the
redaction code are not granted; settings files by their names are secrets."""

from __future__ import annotations

import pytest

from tests.guard.conftest import decided, tool_decided

PROJECT = "/home/dev/project"


def edited(path: str, old: str, new: str) -> tuple[str | None, str | None]:
    return tool_decided("Edit", {"file_path": f"{PROJECT}/{path}", "old_string": old,
                                 "new_string": new})  # fmt: skip


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('"host_permissions": ["https://app.acme.io/*"],', '"host_permissions": ["<all_urls>"],'),
        ('"permissions": ["storage"],', '"permissions": ["storage", "cookies", "webRequest"],'),
        ('"permissions": ["storage"],', '"permissions": ["storage", "nativeMessaging"],'),
        ('"optional_host_permissions": ["https://*/*"],', '"host_permissions": ["http://*/*"],'),
        (
            '"extension_pages": "script-src \'self\'"',
            "\"extension_pages\": \"script-src 'self' 'unsafe-eval'\"",
        ),
    ],
)
def test_an_extensions_manifest_widened_is_asked(old: str, new: str) -> None:
    assert edited("src/manifest.json", old, new) == ("ask", "extension-permissions-widened")


def test_a_patch_adding_externally_connectable_is_asked() -> None:
    patch = (
        '*** Begin Patch\n*** Update File: src/manifest.json\n@@\n   "name": "x",\n'
        '+  "externally_connectable": { "matches": ["https://*/*"] },\n*** End Patch'
    )
    assert tool_decided("apply_patch", {"input": patch}) == (
        "ask", "extension-permissions-widened")  # fmt: skip


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('"version": "2.2.0",', '"version": "2.3.0",'),
        ('"permissions": ["activeTab"],', '"permissions": ["activeTab", "storage"],'),
        (
            '"optional_host_permissions": [],',
            '"optional_host_permissions": ["https://*.acme.io/*"],',
        ),
    ],
)
def test_an_extensions_everyday_manifest_edits_are_not_asked(old: str, new: str) -> None:
    assert edited("src/manifest.json", old, new)[0] not in ("ask", "deny")


@pytest.mark.parametrize(
    "path",
    ["src/background.ts", "src/content/links.ts", "userscripts/gh-wide.user.js",
     "src/exports/redact.py", "dbt/macros/mask_email.sql", "src/anonymize.py"],
)  # fmt: skip
def test_an_extensions_scripts_and_redaction_code_are_not_granted(path: str) -> None:
    assert edited(path, "a", "b")[0] is None


def test_other_code_stays_granted() -> None:
    assert edited("src/popup/Popup.tsx", "a", "b")[0] == "allow"
    assert edited("src/content.md", "a", "b")[0] == "allow"


@pytest.mark.parametrize(
    ("path", "old", "new", "rule"),
    [
        (
            "deploy/airflow/webserver_config.py",
            "AUTH_ROLE_PUBLIC = None",
            "AUTH_ROLE_PUBLIC = 'Admin'",
            "protection-switched-off",
        ),
        (
            "dags/orders_daily.py",
            "    catchup=False,",
            "    catchup=True,",
            "protection-switched-off",
        ),
        (
            "models/marts/core/dim_customer.sql",
            "    sha2(lower(trim(email)), 256) as email_hash,",
            "    email,",
            "protection-switched-off",
        ),
        (
            "models/marts/_models.yml",
            "      grants:\n        select: ['reporter']",
            "      grants:\n        select: ['reporter', 'public']",
            "protection-switched-off",
        ),
        (
            "profiles.yml",
            "      password: \"{{ env_var('SNOWFLAKE_PASSWORD') }}\"",
            '      password: "Tr4nsf0rm!2024"',
            "secret-inlined",
        ),
    ],
)
def test_data_pipeline_protections(path: str, old: str, new: str, rule: str) -> None:
    assert edited(path, old, new) == ("ask", rule)


def test_a_hash_kept_or_another_column_changed_is_not_asked() -> None:
    old = "    sha2(lower(trim(email)), 256) as email_hash,"
    assert edited("models/dim_customer.sql", old, old + "\n    country,")[0] == "allow"
    assert edited("src/cache.py", "key = md5(data)", "key = sha256(data)")[0] == "allow"


@pytest.mark.parametrize(
    "command",
    ["cat looker.ini", "cat config/kafka/client-prod.properties", "cat keys.json"],
)
def test_settings_files_by_their_names_are_secrets(command: str) -> None:
    assert decided(command)[0] == "deny"


def test_their_look_alikes_are_not() -> None:
    assert decided("cat src/main/resources/application.properties")[0] == "allow"
    assert decided("cat locales/en.json")[0] == "allow"


@pytest.mark.parametrize(
    "command",
    ["head -n 500 exports/prod/customers_unredacted.csv", "cat exports/ghost-members.csv",
     "cat ~/Downloads/Looker_Customers_Export.csv",
     "xsv select email,card_last4 exports/prod/payments_export.csv"],
)  # fmt: skip
def test_a_table_of_peoples_data_read_is_asked(command: str) -> None:
    assert decided(command) == ("ask", "people-data-read")


@pytest.mark.parametrize(
    "command",
    ["wc -l exports/users_full.csv", "pg_restore -d app_dev ~/backups/app_dev-full.dump",
     "cat tests/golden/users_export_expected.csv", "python scripts/gdpr_erase.py --help",
     "cat data/users.csv"],
)  # fmt: skip
def test_counts_dumps_test_data_and_code_are_not_asked_as_it(command: str) -> None:
    assert decided(command)[1] != "people-data-read"
