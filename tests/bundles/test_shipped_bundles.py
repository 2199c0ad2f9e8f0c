"""The bundles and the documentation examples that ship with the project load."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.bundles.loading import MountedBundle, build_coordinator

from .conftest import (
    PROJECT_ROOT,
    ROOT,
    first_yaml_example,
)


async def test_the_main_example_in_the_bundle_docs_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/bundles.md's first example, placed in a folder beside bundles/ and modules/."""
    root = PROJECT_ROOT
    example = first_yaml_example(root / "docs" / "bundles.md")
    for name in ("bundles", "modules"):
        (tmp_path / name).symlink_to(root / name)
    (tmp_path / "mine").mkdir()
    path = tmp_path / "mine" / "my-agent.yaml"
    path.write_text(example, encoding="utf-8")
    monkeypatch.setenv("AGENT_LOG", str(tmp_path / "agent.jsonl"))
    coordinator = await build_coordinator(path, strict=True, approval_store=":memory:")
    try:
        handlers = coordinator.hooks.handler_info()
    finally:
        await coordinator.cleanup()
    owners = {info.owner for info in handlers}
    assert "ah-shell" in owners and "ah-progress-monitor" not in owners
    [log_event] = [i for i in handlers if i.name == "log_event" and i.event == "tool:pre"]
    assert (log_event.priority, log_event.timeout) == (2000, 5.0)


@pytest.mark.parametrize("name", ["default.md", "strict.yaml", "minimal.yaml"])
async def test_shipped_bundles_mount_strictly(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AMPLIFIER_HOOKS_LOG", str(tmp_path / "events.jsonl"))
    coord = await build_coordinator(ROOT / "bundles" / name, strict=True, approval_store=":memory:")
    session = MountedBundle.of(coord)
    assert session is not None and session.bundle is not None
    assert [m.key for m in session.modules] == [e.key for e in session.bundle.hooks]
    outcome = await coord.dispatch(
        "tool:pre", {"tool_name": "bash", "tool_input": {"command": "rm -rf /"}}
    )
    assert outcome.allowed is (name == "minimal.yaml")  # approvals deny where mounted
    await coord.cleanup()
    assert coord.hooks.handler_info() == []
