"""Secrets a write puts where a commit publishes them.

A key named for a secret holding a random value (``wandb_api_key: <40 hex>``) written
into a project file is asked, like a provider's key by its shape; a checksum, a commit id
or a placeholder is not. An edit of ``.gitignore`` that stops ignoring ``.env`` is asked.
"""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks.guard import Places, Policy, Verdict, judge
from amplifier_hooks.guard.ignorefiles import unignores_secrets
from amplifier_hooks.guard.keyedsecrets import _FIELD, _random, keyed_secrets
from amplifier_hooks.secret_shapes import SECRET_KEY

from .conftest import HOME

WORK = HOME / "src" / "calc"
HEX40 = "9f3a1c5e7b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a"


def _call(pack: Policy, places: Places, tool: str, given: dict[str, Any]) -> Verdict:
    return judge({"tool_name": tool, "tool_input": given}, pack, places)


def _edit(path: str, old: str, new: str) -> dict[str, Any]:
    return {"file_path": str(WORK / path), "old_string": old, "new_string": new}


@pytest.mark.parametrize(
    "text",
    [f"wandb_api_key: {HEX40}\n", f'{{"client_secret": "{HEX40[:32]}"}}',
     "DB_PASSWORD = 'q8Zr4kP2mX9vT1wLs7Yc'\n", f"hf.token={HEX40[:24]}Ab\n"],
)  # fmt: skip
def test_a_secret_key_holding_a_random_value_is_a_secret(text: str) -> None:
    assert keyed_secrets(text)


@pytest.mark.parametrize(
    "text",
    [f"commit: {HEX40}\n", f"sha256: {HEX40}{HEX40[:24]}\n", "api_key: ${WANDB_API_KEY}\n",
     "api_key: your-api-key-goes-here-123456\n", "token: xxxxxxxxxxxxxxxxxxxxxxxx\n",
     "max_tokens: 4096\n", "password: correcthorsebatterystaple\n",
     "api_key: os.environ['WANDB_API_KEY']\n", "secret_key: ExampleSecretKey1234567890\n",
     "token_path: /home/dev/.cache/huggingface/token\n"],
)  # fmt: skip
def test_checksums_commit_ids_and_placeholders_are_not(text: str) -> None:
    assert keyed_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [f"x=y_token={HEX40}\n", f"{'k' * 90}_token: {HEX40}\n", f"{'k' * 70}_token: {HEX40}\n",
     f'1api_key :  "{HEX40}"', f"a:b api_key\t=\t'{HEX40}'", f"{'Ab3' * 40}=\napi_key={HEX40}",
     f"api_key=={HEX40}", f"api_key='' token={HEX40[:30]}Q", f"é_token: {HEX40}"],
)  # fmt: skip
def test_keys_are_found_as_the_field_pattern_finds_them(text: str) -> None:
    """Found from each sign backwards (for speed), the keys are those a scan of every
    character finds: a value that swallows the next field, a key too long, odd quotes."""
    every = [m for m in _FIELD.finditer(text)]
    expected = tuple(m.group("key") for m in every
                     if SECRET_KEY.match(m.group("key").rsplit(".", 1)[-1])
                     and _random(m.group("value")))  # fmt: skip
    assert keyed_secrets(text) == expected


def test_writing_a_keyed_secret_into_a_config_is_asked(pack: Policy, places: Places) -> None:
    given = _edit("configs/train.yaml", "project: x", f"project: x\nwandb_api_key: {HEX40}")
    found = _call(pack, places, "Edit", given)
    assert (found.decision, found.rule) == ("ask", "secret-written-to-file")


def test_the_same_value_in_a_secret_file_or_under_another_key_is_free(
    pack: Policy, places: Places
) -> None:
    in_env = {"file_path": str(WORK / ".env"), "content": f"WANDB_API_KEY={HEX40}\n"}
    assert _call(pack, places, "Write", in_env).rule != "secret-written-to-file"
    pinned = _edit("configs/train.yaml", "rev: main", f"rev: {HEX40}")
    assert _call(pack, places, "Edit", pinned).decision in (None, "allow")


@pytest.mark.parametrize(
    "given",
    [{"old_string": ".env\n", "new_string": ""},
     {"old_string": "node_modules/\n.env\n*.pem\n", "new_string": "node_modules/\n"},
     {"old_string": "dist/\n", "new_string": "dist/\n!.env\n"},
     {"edits": [{"old_string": "/.env.local\n", "new_string": "# local settings\n"}]}],
)  # fmt: skip
def test_an_edit_that_stops_ignoring_a_secret_file_unignores_it(given: dict[str, Any]) -> None:
    assert unignores_secrets(["/w/.gitignore"], given)


@pytest.mark.parametrize(
    "given",
    [{"old_string": "dist/\n", "new_string": "dist/\n.env\nbuild/\n"},
     {"old_string": ".env\n", "new_string": ".env\n.env.*\n"},
     {"old_string": ".env*\n", "new_string": ".env*\n!.env.example\n"},
     {"old_string": "*.log\n", "new_string": ""}],
)  # fmt: skip
def test_edits_that_keep_secrets_ignored_do_not(given: dict[str, Any]) -> None:
    assert not unignores_secrets(["/w/.gitignore"], given)


def test_unignoring_env_is_asked_and_other_files_are_not_read(pack: Policy, places: Places) -> None:
    found = _call(pack, places, "Edit", _edit(".gitignore", ".env\n", ""))
    assert (found.decision, found.rule) == ("ask", "secret-unignored")
    assert not unignores_secrets(["/w/notes.md"], {"old_string": ".env\n", "new_string": ""})
    ordinary = _call(pack, places, "Edit", _edit(".gitignore", "dist/\n", "dist/\nbuild/\n"))
    assert ordinary.decision in (None, "allow")


_PROD_URL = "postgresql://admin:Xk9vR2qLm@app.c9xyz.eu-west-1.rds.amazonaws.com:5432/app"


def test_a_connection_url_with_its_password_written_into_a_readme_is_asked(
    pack: Policy, places: Places
) -> None:
    found = _call(
        pack, places, "Edit", _edit("README.md", "## Database", f"## Database\n{_PROD_URL}")
    )
    assert (found.decision, found.rule) == ("ask", "secret-written-to-file")


@pytest.mark.parametrize(
    "url",
    ["postgres://postgres:postgres@localhost:5432/app", "postgres://app:S3cr3tPw9@db:5432/app",
     "postgres://app:${DB_PASSWORD}@db.prod.internal/app", "mysql://u:<password>@db.example.org/x",
     "postgres://app@db.prod.internal/app"],
)  # fmt: skip
def test_local_hosts_placeholders_and_urls_without_a_password_are_free(
    pack: Policy, places: Places, url: str
) -> None:
    found = _call(pack, places, "Edit", _edit("README.md", "## Database", f"## Database\n{url}"))
    assert found.decision in (None, "allow")


def test_the_same_url_in_a_dotenv_file_is_not_this_rule(pack: Policy, places: Places) -> None:
    given = {"file_path": str(WORK / ".env.production"), "content": f"DATABASE_URL={_PROD_URL}\n"}
    assert _call(pack, places, "Write", given).rule != "secret-written-to-file"
