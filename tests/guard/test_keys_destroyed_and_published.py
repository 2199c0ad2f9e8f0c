"""Cloud keys scheduled for deletion, disabled or destroyed are asked as the cloud's other
changes are (``cloud-change``); a key sent to a keyserver and a Storybook uploaded to
Chromatic are published, asked (``publish-key-to-keyserver``, ``publish-storybook``).
Looking at keys, fetching them and building the Storybook here stay free."""

from __future__ import annotations

import pytest

from .conftest import Judge


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("aws kms schedule-key-deletion --key-id alias/backup --pending-window-in-days 7",
         "cloud-change"),
        ("aws kms disable-key --key-id alias/backup", "cloud-change"),
        ("gcloud kms keys versions destroy 1 --key k --keyring r --location global",
         "cloud-change"),
        ("az keyvault key delete --vault-name v --name k", "cloud-change"),
        ("gpg --keyserver hkps://keys.openpgp.org --send-keys 0xA1B2C3D4",
         "publish-key-to-keyserver"),
        ("gpg2 --send-key 0xA1B2C3D4", "publish-key-to-keyserver"),
        ("npx chromatic --project-token=chpt_1a2b3c", "publish-storybook-runner"),
        ("pnpm dlx chromatic --exit-zero-on-changes", "publish-storybook-runner"),
        ("npm run chromatic", "publish-storybook-runner"),
        ("chromatic --project-token chpt_1a2b3c", "publish-storybook"),
    ],
)  # fmt: skip
def test_keys_destroyed_and_publishing_are_asked(verdict: Judge, command: str, rule: str) -> None:
    judged = verdict(command)
    assert (judged.decision, judged.rule) == ("ask", rule), (command, judged)


@pytest.mark.parametrize(
    "command",
    [
        "aws kms describe-key --key-id alias/backup",
        "aws kms list-keys",
        "gpg --recv-keys 0xA1B2C3D4",
        "gpg --list-keys",
        "gpg --export --armor 0xA1B2C3D4",
        "npx chromatic --dry-run",
        "npm i -D chromatic",
        "pnpm add -D chromatic",
        "npx storybook build",
    ],
)
def test_looks_fetches_and_local_builds_are_not_asked(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision in (None, "allow"), (command, judged)
