"""Redaction never returns an unscrubbed subtree, whatever the payload's shape: deep
nesting, cycles, shared subtrees and very wide containers."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from amplifier_module_ah_redaction import RedactionConfig, Redactor, mount
from amplifier_module_ah_redaction.scrubber import CYCLE

from amplifier_hooks.session.coordinator import Coordinator

KEY = "sk-proj-" + "Ab3" * 10
SCRUBBED = "[REDACTED:openai_api_key]"


def scrub(value: Any) -> tuple[Any, dict[str, int]]:
    scrubbed, counts = Redactor(RedactionConfig()).scrubber.scrub(value)
    return scrubbed, dict(counts)


def nest(depth: int, leaf: Any, kind: str = "dict") -> Any:
    """``leaf`` under ``depth`` levels of dicts, lists or tuples (alternating for "mixed")."""
    value = leaf
    for level in range(depth):
        shape = kind if kind != "mixed" else ("dict", "list", "tuple")[level % 3]
        if shape == "dict":
            value = {"inner": value, "note": "plain"}
        elif shape == "list":
            value = ["plain", value]
        else:
            value = ("plain", value)
    return value


def unnest(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = value["inner"] if isinstance(value, dict) else value[1]
    return value


@pytest.mark.parametrize("kind", ["dict", "list", "tuple", "mixed"])
@pytest.mark.parametrize("depth", [63, 64, 65, 1_000, 20_000])
def test_a_secret_at_any_depth_is_scrubbed(depth: int, kind: str) -> None:
    payload = nest(depth, {"content": f"key {KEY}", "api_key": "hunter2!x"}, kind)
    scrubbed, counts = scrub(payload)
    leaf = unnest(scrubbed, depth)
    assert leaf == {"content": f"key {SCRUBBED}", "api_key": "[REDACTED:secret_field]"}
    assert counts == {"openai_api_key": 1, "secret_field": 1}
    assert unnest(payload, depth)["content"] == f"key {KEY}"  # the input is untouched
    # The containers keep their types all the way down.
    assert type(scrubbed) is type(payload)


def test_a_deep_clean_payload_comes_back_as_the_same_object() -> None:
    payload = nest(10_000, {"content": "nothing to see"}, "mixed")
    scrubbed, counts = scrub(payload)
    assert scrubbed is payload and counts == {}


def test_a_cycle_is_cut_and_never_leads_back_to_the_original() -> None:
    payload: dict[str, Any] = {"content": f"key {KEY}", "history": []}
    payload["self"] = payload
    payload["history"].append(payload["history"])  # a list that contains itself
    payload["history"].append({"up": payload, "text": "plain"})
    scrubbed, counts = scrub(payload)
    assert scrubbed["content"] == f"key {SCRUBBED}"
    assert scrubbed["self"] == CYCLE
    assert scrubbed["history"][0] == CYCLE
    assert scrubbed["history"][1] == {"up": CYCLE, "text": "plain"}
    assert counts == {"openai_api_key": 1, "cycle": 3}
    assert KEY not in _texts(scrubbed)


def test_a_cycle_alone_is_cut_too() -> None:
    # Counted like a finding, so the hook returns the copy (a cycle cannot be serialised
    # for a provider or a log anyway), and idempotent: the copy has no cycle left.
    payload: dict[str, Any] = {"content": "plain"}
    payload["self"] = payload
    redactor = Redactor(RedactionConfig())
    result = redactor.handle("prompt:submit", payload)
    assert result is not None and result.data == {"content": "plain", "self": CYCLE}
    assert redactor.scrubber.scrub(result.data) == (result.data, {})


def test_a_shared_subtree_is_walked_once_and_scrubbed_everywhere() -> None:
    # 80 levels of a list holding the level below twice: 2**80 paths, 80 containers.
    payload: Any = {"content": f"key {KEY}"}
    for _ in range(80):
        payload = [payload, payload]
    scrubbed, counts = scrub(payload)
    assert counts == {"openai_api_key": 1}
    assert scrubbed[0] is scrubbed[1]  # the sharing survives
    assert unnest(scrubbed, 80) == {"content": f"key {SCRUBBED}"}


def test_a_very_wide_container_is_scrubbed_to_its_last_item() -> None:
    payload = {"items": ["plain"] * 200_000 + [f"key {KEY}"], **{f"k{i}": i for i in range(50_000)}}
    payload["last"] = {"token": "hunter2!x"}
    scrubbed, counts = scrub(payload)
    assert scrubbed["items"][-1] == f"key {SCRUBBED}"
    assert scrubbed["items"][:-1] == payload["items"][:-1]
    assert scrubbed["last"] == {"token": "[REDACTED:secret_field]"}
    assert counts == {"openai_api_key": 1, "secret_field": 1}


async def test_the_hook_scrubs_a_secret_nested_past_64_levels() -> None:
    coordinator = Coordinator()
    coordinator.register_cleanup(await mount(coordinator, {}))
    data = {"messages": nest(200, {"content": f"key {KEY}"})}
    before = copy.deepcopy(data)
    outcome = await coordinator.dispatch("provider:request", data)
    assert unnest(outcome.data["messages"], 200) == {"content": f"key {SCRUBBED}"}
    assert data == before
    await coordinator.cleanup()


def _texts(value: Any) -> str:
    """Every string reachable from ``value`` (cycles followed once), joined."""
    seen: set[int] = set()
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict | list | tuple) and id(item) not in seen:
            seen.add(id(item))
            stack.extend(item.values() if isinstance(item, dict) else item)
    return "\n".join(found)
