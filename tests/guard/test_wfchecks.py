"""What the text written into a GitHub workflow lets others do (`wfchecks`), on every route
(a file tool, a shell editor's in-place edit); everyday workflow edits stay free."""

from __future__ import annotations

from typing import Any

from amplifier_hooks.guard import Places, Policy, judge
from amplifier_hooks.guard.wfchecks import (
    ACTION_MOVING,
    ARTIFACT_RUN,
    INJECTION,
    SELF_HOSTED,
    TOKEN_WIDENED,
    TRIGGER,
    TUNNEL,
    UPLOAD_CHECKOUT,
    workflow_marks,
)
from amplifier_hooks.guard.wfedits import _assigned, _written

WF = "/nowhere/project/.github/workflows/ci.yml"


def call(pack: Policy, places: Places, tool: str, **inputs: Any) -> tuple[str | None, str | None]:
    verdict = judge({"tool_name": tool, "tool_input": inputs}, pack, places)
    return verdict.decision, verdict.rule


# -- script injection ------------------------------------------------------------------------


def test_an_untrusted_context_in_a_run_script_is_marked() -> None:
    text = '      - run: echo "${{ github.event.issue.title }}"\n'
    assert INJECTION in workflow_marks(WF, text)
    env = '- run: echo "T=${{ github.head_ref }}" >> $GITHUB_ENV\n'
    assert INJECTION in workflow_marks(WF, env)


def test_a_trusted_context_or_one_passed_through_env_is_not() -> None:
    assert workflow_marks(WF, '- run: echo "${{ github.sha }}"\n') == ()
    through_env = '- run: echo "$TITLE"\n  env:\n    TITLE: ${{ github.event.issue.title }}\n'
    assert INJECTION not in workflow_marks(WF, through_env)


def test_injection_is_denied(pack: Policy, places: Places) -> None:
    new = "      - run: |\n          echo ${{ github.event.comment.body }}\n"
    got = call(pack, places, "Edit", file_path=str(places.workspace) + "/.github/workflows/t.yml",
               old_string="      - run: echo hi\n", new_string=new)  # fmt: skip
    assert got == ("deny", "ci-script-injection")


# -- triggers and the token ------------------------------------------------------------------


def test_a_switch_to_pull_request_target_is_marked_when_code_runs_or_not_in_view() -> None:
    assert TRIGGER in workflow_marks(WF, "on:\n  pull_request_target:\n    branches: [main]\n")
    labels = (
        "on: [pull_request_target]\njobs:\n  l:\n    steps:\n      - uses: actions/labeler@v5\n"
    )
    assert TRIGGER not in workflow_marks(WF, labels)
    runs = "on: pull_request_target\njobs:\n  b:\n    steps:\n      - run: make\n"
    assert TRIGGER in workflow_marks(WF, runs)


def test_write_all_and_scoped_writes_on_others_triggers() -> None:
    assert TOKEN_WIDENED in workflow_marks(WF, "permissions: write-all\n")
    pr = "on: pull_request\npermissions:\n  contents: write\n"
    assert TOKEN_WIDENED in workflow_marks(WF, pr)
    release = "on:\n  push:\n    tags: ['v*']\npermissions:\n  contents: write\n  id-token: write\n"
    assert TOKEN_WIDENED not in workflow_marks(WF, release)


# -- actions, artifacts, runners -------------------------------------------------------------


def test_a_debug_tunnel_a_moving_action_and_a_hidden_upload() -> None:
    assert TUNNEL in workflow_marks(WF, "- uses: mxschmitt/action-tmate@v3\n")
    assert ACTION_MOVING in workflow_marks(WF, "- uses: someone/action@main\n")
    assert workflow_marks(WF, "- uses: actions/checkout@main\n") == ()
    assert workflow_marks(WF, "- uses: pypa/gh-action-pypi-publish@release/v1\n") == ()
    assert workflow_marks(WF, "- uses: codecov/codecov-action@v4\n") == ()
    assert UPLOAD_CHECKOUT in workflow_marks(WF, "path: .\ninclude-hidden-files: true\n")
    assert workflow_marks(WF, "path: dist/\ninclude-hidden-files: true\n") == ()


def test_workflow_run_artifacts_run_and_self_hosted() -> None:
    text = (
        "on:\n  workflow_run:\n    workflows: [CI]\njobs:\n  c:\n    steps:\n"
        "      - uses: actions/download-artifact@v4\n      - run: bash ./x.sh\n"
    )
    assert ARTIFACT_RUN in workflow_marks(WF, text)
    assert ARTIFACT_RUN not in workflow_marks(WF, text.replace("workflow_run", "push"))
    assert SELF_HOSTED in workflow_marks(WF, "    runs-on: [self-hosted, linux]\n")
    push = "on: push\njobs:\n  b:\n    runs-on: self-hosted\n    steps:\n      - run: make\n"
    assert SELF_HOSTED not in workflow_marks(WF, push)


def test_unreadable_long_or_empty_text_has_no_marks() -> None:
    assert workflow_marks(WF, "") == ()
    assert workflow_marks(WF, "x" * (300 * 1024)) == ()
    assert workflow_marks(WF, "{{{ not yaml") == ()


# -- shell editors ---------------------------------------------------------------------------


def test_sed_and_yq_texts() -> None:
    assert _written("sed", ("-i", "s/a:/b:/", ".github/workflows/x.yml")) == ["b:"]
    assert _written("sed", ("-i", "s", ".github/workflows/x.yml")) == []
    assert _assigned('.permissions = "write-all"') == ['permissions: "write-all"']
    assert _assigned(".on.push |= {}") == ["on:\n  push: {}"]
    assert _assigned(".a") == []


def test_in_place_edits_of_a_workflow_are_judged(pack: Policy, places: Places) -> None:
    sed = "sed -i 's/^  pull_request:/  pull_request_target:/' .github/workflows/t.yml"
    assert call(pack, places, "Bash", command=sed) == ("ask", "ci-trigger-untrusted")
    yq = "yq -i '.permissions = \"write-all\"' .github/workflows/t.yml"
    assert call(pack, places, "Bash", command=yq) == ("ask", "ci-token-widened")
    long = yq.replace("-i", "--inplace")
    assert call(pack, places, "Bash", command=long) == ("ask", "ci-token-widened")
    everyday = "sed -i 's/node-version: 18/node-version: 20/' .github/workflows/t.yml"
    assert call(pack, places, "Bash", command=everyday)[0] not in ("ask", "deny")
    assert call(pack, places, "Bash", command="sed 's/a/b/' .github/workflows/t.yml")[0] == "allow"


def test_the_signing_key_git_names_is_a_key_read(pack: Policy, places: Places) -> None:
    read = 'cat "$(git config --get user.signingkey | sed s/.pub$//)"'
    assert call(pack, places, "Bash", command=read) == ("deny", "signing-key-read")
    copy = "cp $(git config user.signingKey) /tmp/k"
    assert call(pack, places, "Bash", command=copy)[0] == "deny"
    assert call(pack, places, "Bash", command="git config --get user.signingkey")[0] != "deny"
    public = 'ssh-keygen -y -f "$(git config user.signingkey)"'
    assert call(pack, places, "Bash", command=public)[1] != "signing-key-read"
