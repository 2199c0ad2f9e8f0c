"""A Cargo.toml's git sources are code fetched from outside the registry: asked, as a pod
from a git URL is; an ordinary edit of the manifest stays free."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard import Places, Policy, judge
from amplifier_hooks.guard.cargotoml import cargo_sources
from amplifier_hooks.guard.mobilebuild import FETCHED_SOURCE


def test_git_sources_are_read_from_any_table() -> None:
    text = (
        '[dependencies]\na = { git = "https://g.example.org/a" }\n'
        '[dependencies.b]\ngit = "https://g.example.org/b"\n'
        '[patch.crates-io]\nserde = { git = "https://g.example.org/serde" }\n'
        "[target.'cfg(unix)'.dependencies]\nc = { git = \"https://g.example.org/a\" }\n"
    )
    found = sorted(url for _, url in cargo_sources(text))
    assert found == [f"https://g.example.org/{n}" for n in ("a", "b", "serde")]
    assert {kind for kind, _ in cargo_sources(text)} == {FETCHED_SOURCE}


@pytest.mark.parametrize("text", ['serde = "1"', "[dependencies\n", 'a = { path = "../a" }', ""])
def test_no_git_source_or_no_toml_is_none(text: str) -> None:
    assert cargo_sources(text) == []


def test_an_edit_adding_a_git_patch_is_asked(pack: Policy, places: Places) -> None:
    path = str(places.workspace / "Cargo.toml")
    added = '[patch.crates-io]\nserde = { git = "https://g.example.org/serde" }\n\n[dependencies]\n'
    edit = {"file_path": path, "old_string": "[dependencies]\n", "new_string": added}
    verdict = judge({"tool_name": "Edit", "tool_input": edit}, pack, places)
    assert (verdict.decision, verdict.rule) == ("ask", "planted-code-ask")
    plain = {"file_path": path, "old_string": 'serde = "1"',
             "new_string": 'serde = { version = "1", features = ["derive"] }'}  # fmt: skip
    assert judge({"tool_name": "Edit", "tool_input": plain}, pack, places).decision is None
