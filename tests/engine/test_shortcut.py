"""What `amplifier_hooks.engine.shortcut` relies on in pydantic, checked against the
installed release: a release that changes one of these fails here, not in an emit."""

from __future__ import annotations

from typing import Any

import pydantic
from pydantic import BaseModel

from amplifier_hooks import HookResult
from amplifier_hooks.engine.resolution import ApprovalAsk, Resolution, build_resolution
from amplifier_hooks.engine.shortcut import construct, fields, is_checked, mark_unchecked

VALUES: dict[str, Any] = {"action": "modify", "data": {"k": 1}, "reason": "why"}


def test_field_values_are_the_instance_dict_one_entry_per_field() -> None:
    result = HookResult(**VALUES)
    assert fields(result) is result.__dict__
    assert fields(result) == result.model_dump()
    assert set(fields(result)) == set(HookResult.model_fields)


def test_the_instance_slots_construct_writes_are_basemodels() -> None:
    slots = set(BaseModel.__slots__)
    assert {"__dict__", "__pydantic_fields_set__", "__pydantic_extra__"} <= slots
    assert "__pydantic_private__" in slots


def test_construct_builds_what_model_construct_builds() -> None:
    for model, values in (
        (Resolution, dict(build_resolution({"action": "deny", "reason": "no"}))),
        (
            ApprovalAsk,
            {
                "source": "h",
                "prompt": "ok?",
                "options": ["Allow"],
                "timeout": 1.0,
                "default": "deny",
            },
        ),
    ):
        full = {**model.model_construct(**values).__dict__, **values}  # every field present
        assert set(full) == set(model.model_fields)
        fast = construct(model, dict(full))
        reference = model.model_construct(**full)
        assert fast == reference
        assert fast.__dict__ == reference.__dict__
        assert fast.model_fields_set == set(model.model_fields) == reference.model_fields_set
        assert fast.__pydantic_extra__ is None and fast.__pydantic_private__ is None
        assert model.model_validate(fast.model_dump()) == fast
        assert fast.model_copy(update={"reason": "r"}).reason == "r"


def test_validation_makes_a_plain_set_and_the_mark_survives_pydantic() -> None:
    result = HookResult(**VALUES)
    assert type(result.__pydantic_fields_set__) is set and is_checked(result)
    assert is_checked(HookResult.model_validate(VALUES))
    # What pydantic builds without validating is marked, and keeps its mark.
    constructed = HookResult.model_construct(**VALUES)
    updated = result.model_copy(update={"reason": "changed"})
    assert not is_checked(constructed) and not is_checked(updated)
    assert constructed.model_fields_set == set(VALUES)
    marked = HookResult(**VALUES)
    mark_unchecked(marked)
    assert not is_checked(marked) and marked == result
    # A copy without an update is as checked as its original.
    assert is_checked(result.model_copy())


def test_the_installed_pydantic_is_a_release_pyproject_allows() -> None:
    major, minor = (int(part) for part in pydantic.VERSION.split(".")[:2])
    assert (major, minor) >= (2, 6)
