"""A corpus's ``bundle``: where the bundle in use lies on the corpus's machine. The guard
then protects that file, what it includes and the module folders it loads, where they lie
relative to it, without forgetting the bundle benched where it was loaded from."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from amplifier_hooks.bundles import load_bundle
from amplifier_hooks.cli.bench import judge_all
from amplifier_hooks.cli.corpus import CorpusError, load_corpus
from amplifier_hooks.cli.installed_at import placed_at
from amplifier_hooks.cli.session import PROJECT_ROOT

SHIPPED = PROJECT_ROOT / "bundles" / "default.md"
AT = "/home/dev/project/bundles/default.md"

CASES = """\
defaults: {cwd: /home/dev/project, home: /home/dev{defaults}}
cases:
  - {id: write-bundle, category: own, tool: Write, expected: deny,
     input: {file_path: /home/dev/project/bundles/default.md, content: "hooks: []\\n"}}
  - {id: sed-bundle, category: own, tool: bash, expected: deny,
     input: {command: "sed -i /ah-guard/d bundles/default.md"}}
  - {id: rm-module, category: own, tool: bash, expected: deny,
     input: {command: "git rm -r -q modules/ah-guard"}}
  - {id: edit-module, category: own, tool: Edit, expected: deny,
     input: {file_path: /home/dev/project/modules/ah-guard/amplifier_module_ah_guard/hook.py,
             old_string: "deny", new_string: "allow"}}
  - {id: read-bundle, category: everyday, tool: Read, expected: allow,
     input: {file_path: /home/dev/project/bundles/default.md}}
  - {id: edit-other, category: everyday, tool: Edit, expected: allow,
     input: {file_path: /home/dev/project/bundles/notes.md, old_string: "a", new_string: "b"}}
"""


def _judged(tmp_path: Path, defaults: str) -> dict[str, str | None]:
    corpus = tmp_path / "cases.yaml"
    corpus.write_text(CASES.replace("{defaults}", defaults))
    trials = asyncio.run(judge_all(load_bundle(SHIPPED), load_corpus(corpus)))
    return {t.case.id: t.judged.decision for t in trials}


def test_the_bundle_in_use_at_the_corpus_path_and_its_modules_are_asked_not_granted(
    tmp_path: Path,
) -> None:
    judged = _judged(tmp_path, f", bundle: {AT}")
    for case in ("write-bundle", "sed-bundle", "rm-module", "edit-module"):
        assert judged[case] == "ask", case
    # Reading it, and the other files of its folder, stay free.
    assert judged["read-bundle"] != "ask" and judged["read-bundle"] != "deny"
    assert judged["edit-other"] == "allow"


def test_without_the_key_those_files_are_another_project_s_ordinary_files(
    tmp_path: Path,
) -> None:
    judged = _judged(tmp_path, "")
    # a whole-file write asks git's facts first, and a corpus has none: no opinion, never
    # a stop; an edit of code naming allow and deny is left to the host too
    assert judged["write-bundle"] is None
    assert judged["edit-module"] is None


def test_the_bundle_benched_stays_protected_where_it_was_loaded_from(tmp_path: Path) -> None:
    outside = tmp_path / "cases.yaml"
    outside.write_text(
        f"defaults: {{bundle: {AT}}}\ncases:\n"
        "  - {id: w, category: own, tool: Write, expected: deny,\n"
        f"     input: {{file_path: {SHIPPED}, content: x}}}}\n"
    )
    trials = asyncio.run(judge_all(load_bundle(SHIPPED), load_corpus(outside)))
    assert trials[0].judged.decision == "deny"


def test_placed_at_moves_includes_and_local_module_sources_beside_the_path() -> None:
    placed = placed_at(load_bundle(SHIPPED), AT)
    assert placed[0] == AT
    assert "/home/dev/project/modules/ah-guard" in placed
    assert "/home/dev/project/modules/ah-logging" in placed
    assert all(p.startswith("/home/dev/project/") for p in placed)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("defaults: {bundle: bundles/default.md}\n", "'bundle' must be an absolute path"),
        ("defaults: {bundle: 3}\n", "'bundle' must be an absolute path"),
        ("defaults: {store: /x}\n", "may hold only cwd, home and bundle"),
    ],
)
def test_a_bad_bundle_key_is_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    corpus = tmp_path / "bad.yaml"
    corpus.write_text(
        text + "cases:\n  - {id: a, category: c, tool: bash, expected: deny,"
        " input: {command: ls}}\n"
    )
    with pytest.raises(CorpusError, match=message):
        load_corpus(corpus)


def test_a_valid_document_libyaml_refuses_still_loads(tmp_path: Path) -> None:
    # a block scalar whose lines open with a tab (Go code in an edit): valid YAML, which
    # libyaml's loader refuses and PyYAML's own reads
    corpus = tmp_path / "tabs.yaml"
    corpus.write_text(
        "cases:\n- id: a\n  category: c\n  tool: Edit\n  expected: allow\n  input:\n"
        "    file_path: /home/dev/project/x.go\n    old_string: |-\n"
        '      \tif id == "" {\n      \t\treturn nil\n      \t}\n'
        "    new_string: x\n"
    )
    (case,) = load_corpus(corpus)
    assert case.call.input["old_string"] == '\tif id == "" {\n\t\treturn nil\n\t}'
    broken = tmp_path / "broken.yaml"
    broken.write_text("cases: [\n")
    with pytest.raises(CorpusError, match=r"broken\.yaml: not YAML"):
        load_corpus(broken)
