"""A module rejecting its config is reported at the line of the bad key."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.bundles import Bundle, BundleError, HookEntry
from amplifier_hooks.bundles.loading import MountedBundle, build_coordinator
from amplifier_hooks.session.coordinator import Coordinator

from .conftest import (
    ECHO,
    LOGGING,
    SHELL,
    at,
    echo,
    seen,
    write_bundle,
)


async def test_bad_module_config_is_reported_at_the_key_line_strict(tmp_path: Path) -> None:
    path = write_bundle(
        tmp_path,
        "bad.yaml",
        f"""
        hooks:
          - module: ah-logging
            source: {LOGGING}
            config:
              path: {tmp_path / "x.jsonl"}
              max_value_chars: lots
        """,
    )
    with pytest.raises(BundleError) as info:
        await build_coordinator(path, strict=True)
    assert str(info.value) == (
        f"{at(path, 6)}: hooks[0].config.max_value_chars: module 'ah-logging' rejected "
        "its config: expected a whole number, got 'lots'"
    )
    assert (info.value.file, info.value.line) == (path, 6)
    assert info.value.key_path == "hooks[0].config.max_value_chars"


async def test_bad_config_of_an_optional_module_skips_it_with_the_same_message(
    tmp_path: Path, logs: list[dict[str, Any]]
) -> None:
    path = write_bundle(
        tmp_path,
        "bad.yaml",
        f"""
        hooks:
          - module: ah-logging
            source: {LOGGING}
            config:
              max_value_chars: 3
              paht: x.jsonl
            optional: true
          - module: fixture-echo
            source: {ECHO}
        """,
    )
    coord = await build_coordinator(path)
    session = MountedBundle.of(coord)
    assert session is not None and session.report is not None
    assert [m.key for m in session.modules] == ["fixture-echo"]
    [failure] = session.report.failures
    lines = [
        f"{at(path, 5)}: hooks[0].config.max_value_chars: module 'ah-logging' rejected its "
        "config: expected a number greater than or equal to 16, got 3",
        f"{at(path, 6)}: hooks[0].config.paht: module 'ah-logging' rejected its config: "
        "unknown key 'paht' (did you mean 'path'?); expected one of: events, exclude_events, "
        "max_value_chars, path, priority, redact_keys, scrub_secrets",
    ]
    assert str(failure).splitlines() == lines
    assert (failure.stage, failure.problem().line) == ("mount", 5)
    record = next(r for r in logs if r["event"] == "hook module failed")
    assert record["where"] == f"{at(path, 5)}: hooks[0].config.max_value_chars"
    assert record["problems"] == lines
    assert record["error"].startswith("ModuleConfigError: invalid ah-logging config: ")
    assert await seen(coord) == ["echo"]
    await coord.cleanup()


async def test_config_key_from_an_include_is_reported_in_the_include(tmp_path: Path) -> None:
    base = write_bundle(
        tmp_path,
        "base.yaml",
        f"""
        bundle: {{name: base}}
        hooks:
          - module: ah-logging
            source: {LOGGING}
            config:
              max_value_chars: lots
              events: [tool:pre]
        """,
    )
    top = write_bundle(
        tmp_path,
        "top.yaml",
        """
        includes: [base.yaml]
        hooks:
          - module: ah-logging
            config:
              events: []
        """,
    )
    with pytest.raises(BundleError) as info:
        await build_coordinator(top, strict=True)
    assert str(info.value).splitlines() == [
        f"{at(base, 6)}: hooks[0].config.max_value_chars: module 'ah-logging' rejected its "
        "config: expected a whole number, got 'lots'",
        # written in both files: the including file's value is the one that was used
        f"{at(top, 5)}: hooks[0].config.events: module 'ah-logging' rejected its config: "
        "events must name at least one event or glob (omit it to log all)",
    ]


async def test_a_missing_config_key_is_reported_at_its_nearest_written_parent(
    tmp_path: Path,
) -> None:
    path = write_bundle(
        tmp_path,
        "shell.yaml",
        f"""
        hooks:
          - module: ah-shell
            source: {SHELL}
            config:
              hooks:
                - event: tool:pre
                  name: check
        """,
    )
    with pytest.raises(BundleError) as info:
        await build_coordinator(path, strict=True)
    assert str(info.value) == (
        f"{at(path, 6)}: hooks[0].config.hooks[0].command: module 'ah-shell' rejected its "
        "config: missing required key 'command'"
    )


async def test_bad_config_of_a_bundle_built_in_code_names_the_key_path(
    coordinator: Coordinator,
) -> None:
    bundle = Bundle(
        hooks=[
            echo("a"),
            HookEntry(module="ah-logging", source=LOGGING, config={"priority": "high"}),
        ]
    )
    with pytest.raises(BundleError) as info:
        await MountedBundle(coordinator).load(bundle)
    assert str(info.value) == (
        "hooks[1].config.priority: module 'ah-logging' rejected its config: "
        "expected a whole number, got 'high'"
    )
    bundle.hooks[1].optional = True
    report = await MountedBundle(coordinator).load(bundle)
    assert [m.key for m in report.mounted] == ["a"]
    assert str(report.failures[0]) == (
        "hooks[1].config.priority: module 'ah-logging' rejected its config: "
        "expected a whole number, got 'high'"
    )


async def test_a_config_error_raised_as_the_cause_of_another_is_still_located(
    tmp_path: Path,
) -> None:
    module = tmp_path / "wrapping.py"
    module.write_text(
        textwrap.dedent(
            """
            from amplifier_hooks.modules.config import ConfigProblem, ModuleConfigError

            def mount(coordinator, config):
                problem = ConfigProblem(("limits", "depth"), "expected at most 3, got 9")
                error = ModuleConfigError("loader-wrapping-module", [problem])
                raise RuntimeError("setup failed") from error
            """
        ),
        encoding="utf-8",
    )
    path = write_bundle(
        tmp_path,
        "b.yaml",
        """
        hooks:
          - module: loader-wrapping-module
            source: wrapping.py
            config:
              limits:
                depth: 9
        """,
    )
    with pytest.raises(BundleError) as info:
        await build_coordinator(path, strict=True)
    assert str(info.value) == (
        f"{at(path, 6)}: hooks[0].config.limits.depth: module 'loader-wrapping-module' "
        "rejected its config: expected at most 3, got 9"
    )


def test_module_config_error_keeps_its_text_and_carries_the_problems() -> None:
    from pydantic import BaseModel, ConfigDict, Field

    from amplifier_hooks.modules.config import (
        ConfigProblem,
        ModuleConfigError,
        parse_module_config,
    )

    class Limits(BaseModel):
        model_config = ConfigDict(extra="forbid")
        depth: int = 1

    class Settings(BaseModel):
        model_config = ConfigDict(extra="forbid")
        limits: Limits = Limits()
        name: str = "x"
        tags: list[str] = Field(default_factory=lambda: ["t"], min_length=1)

    raw = {"limits": {"depth": "deep"}, "nmae": "y", "tags": []}
    with pytest.raises(ModuleConfigError) as info:
        parse_module_config(Settings, raw, "m")
    error = info.value
    assert isinstance(error, ValueError) and error.module_id == "m"
    assert str(error) == (
        "invalid m config: limits.depth: Input should be a valid integer, unable to parse "
        "string as an integer; tags: List should have at least 1 item after validation, not 0; "
        "nmae: Extra inputs are not permitted"
    )
    assert error.problems == [
        ConfigProblem(("limits", "depth"), "expected a whole number, got 'deep'"),
        ConfigProblem(("tags",), "expected at least 1 item, got 0"),
        ConfigProblem(
            ("nmae",),
            "unknown key 'nmae' (did you mean 'name'?); expected one of: limits, name, tags",
        ),
    ]
    with pytest.raises(ModuleConfigError) as info:
        parse_module_config(Settings, ["not", "a", "mapping"], "m")  # type: ignore[arg-type]
    assert str(info.value) == "m config must be a mapping, got list"
    assert info.value.problems == [
        ConfigProblem((), "expected a mapping (key: value lines), got a list")
    ]
    assert parse_module_config(Settings, None, "m") == Settings()


def test_a_typo_inside_a_tuple_of_records_gets_a_did_you_mean() -> None:
    """Issue 37: ah-guard's ``rules`` are a tuple of records, and `decison:` in one got no
    "did you mean" (lists had it, tuples did not)."""
    from pydantic import BaseModel, ConfigDict

    from amplifier_hooks.modules.config import ModuleConfigError, parse_module_config

    class Rule(BaseModel):
        model_config = ConfigDict(extra="forbid")
        id: str
        decision: str = "deny"

    class Settings(BaseModel):
        model_config = ConfigDict(extra="forbid")
        rules: tuple[Rule, ...] = ()

    with pytest.raises(ModuleConfigError) as info:
        parse_module_config(Settings, {"rules": [{"id": "r", "decison": "ask"}]}, "m")
    [problem] = info.value.problems
    assert problem.message == (
        "unknown key 'decison' (did you mean 'decision'?); expected one of: decision, id"
    )
