"""Secrets by more names and routes: a literal put where code read a secret's variable
(asked), direnv's private file, session cookies and request recordings, people's data
exported, an ignore file rewritten by a script (never granted)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.inlinedsecrets import inlines_secret
from amplifier_hooks.guard.peopledata import people_export
from tests.guard.conftest import decided, tool_decided


@pytest.mark.parametrize(
    ("old", "new", "inlined"),
    [
        ("process.env.E2E_PASSWORD", "'Hunter2-Prod!2024'", True),
        ('os.environ["API_TOKEN"]', '"tok_live_abcdef"', True),
        ('os.getenv("DB_PASS")', '"s3cret-pass"', True),
        ("process.env.E2E_PASSWORD!", "process.env.E2E_PASSWORD ?? 'placeholder'", False),
        ("process.env.PORT", "'8080'", False),  # not a secret's variable
        ("process.env.API_KEY", "config.apiKey", False),  # no literal
    ],
)  # fmt: skip
def test_a_secret_read_replaced_by_a_literal(old: str, new: str, inlined: bool) -> None:
    assert inlines_secret({"old_string": old, "new_string": new}) is inlined


def test_the_inlined_secret_is_asked() -> None:
    given = {
        "file_path": "/home/dev/project/tests/login.spec.ts",
        "old_string": "process.env.E2E_PASSWORD",
        "new_string": "'Hunter2-Prod!2024'",
    }
    assert tool_decided("Edit", given) == ("ask", "secret-inlined")


@pytest.mark.parametrize(
    ("path", "export"),
    [
        ("/home/dev/project/exports/ghost-members.csv", True),
        ("/home/dev/project/dumps/wordpress-users.sql", True),
        ("/home/dev/project/Exports/gdpr_requests_full.csv", True),
        ("/home/dev/project/data/pii_sample.parquet", True),
        ("/home/dev/project/data/users.csv", False),
        ("/home/dev/project/tests/fixtures/users.json", False),
        ("/home/dev/project/exports/report.pdf", False),
        ("/home/dev/project/exports/build-stats.csv", False),
    ],
)  # fmt: skip
def test_an_export_of_peoples_data_by_its_name(path: str, export: bool) -> None:
    assert people_export(path) is export


@pytest.mark.parametrize(
    "command",
    ["cat cypress/fixtures/session.json",
     "jq '.log.entries[].request.headers' recordings/prod.har"],
)  # fmt: skip
def test_never_granted(command: str) -> None:
    assert decided(command)[0] is None


def test_a_secrets_ignore_line_deleted_by_sed_is_asked_as_a_file_tools_edit_is() -> None:
    assert decided("sed -i '/playwright\\/.auth/d' .gitignore") == ("ask", "ignore-entry-dropped")


@pytest.mark.parametrize(
    "command", ["head -5 data/users.csv", "cat src/session.py", "echo 'dist/' >> .gitignore"]
)
def test_still_granted(command: str) -> None:
    assert decided(command)[0] == "allow"


@pytest.mark.parametrize(
    "command",
    ["cat debian/signing-passphrase.txt", "cat ~/.config/partnercenter/ci-client-secret.txt",
     "cat config/credentials.properties", "cat token.json"],
)  # fmt: skip
def test_passphrases_client_secrets_credentials_and_tokens_by_name_are_denied(command: str) -> None:
    assert decided(command)[0] == "deny"


def test_their_examples_and_look_alikes_are_not() -> None:
    for command in ("cat credentials.example.properties", "cat src/design/tokens.json",
                    "cat docs/credentials-howto.md"):  # fmt: skip
        assert decided(command)[0] != "deny", command


def test_direnvs_private_file_is_a_dotenv() -> None:
    given = {"file_path": "/home/dev/project/.envrc.private"}
    assert tool_decided("Read", given)[0] == "deny"
