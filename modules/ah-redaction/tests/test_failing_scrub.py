"""A scrub that cannot finish never lets the event through unscrubbed by default: it fails
closed (a deny naming the handler), later handlers never see the data, and only an explicit
``fail_closed: false`` lets it pass, with a warning at mount.

Time is a `ManualClock`: the payload itself "takes" longer than the handler's timeout while
it is walked, so no outcome depends on how busy the machine is.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from amplifier_module_ah_redaction import HANDLER_NAME, mount

from amplifier_hooks import Coordinator, HookRegistry
from conftest import ManualClock

KEY = "sk-proj-" + "Ab3" * 10
TIMEOUT = 0.125
MODULE_SOURCE = Path(__file__).resolve().parents[1]


class Exploding(Mapping[str, Any]):
    """A mapping whose items cannot be read: the walk raises half-way through a payload."""

    def __getitem__(self, key: str) -> Any:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("this payload cannot be read")

    def __len__(self) -> int:
        return 1

    def items(self) -> Any:
        raise RuntimeError("this payload cannot be read")


class Slow(Mapping[str, Any]):
    """A mapping that holds a secret and takes ``seconds`` (on ``clock``) to be walked, as a
    huge payload would."""

    def __init__(self, clock: ManualClock, seconds: float) -> None:
        self._clock = clock
        self._seconds = seconds
        self._data = {"content": f"key {KEY}"}

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def items(self) -> Any:
        self._clock.advance(self._seconds)
        return self._data.items()


async def mounted(clock: ManualClock, config: dict[str, Any] | None = None) -> Coordinator:
    coordinator = Coordinator(registry=HookRegistry(default_timeout=TIMEOUT, clock=clock))
    coordinator.register_cleanup(await mount(coordinator, config))
    return coordinator


def watch(coordinator: Coordinator) -> list[dict[str, Any]]:
    """What a later handler (a logger, say) would be given."""
    seen: list[dict[str, Any]] = []
    coordinator.hooks.register(
        "provider:request", lambda event, data: seen.append(data), priority=1000, name="later"
    )
    return seen


def failing_payload(kind: str, clock: ManualClock) -> dict[str, Any]:
    inner: Mapping[str, Any] = Exploding() if kind == "raises" else Slow(clock, seconds=2 * TIMEOUT)
    return {"messages": [{"content": f"key {KEY}"}, inner], "model": "m"}


@pytest.mark.parametrize(("kind", "failure"), [("raises", "raised"), ("times-out", "timeout")])
async def test_by_default_a_failed_scrub_denies_the_event(
    clock: ManualClock, kind: str, failure: str
) -> None:
    coordinator = await mounted(clock)
    seen = watch(coordinator)
    outcome = await coordinator.dispatch("provider:request", failing_payload(kind, clock))

    assert not outcome.allowed and outcome.action == "deny"
    assert outcome.reason is not None and HANDLER_NAME in outcome.reason
    [step] = outcome.resolution.trace
    assert (step.handler, step.failure) == (HANDLER_NAME, failure)
    assert seen == []  # the deny is terminal: nothing downstream got the unscrubbed data
    await coordinator.cleanup()


async def test_a_scrub_that_finishes_in_time_still_modifies(clock: ManualClock) -> None:
    coordinator = await mounted(clock)
    seen = watch(coordinator)
    payload = {"messages": [Slow(clock, seconds=TIMEOUT / 2)]}
    outcome = await coordinator.dispatch("provider:request", payload)
    assert outcome.allowed and outcome.action == "modify"
    assert seen[0]["messages"][0]["content"] == "key [REDACTED:openai_api_key]"
    await coordinator.cleanup()


@pytest.mark.parametrize("kind", ["raises", "times-out"])
async def test_fail_closed_false_lets_the_event_through_unscrubbed(
    clock: ManualClock, kind: str, logs: list[dict[str, Any]]
) -> None:
    coordinator = await mounted(clock, {"fail_closed": False})
    warning = next(r for r in logs if r["event"].startswith("redaction fails open"))
    assert warning["log_level"] == "warning" and warning["handler"] == HANDLER_NAME
    seen = watch(coordinator)
    payload = failing_payload(kind, clock)
    outcome = await coordinator.dispatch("provider:request", payload)

    assert outcome.allowed and outcome.action == "continue"
    assert seen[0]["messages"][0]["content"] == f"key {KEY}"  # what the opt-out costs
    await coordinator.cleanup()


async def test_the_default_mount_logs_no_fail_open_warning(
    clock: ManualClock, logs: list[dict[str, Any]]
) -> None:
    coordinator = await mounted(clock)
    assert not [r for r in logs if "fails open" in r["event"]]
    [info] = [i for i in coordinator.hooks.handler_info() if i.event == "provider:request"]
    assert info.name == HANDLER_NAME and info.fail_closed
    await coordinator.cleanup()


async def test_a_bundle_entry_without_config_fails_closed(tmp_path: Path) -> None:
    bundle = tmp_path / "agent.yaml"
    bundle.write_text(
        f"bundle: {{name: agent}}\nhooks:\n  - module: ah-redaction\n    source: {MODULE_SOURCE}\n",
        encoding="utf-8",
    )
    coordinator = await Coordinator.from_bundle(bundle)
    infos = [i for i in coordinator.hooks.handler_info() if i.name == HANDLER_NAME]
    assert infos and all(i.fail_closed for i in infos)
    await coordinator.cleanup()
