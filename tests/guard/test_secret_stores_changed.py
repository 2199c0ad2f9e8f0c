"""A secret store's contents written over, moved or shared by its own command (Vault,
Bitwarden, 1Password, pass) are asked (``secret-store-change``, ``secret-store-overwrite``);
its deletes are asked by the service table (``service-delete``); reads stay as they were
(printing a value is denied, listing names is free)."""

from __future__ import annotations

import pytest

from .conftest import Judge


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("vault kv put secret/app/db password=@x", "secret-store-change"),
        ("vault kv patch -mount=secret app/db ttl=1h", "secret-store-change"),
        ("vault write auth/approle/role/ci token_ttl=1h", "secret-store-change"),
        ("vault policy write admin policies/admin.hcl", "secret-store-change"),
        ("bw edit item 5a1f eyJpZCI6IjEifQ==", "secret-store-change"),
        ("bw move 5a1f org-1 eyJbXX0=", "secret-store-change"),
        ("op item edit 'Staging DB' password=hunter2", "secret-store-change"),
        ("op item share 'Staging DB' --emails a@example.com", "secret-store-change"),
        ("pass insert -f -e work/jenkins", "secret-store-overwrite"),
        ("pass insert -ef work/jenkins", "secret-store-overwrite"),
        ("pass generate --force work/jenkins 24", "secret-store-overwrite"),
        ("pass generate -i work/jenkins", "secret-store-overwrite"),
        ("gopass insert -f team/ci/token", "secret-store-overwrite"),
        ("vault kv delete secret/app", "service-delete"),
        ("vault secrets disable secret/", "service-delete"),
        ("bw delete item 5a1f", "service-delete"),
        ("bw delete folder 77c2 --permanent", "service-delete"),
        ("op item delete 'Staging DB'", "service-delete"),
    ],
)
def test_a_secret_store_changed_is_asked(verdict: Judge, command: str, rule: str) -> None:
    judged = verdict(command)
    assert (judged.decision, judged.rule) == ("ask", rule), (command, judged)


def test_pass_rm_stays_denied(verdict: Judge) -> None:
    assert verdict("pass rm work/old").rule == "credential-store-changed"


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("vault kv get secret/app", "credential-print-vault"),
        ("bw get item 5a1f", "credential-print-store"),
        ("pass show work/jenkins", "credential-print-store"),
    ],
)
def test_reads_of_values_stay_denied(verdict: Judge, command: str, rule: str) -> None:
    judged = verdict(command)
    assert (judged.decision, judged.rule) == ("deny", rule)


@pytest.mark.parametrize(
    "command",
    [
        "vault kv list secret/",
        "vault kv metadata get secret/app",
        "vault status",
        "bw list folders",
        "bw sync",
        "bw lock",
        "bw create folder eyJuYW1lIjoiY2kifQ==",
        "bw get --help",
        "op item list --vault Dev",
        "pass ls",
        "pass insert work/new-token",  # (pass asks before it overwrites one that exists)
        "pass generate work/new 24",
        "vault kv put --help",
    ],
)
def test_reads_and_new_entries_are_not_asked(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision in (None, "allow"), (command, judged)
