"""Shared helpers for the bundle loading tests: fixture modules, entries, fixtures."""

from __future__ import annotations

import asyncio
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.bundles import HookEntry
from amplifier_hooks.bundles.reading import display_path
from amplifier_hooks.session.coordinator import Coordinator

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "bundles"
MODULES = ROOT / "tests" / "fixtures" / "modules"
ECHO = str(MODULES / "fixture-echo")
BROKEN = str(MODULES / "fixture-broken")
GATE = str(MODULES / "fixture-gate")
METADATA = str(MODULES / "fixture-metadata")


def echo(key: str, tag: str | None = None, **fields: Any) -> HookEntry:
    return HookEntry(
        id=key, module="fixture-echo", source=ECHO, config={"tag": tag or key}, **fields
    )


def broken(mode: str, key: str = "fixture-broken", *, optional: bool | None = None) -> HookEntry:
    return HookEntry(
        id=key, module="fixture-broken", source=BROKEN, config={"mode": mode}, optional=optional
    )


def gate_entry(tag: str, **config: Any) -> HookEntry:
    return HookEntry(
        id=f"gate-{tag}", module="fixture-gate", source=GATE, config={"tag": tag, **config}
    )


class Gate:
    """What fixture-gate waits on (registered as the capability "gate")."""

    def __init__(self) -> None:
        self.entered = asyncio.Event()
        self.release = asyncio.Event()
        self.mount_entered = asyncio.Event()
        self.mount_release = asyncio.Event()


@pytest.fixture
async def coordinator() -> AsyncIterator[Coordinator]:
    coord = Coordinator()
    yield coord
    await coord.cleanup()


@pytest.fixture
def journal(coordinator: Coordinator) -> list[Any]:
    entries: list[Any] = []
    coordinator.register_capability("journal", entries)
    return entries


async def seen(coord: Coordinator) -> list[str]:
    """The tags of the echo/gate handlers that ran on one tool:pre, in order."""
    outcome = await coord.dispatch("tool:pre", {"tool_name": "read_file"})
    return list(outcome.data.get("seen", []))


def owners(coord: Coordinator) -> dict[str, str | None]:
    return {f"{h.event}/{h.name}": h.owner for h in coord.hooks.handler_info()}


MISSING_MODULE = (
    "module 'hooks-does-not-exist' could not be loaded: not found: no source given, no entry "
    "point 'hooks-does-not-exist' in group 'amplifier_hooks.modules' or 'amplifier.modules', "
    "and no importable package 'amplifier_module_hooks_does_not_exist' (install the module, "
    "or give its directory as source:)"
)


def recording_factory(built: list[Coordinator]) -> Any:
    def factory(**kwargs: Any) -> Coordinator:
        built.append(Coordinator(**kwargs))
        return built[-1]

    return factory


LOGGING = str(ROOT / "modules" / "ah-logging")
SHELL = str(ROOT / "modules" / "ah-shell")
APPROVAL = str(ROOT / "modules" / "ah-approval")


def write_bundle(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def at(path: Path, line: int) -> str:
    return f"{display_path(path)}:{line}"


PROJECT_ROOT = ROOT


def first_yaml_example(doc: Path) -> str:
    """The first fenced YAML block of a Markdown file."""
    return doc.read_text(encoding="utf-8").split("```yaml\n", 1)[1].split("```", 1)[0]
