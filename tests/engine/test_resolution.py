"""`Resolution` as the fold builds it: straight from validated values, never re-validated."""

from __future__ import annotations

from amplifier_hooks.engine.resolution import Resolution, build_resolution


def test_build_resolution_fills_defaults_with_fresh_lists() -> None:
    first, second = build_resolution({"data": {"k": 1}}), build_resolution({})
    assert first == Resolution.model_construct(data={"k": 1})
    assert first.trace is not second.trace and first.injections is not second.injections
    assert (first.action, first.approval_timeout, first.allowed) == ("continue", 300.0, True)
    # The shortcut is only valid while Resolution has nothing model_construct would add.
    assert not Resolution.__private_attributes__
    assert Resolution.__pydantic_post_init__ is None
    assert Resolution.model_config.get("extra") != "allow"
