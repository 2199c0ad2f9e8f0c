"""ah-redaction: secrets (and opt-in PII) are scrubbed from payloads through a real
Coordinator; tool events are left alone unless configured; clean events cost no modify."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from amplifier_module_ah_redaction import (
    BUILTIN_RULES,
    CAPABILITY,
    HANDLER_NAME,
    RedactionConfig,
    Redactor,
    marker,
    mount,
    on_session_ready,
)
from amplifier_module_ah_redaction.rules import PII_RULES, SECRET_RULES
from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks.session.coordinator import Coordinator

OPENAI_KEY = "sk-proj-" + "Ab3" * 10
GITHUB_TOKEN = "ghp_" + "x7" * 18

SECRETS: dict[str, str] = {
    "private_key": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n"
    "-----END OPENSSH PRIVATE KEY-----",
    "anthropic_api_key": "sk-ant-api03-" + "q" * 40,
    "openai_api_key": OPENAI_KEY,
    "aws_access_key_id": "AKIAIOSFODNN7EXAMPLE",
    "github_token": GITHUB_TOKEN,
    "slack_token": "xoxb-123456789012-abcdefABCDEF",
    "slack_webhook": "https://hooks.slack.com/services/T000/B000/XXXXXXXX",
    "google_api_key": "AIza" + "S" * 35,
    "stripe_key": "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc",
    "stripe_webhook_secret": "whsec_" + "8Jq2LkVn4RtY7uPz0aXc5bMdE1fG3hK6",
    "discord_token": "MTE4MjczNDY1MDE5MjgzNzQ2NQ" + ".GbX9kQ.EXAMPLEq2Zr8vW0nLkT5yHjPdsA1cFuM4oIe",
    "google_oauth_token": "ya29." + "a0AfB_byC3xKq9ExampleTokenValue0123456789",
    "npm_token": "npm_" + "Zq7Lm2Xw9Rt4" * 3,
    "pypi_token": "pypi-AgEIcHlwaS5vcmc" + "CJGI3ZDVlYzFhLTQ5ZjYtNGQ3Ni1hZjM0LWE5OWY3OGQ2ZTRiNw",
    "huggingface_token": "hf_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ" + "ab12cd34",
    "gitlab_token": "glpat-" + "aB3dE5fG7hJ9kL1mN3pQ",
    "figma_token": "figd_" + "9Xk2LmQpR7tY4vBn8sW3eZ1aH6cJ0uDf",
    "digitalocean_token": "dop_v1_" + "0a1b2c3d" * 8,
    "shopify_token": "shpat_" + "0123456789abcdef" * 2,
    "linear_api_key": "lin_api_" + "a1B2c3D4e5" * 4,
    "sendgrid_key": "SG." + "aB3dE5fG7hJ9kL1mN3pQ7r" + "." + "x" * 43,
    "mailchimp_key": "8f3c2a91d0b47e5f" + "6a1c9d2e3b4f5a60" + "-us21",
    "age_secret_key": "AGE-SECRET-KEY-1" + "QYQSZQGP" * 7 + "KP",
    "tailscale_key": "tskey-auth-" + "kQ7xYz1CNTRL-" + "8hJ3mN5pQ2rS4tU6vW8xY",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP",
    "bearer_token": "Bearer 0123456789abcdefXYZ.token",
    "basic_auth": "Authorization: Basic dXNlcjpodW50ZXIy",
    "url_credentials": "https://deploy:hunter22@git.example.com/repo.git",
    "signed_url": "https://acme.blob.core.windows.net/c?sv=2022-11-02&sp=r"
    "&sig=4kXq0m%2Bq7G2t8yB1vZx0cX1kR9pQ3b8nV4sJ2a5mF0E%3D",
    "secret_assignment": "DB_PASSWORD=hunter2!",
}
# The part of each sample that must disappear (the whole sample, unless context survives).
SECRET_PART = {
    "bearer_token": "0123456789abcdefXYZ.token",
    "basic_auth": "dXNlcjpodW50ZXIy",
    "url_credentials": "hunter22",
    "signed_url": "4kXq0m%2Bq7G2t8yB1vZx0cX1kR9pQ3b8nV4sJ2a5mF0E%3D",
    "secret_assignment": "hunter2!",
}


async def mounted(config: dict[str, Any] | None = None) -> Coordinator:
    coordinator = Coordinator()
    coordinator.register_cleanup(await mount(coordinator, config))
    return coordinator


def step(outcome: Any, name: str = HANDLER_NAME) -> str:
    """The action the named handler took in this dispatch."""
    action: str = next(t.action for t in outcome.resolution.trace if t.handler == name)
    return action


def test_every_builtin_secret_rule_has_a_sample() -> None:
    secret_rules = {name for name, rule in BUILTIN_RULES.items() if not rule.pii}
    assert secret_rules == set(SECRETS)


@pytest.mark.parametrize("rule", sorted(SECRETS))
async def test_builtin_rule_scrubs_its_secret(rule: str) -> None:
    coordinator = await mounted()
    text = f"please use {SECRETS[rule]} for this"
    outcome = await coordinator.dispatch("prompt:submit", {"prompt": text})

    assert outcome.allowed
    assert step(outcome) == "modify"
    prompt = outcome.data["prompt"]
    assert f"[REDACTED:{rule}]" in prompt
    assert SECRET_PART.get(rule, SECRETS[rule]) not in prompt
    assert prompt.startswith("please use ") and prompt.endswith(" for this")


async def test_nested_payload_is_scrubbed_without_touching_the_input() -> None:
    coordinator = await mounted()
    data = {
        "model": "gpt-x",
        "messages": [
            {"role": "user", "content": f"key {OPENAI_KEY}"},
            {"role": "tool", "content": [{"type": "text", "text": f"token {GITHUB_TOKEN}"}]},
            {"role": "assistant", "content": "nothing secret"},
        ],
    }
    before = copy.deepcopy(data)
    outcome = await coordinator.dispatch("provider:request", data)

    assert data == before  # the caller's payload is never mutated
    messages = outcome.data["messages"]
    assert messages[0]["content"] == "key [REDACTED:openai_api_key]"
    assert messages[1]["content"][0]["text"] == "token [REDACTED:github_token]"
    assert messages[2] == before["messages"][2]
    assert outcome.data["model"] == "gpt-x"


async def test_clean_event_returns_no_modify() -> None:
    coordinator = await mounted()
    outcome = await coordinator.dispatch("prompt:submit", {"prompt": "refactor the parser"})
    assert step(outcome) == "continue"
    assert outcome.data["prompt"] == "refactor the parser"


async def test_code_and_counts_are_not_mistaken_for_secrets() -> None:
    coordinator = await mounted()
    text = (
        "def login(password: str, token: Optional[str]) -> None:\n"
        "    token = os.environ['API_TOKEN']\n"
        "settings = {'max_tokens': 1000, 'token_count': 12}\n"
        "task-abcdefghijklmnopqrstuvwxyz0123 is a branch name"
    )
    outcome = await coordinator.dispatch("provider:response", {"content": text})
    assert step(outcome) == "continue"
    assert outcome.data["content"] == text


async def test_fields_named_like_secrets_are_blanked() -> None:
    coordinator = await mounted()
    data = {"config": {"db_password": "pa55", "pin_token": 1234, "max_tokens": 50, "ok": True}}
    outcome = await coordinator.dispatch("session:start", data)
    assert outcome.data["config"] == {
        "db_password": "[REDACTED:secret_field]",
        "pin_token": "[REDACTED:secret_field]",
        "max_tokens": 50,
        "ok": True,
    }

    relaxed = await mounted({"disabled_rules": ["secret_field"]})
    outcome = await relaxed.dispatch("session:start", data)
    assert outcome.data["config"]["db_password"] == "pa55"


async def test_tool_events_untouched_unless_configured() -> None:
    payload = {
        "tool_name": "bash",
        "tool_input": {"command": f"curl -H 'Authorization: Bearer {OPENAI_KEY}' x"},
        "tool_result": f"export GITHUB_TOKEN={GITHUB_TOKEN}",
    }
    default = await mounted()
    for event in ("tool:pre", "tool:post"):
        outcome = await default.dispatch(event, payload)
        assert outcome.data["tool_input"] == payload["tool_input"]
        assert outcome.data["tool_result"] == payload["tool_result"]
    assert "tool:post" not in default.hooks.list_handlers()

    opted_in = await mounted({"events": ["tool:post"], "exclude_events": []})
    outcome = await opted_in.dispatch("tool:post", payload)
    assert outcome.data["tool_result"] == "export GITHUB_TOKEN=[REDACTED:github_token]"
    assert opted_in.hooks.list_handlers("prompt:submit") == {"prompt:submit": []}


async def test_pii_only_when_enabled() -> None:
    text = (
        "mail ada@example.org, call +1 415-555-2671, "
        "card 4111 1111 1111 1111, not a card 4111 1111 1111 1112, ssn 123-45-6789"
    )
    plain = await mounted()
    assert (await plain.dispatch("prompt:submit", {"prompt": text})).data["prompt"] == text

    strict = await mounted({"pii": True})
    scrubbed = (await strict.dispatch("prompt:submit", {"prompt": text})).data["prompt"]
    assert scrubbed == (
        "mail [REDACTED:email], call [REDACTED:phone], "
        "card [REDACTED:credit_card], not a card 4111 1111 1111 1112, ssn [REDACTED:us_ssn]"
    )


async def test_extra_patterns_with_secret_group_and_ignore_case() -> None:
    coordinator = await mounted(
        {
            "extra_patterns": [
                {"name": "ticket_secret", "pattern": r"ticket=(?P<secret>T-\d{6})"},
                {
                    "name": "internal_host",
                    "pattern": r"\bcorp-[a-z]+\.internal\b",
                    "ignore_case": True,
                },
                {"name": "pin", "pattern": r"^\d{4}$"},
            ]
        }
    )
    outcome = await coordinator.dispatch(
        "prompt:submit",
        {"prompt": "see ticket=T-123456 on CORP-Build.Internal", "pin": "7391"},
    )
    assert outcome.data["prompt"] == (
        "see ticket=[REDACTED:ticket_secret] on [REDACTED:internal_host]"
    )
    # User rules see short strings too, shorter than any built-in secret.
    assert outcome.data["pin"] == "[REDACTED:pin]"


async def test_redaction_runs_before_later_handlers() -> None:
    coordinator = await mounted()
    seen: list[dict[str, Any]] = []

    def recorder(event: str, data: dict[str, Any]) -> None:
        seen.append(data)

    coordinator.hooks.register("prompt:submit", recorder, priority=1000, name="recorder")
    await coordinator.dispatch("prompt:submit", {"prompt": f"key {OPENAI_KEY}"})
    assert seen[0]["prompt"] == "key [REDACTED:openai_api_key]"


async def test_contributed_events_are_covered_after_session_ready() -> None:
    coordinator = await mounted()
    coordinator.register_contributor("observability.events", "deploy", lambda: ["deploy:done"])
    assert "deploy:done" not in coordinator.hooks.events()

    await on_session_ready(coordinator)
    outcome = await coordinator.dispatch("deploy:done", {"log": f"pushed with {GITHUB_TOKEN}"})
    assert outcome.data["log"] == "pushed with [REDACTED:github_token]"
    assert coordinator.hooks.list_handlers("deploy:done") == {"deploy:done": [HANDLER_NAME]}


async def test_capability_and_cleanup() -> None:
    coordinator = Coordinator()
    cleanup = await mount(coordinator, {})
    scrub = coordinator.get_capability(CAPABILITY)
    original = {"note": f"k={OPENAI_KEY}"}
    assert scrub(original) == {"note": "k=[REDACTED:openai_api_key]"}
    assert original == {"note": f"k={OPENAI_KEY}"}

    cleanup()
    assert coordinator.get_capability(CAPABILITY) is None
    assert HANDLER_NAME not in str(coordinator.hooks.list_handlers())
    outcome = await coordinator.dispatch("prompt:submit", {"prompt": OPENAI_KEY})
    assert outcome.data["prompt"] == OPENAI_KEY


async def test_secret_never_reaches_the_logs(logs: list[dict[str, Any]]) -> None:
    coordinator = await mounted()
    outcome = await coordinator.dispatch("prompt:submit", {"prompt": f"use {OPENAI_KEY}"})
    assert step(outcome) == "modify"
    assert all(OPENAI_KEY not in repr(entry) for entry in logs)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"extra_patterns": [{"name": "x", "pattern": "(unclosed"}]}, "invalid regular expression"),
        ({"extra_patterns": [{"name": "x", "pattern": "a*"}]}, "matches the empty string"),
        ({"extra_patterns": [{"name": "jwt", "pattern": "abc"}]}, "taken by a built-in rule"),
        (
            {"extra_patterns": [{"name": "a", "pattern": "x1"}, {"name": "a", "pattern": "x2"}]},
            "duplicate extra pattern",
        ),
        ({"disabled_rules": ["openai"]}, "unknown rule(s) openai"),
        ({"events": ["Tool:Pre"]}, "invalid event name"),
        ({"events": "prompt:submit"}, "events"),
        ({"pii": "sometimes"}, "pii"),
        ({"redact": True}, "redact"),
        (["not", "a", "mapping"], "must be a mapping"),
    ],
)
async def test_bad_config_is_a_clear_error(config: Any, message: str) -> None:
    coordinator = Coordinator()
    with pytest.raises(ValueError, match="ah-redaction") as info:
        await mount(coordinator, config)
    assert message in str(info.value)
    assert coordinator.hooks.events() == []


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=30)
    | st.sampled_from([OPENAI_KEY, GITHUB_TOKEN, "password=hunter2!", "ada@example.org"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=75, deadline=None)
@given(_json)
def test_scrub_never_mutates_is_idempotent_and_keeps_clean_data(value: Any) -> None:
    redactor = Redactor(RedactionConfig(pii=True))
    before = copy.deepcopy(value)
    scrubbed, counts = redactor.scrubber.scrub(value)
    assert value == before
    again, more = redactor.scrubber.scrub(scrubbed)
    assert again == scrubbed and not more
    if not counts:
        assert scrubbed is value
    assert OPENAI_KEY not in repr(scrubbed) and GITHUB_TOKEN not in repr(scrubbed)


_HINT_PIECES = sorted({h for r in (*SECRET_RULES, *PII_RULES) for h in r.hints})


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.lists(
            st.sampled_from(_HINT_PIECES)
            | st.sampled_from([h.upper() for h in _HINT_PIECES])
            | st.sampled_from(sorted(SECRETS.values()))
            | st.text(alphabet=st.sampled_from("aKkSs-_:/@ \0\u03a3\u0131\u0130xX0"), max_size=6),
            max_size=4,
        ).map("".join),
        max_size=6,
    ),
    st.booleans(),
)
def test_unchanged_vouches_only_for_texts_the_scrub_hands_back_as_they_are(
    texts: list[str], pii: bool
) -> None:
    # ah-logging asks once per record whether the scrub would change any of its strings,
    # and writes them unscrubbed when told no: a yes-by-mistake would log a secret.
    redactor = Redactor(RedactionConfig(pii=pii))
    if redactor.unchanged(texts):
        assert all(redactor(text) is text for text in texts)


def test_unchanged_says_no_for_a_secret_among_clean_texts() -> None:
    redactor = Redactor(RedactionConfig())
    clean = ["/tmp/notes.txt", "PreToolUse", "git status"]
    assert redactor.unchanged(clean)
    for secret in SECRETS.values():
        assert not redactor.unchanged([*clean, secret])
    # A rule of the user's has no hints: every text must be scrubbed on its own.
    custom = Redactor(
        RedactionConfig.model_validate({"extra_patterns": [{"name": "x", "pattern": "zz"}]})
    )
    assert not custom.unchanged(clean)


@pytest.mark.parametrize("name", sorted(SECRETS))
def test_a_long_text_is_vouched_for_only_without_a_secret(name: str) -> None:
    # A tool result: long texts are looked at once and remembered, and asked about again
    # by the event log and the scrub of the same result.
    redactor = Redactor(RedactionConfig())
    prose = "the password and the token are set by the person, not here. " * 8
    secret = f"{prose}\n{SECRETS[name]}\n{prose}"
    assert redactor.unchanged([prose, "git status"])
    assert redactor(prose) is prose
    for _ in range(2):
        assert not redactor.unchanged(["git status", secret])
        assert SECRETS[name] not in redactor(secret)


@pytest.mark.parametrize("name", sorted(SECRETS))
def test_a_string_given_alone_to_the_capability_is_scrubbed(name: str) -> None:
    # ah-logging hands the capability one string at a time.
    redactor = Redactor(RedactionConfig())
    text = f"see {SECRETS[name]} here"
    scrubbed = redactor.scrub(text)
    assert SECRET_PART.get(name, SECRETS[name]) not in scrubbed
    assert marker(name) in scrubbed
    assert redactor.scrub("nothing to see here") == "nothing to see here"


def test_sessions_with_the_same_rules_share_one_scrubber() -> None:
    # A server mounts ah-redaction in every session: the rules are compiled once per
    # configuration, and the memo of long strings is not held once per session.
    first, second = Redactor(RedactionConfig()), Redactor(RedactionConfig())
    assert first.scrubber is second.scrubber
    other = Redactor(RedactionConfig(disabled_rules=["jwt"]))
    assert other.scrubber is not first.scrubber
    assert "jwt" not in [rule.name for rule in other.rules]
    assert marker("jwt") in first.scrub(SECRETS["jwt"])
    assert other.scrub(SECRETS["jwt"]) == SECRETS["jwt"]
