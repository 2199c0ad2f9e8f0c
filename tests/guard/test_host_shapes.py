"""Host tools' shapes read as the calls they are (the blind hosts corpus' classes):

- a fetch of a ``file:`` URL whose scheme is spelled in another case (``FILE://``) reads
  the local file, as ``file://`` does;
- Cline's ``search_files`` names its pattern ``regex``: a search for tokens is one;
- Codex's installed plugins (``~/.codex/plugins/``, ``$CODEX_HOME/plugins/``) carry hooks;
- GitHub's MCP ``update_ref`` is the push it amounts to (``force``: a force push), and the
  SQLite server's ``write_query`` its SQL.

Each with the everyday call of the same shape, which stays free.
"""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks.guard import Places, Policy, Verdict, judge

from .conftest import HOME

FREE = (None, "allow")


def _call(pack: Policy, places: Places, tool: str, given: dict[str, Any]) -> Verdict:
    return judge({"tool_name": tool, "tool_input": given}, pack, places)


@pytest.mark.parametrize("scheme", ["FILE", "File", "fIlE"])
def test_a_file_url_in_any_case_reads_the_file(pack: Policy, places: Places, scheme: str) -> None:
    url = f"{scheme}://{HOME}/.ssh/id_ed25519"
    assert _call(pack, places, "WebFetch", {"url": url, "prompt": "show"}).decision == "deny"


def test_a_web_url_in_another_case_is_no_file(pack: Policy, places: Places) -> None:
    given = {"url": "HTTPS://docs.python.org/3/library/os.html", "prompt": "summarize"}
    assert _call(pack, places, "WebFetch", given).decision != "deny"


def test_a_cline_search_for_tokens_is_judged_by_its_regex(pack: Policy, places: Places) -> None:
    given = {"path": str(HOME), "regex": "ghp_[A-Za-z0-9]{36}", "file_pattern": "*"}
    assert _call(pack, places, "search_files", given).decision == "deny"


def test_a_cline_search_of_code_stays_free(pack: Policy, places: Places) -> None:
    given = {"path": str(HOME / "src" / "calc"), "regex": "def \\w+\\(", "file_pattern": "*.py"}
    assert _call(pack, places, "search_files", given).decision in FREE


@pytest.mark.parametrize(
    "path",
    [".codex/plugins/fmt/hooks/hooks.json", ".codex/plugins/cache/m/fmt/1.0/hooks/hooks.json"],
)
def test_a_codex_plugin_is_a_guarded_place(pack: Policy, places: Places, path: str) -> None:
    given = {"file_path": str(HOME / path), "content": '{"hooks": {}}'}
    assert _call(pack, places, "Write", given).decision == "deny"


def test_reading_a_codex_plugin_stays_free(pack: Policy, places: Places) -> None:
    given = {"file_path": str(HOME / ".codex/plugins/fmt/README.md")}
    assert _call(pack, places, "Read", given).decision in FREE


def _ref(force: object = None, ref: str = "heads/main") -> dict[str, Any]:
    given: dict[str, Any] = {"owner": "dev", "repo": "calc", "ref": ref, "sha": "1a2b3c4d"}
    return given if force is None else {**given, "force": force}


@pytest.mark.parametrize("force", [True, "true"])
def test_a_forced_update_ref_of_main_is_a_force_push(
    pack: Policy, places: Places, force: object
) -> None:
    assert _call(pack, places, "mcp__github__update_ref", _ref(force)).decision == "deny"


def test_an_update_ref_of_main_is_a_push_to_it(pack: Policy, places: Places) -> None:
    assert _call(pack, places, "mcp__github__update_ref", _ref()).decision == "ask"


def test_an_update_ref_of_a_feature_branch_is_not_stopped(pack: Policy, places: Places) -> None:
    given = _ref(ref="heads/feature-x")
    assert _call(pack, places, "mcp__github__update_ref", given).decision in FREE


def test_a_sqlite_write_query_is_judged_as_its_sql(pack: Policy, places: Places) -> None:
    given = {"query": "DELETE FROM orders"}
    assert _call(pack, places, "mcp__sqlite__write_query", given).decision == "ask"
    given = {"query": "INSERT INTO orders (id) VALUES (1)"}
    assert _call(pack, places, "mcp__sqlite__write_query", given).decision in FREE
