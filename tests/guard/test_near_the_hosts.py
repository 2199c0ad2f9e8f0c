"""Everyday work near the agents' and the guard's own tools stays free, and the calls that
look like it but change something are still stopped, each for the reason it does."""

from __future__ import annotations

import pytest

from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "command",
    ["amplifier-hooks approve --list", "amplifier-hooks approve --list --json",
     "terraform state list", "terraform state show aws_instance.web", "tofu state list",
     "NODE_OPTIONS=--max-old-space-size=4096 npm run build",
     "NODE_OPTIONS='--max-old-space-size=4096 --enable-source-maps' npm test"],
)  # fmt: skip
def test_reading_and_sizing_are_not_stopped(verdict: Judge, command: str) -> None:
    assert verdict(command).decision not in ("ask", "deny")


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [
        ("amplifier-hooks approve 7 --allow", "deny", "guard-self-approve"),
        ("amplifier-hooks approve --lis", "deny", "guard-self-approve"),  # read as written
        ("terraform state rm aws_instance.web", "ask", "infrastructure-change"),
        ("terraform state mv a b", "ask", "infrastructure-state-change"),
        ("pulumi state delete urn:x", "ask", "infrastructure-state-change"),
        ("NODE_OPTIONS=--import=./hook.mjs npm test", "ask", "inline-code"),
        ("NODE_OPTIONS='--max-old-space-size=4096 --inspect' npm start", "ask", "inline-code"),
    ],
)
def test_answering_state_changes_and_loaded_code_still_stop(
    verdict: Judge, command: str, decision: str, rule: str
) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == (decision, rule)


def test_a_link_names_where_it_is_made_not_what_it_points_to(verdict: Judge) -> None:
    found = verdict("ln -sf /bin/true /opt/tools/bin/mytool")
    assert found.decision == "ask"
    assert "/opt/tools/bin/mytool" in (found.reason or "")
    assert "/bin/true" not in (found.reason or "").replace("/opt/tools/bin", "")
    # a link in the workspace to a file outside it writes only the link
    assert verdict("ln -sf ../shared/tsconfig.base.json tsconfig.base.json").decision != "ask"
    assert verdict("cp /etc/hosts hosts.txt").decision != "ask"


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("cp -a ../starter/. .", "copy-over-workspace"),
        ("rsync -a ../starter/ ./", "copy-over-workspace"),
        ("unzip -o /tmp/template.zip -d .", "unzip-over-workspace"),
        ("unzip -oq /tmp/template.zip", "unzip-over-workspace"),
    ],
)
def test_a_tree_copied_over_the_workspace_is_asked(verdict: Judge, command: str, rule: str) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == ("ask", rule)


@pytest.mark.parametrize(
    "command",
    ["unzip /tmp/template.zip -d .", "unzip -o /tmp/template.zip -d vendor",
     "cp -r ../starter/src ./src2"],
)  # fmt: skip
def test_unpacking_that_replaces_nothing_unasked_stays_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision not in ("ask", "deny")


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [
        ("echo https://index.docker.io/v1/ | docker-credential-desktop get", "deny",
         "credential-print-docker-helper"),
        ("npm config get //registry.npmjs.org/:_authToken", "deny", "credential-print-config"),
        ("gh config get -h github.com oauth_token", "deny", "credential-print-config"),
        ("vault kv get -field=password secret/prod/db", "deny", "credential-print-vault"),
        ("declare -p GITHUB_TOKEN", "deny", "secret-variable-declare"),
        ("openclaw config set plugins.entries.amplifier-hooks.enabled false", "deny",
         "agent-cli-plugins-off"),
        ("openclaw config unset plugins.entries.amplifier-hooks", "deny",
         "agent-cli-plugins-off"),
        ("openclaw plugins disable amplifier-hooks", "deny", "agent-cli-plugins-off"),
        ("openclaw plugins uninstall amplifier-hooks", "deny", "agent-cli-plugins-off"),
        ("openclaw agent exec -m 'ship it'", "deny", "agent-cli-runs-no-plugins"),
        ("yq -i '.plugins.enabled = false' ~/.openclaw/openclaw.json", "deny",
         "self-protect-hook-settings"),
        # openclaw.json keeps the gateway's token and providers' keys beside the settings
        ("yq '.plugins' ~/.openclaw/openclaw.json", "deny", "credential-read"),
        ("claude plugin install helper@market", "deny", "agent-cli-extension-install"),
        ("gemini extensions install https://example.com/ext", "deny",
         "agent-cli-extension-install"),
        ("gh workflow run deploy.yml -f env=prod", "ask", "github-workflow-run"),
        ("gh pr merge 42 --admin --squash", "ask", "github-merge-admin"),
        # a merge changes the branch others pull from at once (GitHub's MCP
        # merge_pull_request is judged as this command too)
        ("gh pr merge 42 --squash", "ask", "github-pr-merge"),
        ("find . -name '*.json' -delete", "deny", "find-delete-settings-names"),
        ("rm -rf .[!.]*", "deny", "self-protect-hook-folders"),  # the project is not on disk
    ],
)  # fmt: skip
def test_secrets_host_clis_and_bulk_deletes_are_stopped(
    verdict: Judge, command: str, decision: str, rule: str
) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == (decision, rule)


@pytest.mark.parametrize(
    "command",
    ["docker-credential-desktop list", "npm config get registry", "gh config get git_protocol",
     "vault kv list secret/", "declare -p PATH", "openclaw plugins list",
     "openclaw config set agents.defaults.model.primary gpt", "openclaw agent --local -m hi",
     "yq -i '.version = \"2\"' config.yaml", "ls ~/.openclaw", "yq '.plugins' opencode.json",
     "claude plugin list", "gh workflow list", "gh run list", "gh pr view 42",
     "find . -name '*.pyc' -delete", "find build -name '*.json' -delete", "rm -rf build/*"],
)  # fmt: skip
def test_their_everyday_neighbours_are_not(verdict: Judge, command: str) -> None:
    assert verdict(command).decision not in ("ask", "deny")


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [
        ("ln -sf /bin/true /opt/env/bin/amplifier-hooks", "deny", "self-protect-guard-copies"),
        ("sed -i s/deny/allow/ /opt/env/lib/python3.12/site-packages/amplifier_hooks/x.py",
         "deny", "self-protect-guard-copies"),
        ("cp evil.pth /opt/env/lib/python3.12/site-packages/zz.pth", "deny",
         "self-protect-guard-copies"),
        ("sed -i s/a/b/ .venv/lib/python3.12/site-packages/amplifier_hooks/x.py", "ask",
         "self-protect-guard-copies-here"),
        ("pip install --force-reinstall git+https://example.com/amplifier-hooks@x", "deny",
         "guard-package-replace"),
    ],
)  # fmt: skip
def test_any_installed_copy_of_the_guard_is_protected(
    verdict: Judge, command: str, decision: str, rule: str
) -> None:
    """Not only the copy judging: a host's hooks may run another one (another virtualenv)."""
    found = verdict(command)
    assert (found.decision, found.rule) == (decision, rule)


@pytest.mark.parametrize(
    "command",
    ["pip install -e .", "pip install requests",
     "cat /opt/env/lib/python3.12/site-packages/amplifier_hooks/__init__.py"],
)  # fmt: skip
def test_installing_others_and_reading_the_guard_stay_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision not in ("ask", "deny")
