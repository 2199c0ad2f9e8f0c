"""Results and approval models of the reference's own classes are understood, never
dropped: a faithful in-process copy of the 2.x shape, and the real amplifier-core 2.x
(installed by `make test` beside the venv) in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Literal

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field

from amplifier_hooks import Coordinator, HookRegistry
from amplifier_hooks.amplifier.foreign_results import from_foreign
from tests.unavailable import unavailable

ROOT = Path(__file__).resolve().parents[2]
REFERENCE_CORE = ROOT / ".venv" / "reference" / "amplifier-core-2"
SCRIPT = ROOT / "tests" / "fixtures" / "amplifier" / "run_with_real_core.py"


class ForeignInjection(BaseModel):
    """The shape of amplifier-core 2.x's ContextInjection."""

    content: str
    role: Literal["system", "user", "assistant"] = "system"
    ephemeral: bool = False
    append_to_last_tool_result: bool = False
    hook_name: str = "unknown"
    event: str = ""


class ForeignResult(BaseModel):
    """The shape of amplifier-core 2.x's HookResult: not ours, not frozen, one more field."""

    model_config = ConfigDict(extra="allow")

    action: Literal["continue", "deny", "modify", "inject_context", "ask_user"] = "continue"
    data: dict[str, Any] | None = None
    reason: str | None = None
    context_injection: str | None = None
    context_injection_role: Literal["system", "user", "assistant"] = "system"
    ephemeral: bool = False
    approval_prompt: str | None = None
    approval_options: list[str] | None = None
    approval_timeout: float = 300.0
    approval_default: Literal["allow", "deny"] = "deny"
    suppress_output: bool = False
    user_message: str | None = None
    user_message_level: Literal["info", "warning", "error"] = "info"
    user_message_source: str | None = None
    append_to_last_tool_result: bool = False
    context_injections: list[ForeignInjection] = Field(default_factory=list)


async def emit_one(result: BaseModel, event: str = "tool:pre") -> Any:
    registry = HookRegistry()
    registry.register(event, lambda e, d: result, name="foreign")
    return await registry.emit(event, {"tool_name": "bash"})


async def test_a_foreign_deny_is_a_deny() -> None:
    resolution = await emit_one(ForeignResult(action="deny", reason="no"))
    assert (resolution.action, resolution.reason, resolution.denied_by) == ("deny", "no", "foreign")


async def test_a_deny_with_a_field_we_do_not_know_still_denies() -> None:
    resolution = await emit_one(ForeignResult(action="deny", reason="no", severity="high"))
    assert (resolution.action, resolution.reason) == ("deny", "no")


async def test_a_blocking_result_that_cannot_be_read_denies() -> None:
    broken = ForeignResult(action="ask_user", approval_options=[])  # invalid here
    resolution = await emit_one(broken)
    assert resolution.action == "deny"
    assert resolution.reason is not None and "could not be read" in resolution.reason


async def test_an_action_we_do_not_know_denies() -> None:
    result = ForeignResult.model_construct(**{**ForeignResult().model_dump(), "action": "halt"})
    resolution = await emit_one(result)
    assert resolution.action == "deny"
    assert resolution.reason == "unknown hook action 'halt'; denied rather than guessed"


async def test_an_unreadable_continue_is_a_failed_handler_not_a_deny() -> None:
    resolution = await emit_one(ForeignResult(action="modify"))  # modify without data
    assert resolution.action == "continue"
    [entry] = resolution.trace
    assert entry.failure == "invalid_return"


async def test_several_context_injections_are_kept_one_by_one() -> None:
    coord = Coordinator()
    result = ForeignResult(
        context_injections=[
            ForeignInjection(content="first"),
            ForeignInjection(content="second", role="user", ephemeral=True),
            ForeignInjection(content="third", role="assistant"),
        ]
    )
    coord.hooks.register("provider:request", lambda e, d: result, name="foreign")
    outcome = await coord.dispatch("provider:request", {})
    assert outcome.action == "inject_context"
    assert [(m["content"], m["role"]) for m in outcome.injected] == [
        ("first", "system"),
        ("third", "assistant"),
    ]
    assert [(m["content"], m["role"]) for m in outcome.ephemeral] == [("second", "user")]
    sources = {i.source for i in outcome.resolution.injections}  # type: ignore[union-attr]
    assert sources == {"foreign"}


async def test_a_modify_keeps_its_data_and_drops_injections() -> None:
    result = ForeignResult(
        action="modify", data={"x": 1}, context_injections=[ForeignInjection(content="c")]
    )
    resolution = await emit_one(result)
    assert resolution.action == "modify" and resolution.data == {"x": 1}
    assert resolution.injections == []


def test_modules_run_against_the_real_amplifier_core_2(tmp_path: Path) -> None:
    if not REFERENCE_CORE.is_dir():
        unavailable("amplifier-core 2.x not installed (run make test)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REFERENCE_CORE), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "bundle.yaml")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["version"].startswith("2.")
    assert report["alias"] is False  # the real one is used, never shadowed
    allowed, denied_by, reason = report["guarded"]
    assert (allowed, denied_by) == (False, "amp-shell-guard")
    assert reason.startswith("blocked by amp-shell-guard")
    assert report["listed"] is True
    assert report["refused"] == [False, "amp-approval"]
    # amp-approval (priority -10) lets rm through by policy; the guard then denies it.
    assert report["responses"] == [
        ["amplifier_core.interfaces", "ApprovalResponse", True],
        ["amplifier_core.interfaces", "ApprovalResponse", True],
        ["amplifier_core.interfaces", "ApprovalResponse", False],
    ]
    assert report["injected"] == [["first", "system"]]
    assert report["ephemeral"] == [["second", "user"]]


extra_values = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5))


@settings(max_examples=60, deadline=None)
@given(
    extra=st.dictionaries(
        st.from_regex(r"[a-z][a-z_]{0,10}", fullmatch=True).filter(
            lambda k: k not in ForeignResult.model_fields
        ),
        extra_values,
        max_size=3,
    ),
    approval_timeout=st.one_of(st.just(300.0), st.floats(allow_nan=True)),
    options=st.one_of(st.none(), st.lists(st.text(max_size=3), max_size=3)),
)
def test_a_foreign_deny_or_ask_is_never_read_as_a_continue(
    extra: dict[str, Any], approval_timeout: float, options: list[str] | None
) -> None:
    for action in ("deny", "ask_user"):
        values = {
            **ForeignResult(action=action).model_dump(),
            "approval_timeout": approval_timeout,
            "approval_options": options,
            **extra,
        }
        result = from_foreign(values)
        assert result.action in ("deny", "ask_user")
        if result.action == "ask_user":
            assert action == "ask_user"
