"""A configuration's YAML is loaded once per decision, and only within one (`yamltext`)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from amplifier_hooks.guard.memo import begin, end
from amplifier_hooks.guard.yamltext import yaml_data

WORKFLOW = "    name: ci\n    jobs:\n      t:\n        steps:\n          - run: make test\n"


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts handed to the loader, in order."""
    seen: list[str] = []
    real = yaml.load

    def counted(stream: str, Loader: Any) -> object:
        seen.append(stream)
        return real(stream, Loader=Loader)

    monkeypatch.setattr(yaml, "load", counted)  # (`yamltext` calls `yaml.load`)
    return seen


def test_dedented_then_loaded() -> None:
    assert yaml_data(WORKFLOW) == {
        "name": "ci",
        "jobs": {"t": {"steps": [{"run": "make test"}]}},
    }


def test_not_dedented_when_asked() -> None:
    assert yaml_data("{a: 1}", dedent=False) == {"a": 1}


def test_loaded_once_within_a_decision(loads: list[str]) -> None:
    token = begin()
    try:
        first, second = yaml_data(WORKFLOW), yaml_data(WORKFLOW)
    finally:
        end(token)
    assert first is second
    assert len(loads) == 1


def test_loaded_each_time_outside_a_decision(loads: list[str]) -> None:
    yaml_data(WORKFLOW)
    yaml_data(WORKFLOW)
    assert len(loads) == 2


def test_forgotten_when_the_decision_ends(loads: list[str]) -> None:
    for _ in range(2):
        token = begin()
        try:
            yaml_data(WORKFLOW)
        finally:
            end(token)
    assert len(loads) == 2


def test_dedent_is_part_of_the_key(loads: list[str]) -> None:
    token = begin()
    try:
        yaml_data("a: 1")
        yaml_data("a: 1", dedent=False)
    finally:
        end(token)
    assert len(loads) == 2


def test_no_yaml_raises_at_every_read(loads: list[str]) -> None:
    token = begin()
    try:
        for _ in range(3):
            with pytest.raises(yaml.YAMLError):
                yaml_data("a: [1, 2\nb: {")
    finally:
        end(token)
    assert len(loads) == 1
