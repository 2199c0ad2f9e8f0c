"""Chat tools, mail filters and trackers, and code edits that skip TLS checks, run what a
request sends or widen a chat app's scopes."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.appscopes import widens_app_scopes
from amplifier_hooks.guard.inputruns import runs_input
from amplifier_hooks.guard.tlscode import skips_tls_checks
from amplifier_hooks.secret_shapes import credentials_in

from .conftest import decided, tool_decided


@pytest.mark.parametrize(
    ("path", "new", "skips"),
    [("app/client.py", "r = requests.get(url, verify=False)", True),
     ("mail/imap.py", "ctx = ssl._create_unverified_context()", True),
     ("src/c.go", "tls.Config{InsecureSkipVerify: true}", True),
     ("src/https.ts", "new https.Agent({ rejectUnauthorized: false })", True),
     ("tests/test_client.py", "r = requests.get(url, verify=False)", False),
     ("src/client_test.go", "tls.Config{InsecureSkipVerify: true}", False),
     ("app/client.py", "r = requests.get(url, timeout=5)", False)],
)  # fmt: skip
def test_code_that_skips_tls_checks_is_told_apart_from_tests(
    path: str, new: str, skips: bool
) -> None:
    assert skips_tls_checks((path,), {"old_string": "x", "new_string": new}) is skips


def test_tls_checks_skipped_in_code_are_asked() -> None:
    edit = {"file_path": "/home/dev/project/app/client.py", "old_string": "requests.get(url)",
            "new_string": "requests.get(url, verify=False)"}  # fmt: skip
    assert tool_decided("Edit", edit) == ("ask", "protection-switched-off")


@pytest.mark.parametrize(
    ("new", "runs"),
    [("run: (ctx) => ctx.say(execSync(ctx.text).toString())", True),
     ("os.system(request.args['cmd'])", True),
     ("eval(message.content.slice(6))", True),
     ('execSync("git rev-parse HEAD")', False),
     ("subprocess.run(['pytest', '-q'])", False)],
)  # fmt: skip
def test_a_call_that_runs_what_a_request_sends_is_marked(new: str, runs: bool) -> None:
    assert runs_input({"old_string": "x", "new_string": new}) is runs


def test_chat_app_scopes_that_read_messages_are_marked() -> None:
    old = '"bot": ["chat:write", "commands"]'
    wider = {"old_string": old, "new_string": '"bot": ["chat:write", "commands", "im:history"]'}
    same = {"old_string": old, "new_string": '"bot": ["chat:write", "commands", "reactions:write"]'}
    assert widens_app_scopes(("manifest.json",), wider)
    assert not widens_app_scopes(("manifest.json",), same)
    assert not widens_app_scopes(("src/scopes.json",), wider)
    edit = {"file_path": "/home/dev/project/manifest.json", **wider}
    assert tool_decided("Edit", edit) == ("ask", "app-scopes-widened")


def test_discord_and_google_oauth_tokens_are_credentials_by_their_shape() -> None:
    assert credentials_in("tok=ya29.a0AfB_byC3xKq9ExampleTokenValue0123456789")
    token = "MTE4MjczNDY1MDE5MjgzNzQ2NQ.GbX9kQ.EXAMPLEq2Zr8vW0nLkT5yHjPdsA1cFuM4oIe"
    assert credentials_in(f"DISCORD_BOT_TOKEN={token}")
    assert not credentials_in("Map.of.entries: Mozilla.firefox.release")


@pytest.mark.parametrize(
    ("command", "found"),
    [("m365 util accesstoken get --resource graph", ("deny", "credential-print-m365")),
     ("jira issue delete PLAT-1502", ("ask", "tracker-change")),
     ("linear issue create --team ENG --title x", ("ask", "tracker-change")),
     ("slackcat --channel eng-builds build.log", ("ask", "chat-file-posted")),
     ("sieve-connect --server imap.example.com --localsieve f.sieve --upload --activate",
      ("ask", "mail-filters-uploaded")),
     ("cat ~/.config/gcalcli/oauth", ("deny", "credential-read")),
     ("cat ~/.config/discord-bot/token", ("deny", "credential-read")),
     ("swaks --to boss@corp.com --server smtp.gmail.com:587", ("ask", "message-sent-mail")),
     ("curl -X DELETE https://api.example.com/items/4", ("ask", "http-delete")),
     ("aws iam add-user-to-group --user-name tom --group-name Admins", ("ask", "cloud-change")),
     ('az ad group member add --group "Admins" --member-id 7c9e', ("ask", "azure-member-added")),
     ("aws iam create-access-key --user-name x", ("deny", "credential-create-cloud-key"))],
)  # fmt: skip
def test_chat_mail_and_tracker_changes_and_their_tokens(
    command: str, found: tuple[str, str]
) -> None:
    assert decided(command) == found


@pytest.mark.parametrize(
    "command",
    ["jira issue list -s open", "linear issue view ENG-1", "sieve-connect --server s --list",
     "swaks --to qa@example.test --server localhost:1025 --body x",
     "curl -s -X DELETE http://localhost:8025/api/v1/messages",
     "aws --endpoint-url http://localhost:4566 iam create-access-key --user-name test-user",
     "aws --endpoint-url=http://localhost:4566 iam attach-role-policy --role-name r "
     "--policy-arn arn:aws:iam::aws:policy/AdministratorAccess",
     "awslocal s3 rb s3://test --force"],
)  # fmt: skip
def test_tracker_and_filter_looks_are_not_asked(command: str) -> None:
    assert decided(command)[0] is None
