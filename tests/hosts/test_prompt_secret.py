"""A Claude Code prompt that holds a secret is blocked with what was found and where to
change that rule -- not "a hook changed host, prompt of UserPromptSubmit, which
claude-code cannot apply"."""

from __future__ import annotations

from pathlib import Path

from amplifier_hooks.hosts import CLAUDE_CODE, answer_in_process
from tests.hosts.support import ROOT, fixture

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


async def test_a_prompt_with_a_github_token_says_what_was_found_and_what_to_change(
    tmp_path: Path,
) -> None:
    payload = fixture("claude-code", "UserPromptSubmit")
    payload["cwd"] = str(tmp_path)
    payload["prompt"] = f"push with token {TOKEN} please"
    answer = await answer_in_process(
        ROOT / "bundles" / "default.md", payload, CLAUDE_CODE, approval_store=":memory:"
    )
    assert answer.output is not None and answer.output["decision"] == "block"
    reason = answer.output["reason"]
    assert reason.startswith(
        "your prompt holds a GitHub token (ah-redaction rule github_token); remove it and "
        "send the prompt again"
    )
    assert reason.endswith(
        "(to let it through, list the rule under ah-redaction's disabled_rules in the "
        "bundle); claude-code cannot apply a change to the prompt (UserPromptSubmit) "
        "(the change came from handler redact_secrets)"
    )
    assert TOKEN not in reason and "a hook changed host" not in reason
