"""Files a project keeps its passwords and tokens in are never read under a grant: a name
that says so (``password.txt``, ``secrets.yml``, ``.npmrc``, a Terraform ``.tfvars``), a
folder kept for secrets (``secrets/``, an ``.aws`` copied in), and a service-account key
by its usual names (``loader-sa.json``, dbt's ``keyfile.json``: denied). Reading the
project's code and documents stays granted."""

import pytest

from tests.guard.conftest import HOME, Judge

PROJECT = f"{HOME}/src/calc/"


@pytest.mark.parametrize(
    "name",
    [
        "secrets/db-password.txt",
        "secrets/prod.yaml",
        "config/credentials.yml",
        ".aws/credentials",
        ".docker/config.json",
        "password.txt",
        "api_token",
        "token.json",
        "auth.json",
        ".npmrc",
        "infra/prod.tfvars",
        "infra/terraform.tfvars.json",
        "wp-config.php",
        "ansible/.vault_pass",
        "Secrets/PROD.yaml",
    ],
)
@pytest.mark.parametrize("tool", ["bash", "read_file"])
def test_a_file_named_for_passwords_is_not_read_under_a_grant(
    verdict: Judge, name: str, tool: str
) -> None:
    value = f"cat {name}" if tool == "bash" else PROJECT + name
    judged = verdict(value, tool=tool)
    assert judged.decision != "allow", (value, judged)


@pytest.mark.parametrize(
    "name",
    ["secrets/bq-loader-sa.json", "keys/gcp-sa-key.json", "config/keyfile.json", "secrets.json"],
)
def test_a_service_account_key_by_its_usual_name_is_denied(verdict: Judge, name: str) -> None:
    judged = verdict(PROJECT + name, tool="read_file")
    assert (judged.decision, judged.rule) == ("deny", "secret-file-read"), name


@pytest.mark.parametrize(
    "name",
    ["src/tokens.ts", "src/auth/token.py", "docs/passwords.md", "tokenizer.json", "main.tf",
     "src/secrets-schema.json", "package.json", "visa.json"],
)  # fmt: skip
def test_code_and_documents_named_near_them_stay_granted(verdict: Judge, name: str) -> None:
    assert verdict(PROJECT + name, tool="read_file").decision == "allow", name
    assert verdict(f"cat {name}").decision == "allow", name
