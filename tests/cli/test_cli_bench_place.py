"""``bench``'s verdict on a corpus case does not depend on where the bundle lives: the
corpus fixes the workspace and home, and the guard protects the bundle in use, so a case
that only enters the folder holding it must be judged as anywhere else."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from amplifier_hooks.bundles import load_bundle
from amplifier_hooks.cli.bench import judge_all
from amplifier_hooks.cli.corpus import Case, load_corpus
from amplifier_hooks.cli.probe import ToolCall
from amplifier_hooks.cli.session import PROJECT_ROOT

SHIPPED = PROJECT_ROOT / "bundles" / "default.md"
LOSSES = PROJECT_ROOT / "benchmarks" / "corpora" / "blind-losses.yaml"
CASE = "fd-rm-project-tilde"


def _placed_bundle(folder: Path) -> Path:
    """A bundle at ``folder`` that is the shipped default one (included by path)."""
    folder.mkdir(parents=True)
    bundle = folder / "bundle.yaml"
    bundle.write_text(f"bundle: {{name: placed, version: '0.1'}}\nincludes: [{str(SHIPPED)!r}]\n")
    return bundle


def _shipped_case() -> Case:
    found = [case for case in load_corpus(LOSSES) if case.id == CASE]
    assert len(found) == 1, f"{CASE} is not in {LOSSES}"
    return found[0]


def _entering(case: Case, folder: Path) -> Case:
    """``case`` with its ``cd`` going to ``folder`` instead (the rest unchanged)."""
    command = str(case.call.input["command"])
    assert command.startswith("cd /tmp && ")
    moved = command.replace("cd /tmp", f"cd {folder}", 1)
    call = ToolCall(case.call.tool, {"command": moved}, case.call.cwd, case.call.home)
    return replace(case, id=f"{case.id}-from-{folder.name}", call=call)


def _verdicts(bundle: Path, cases: list[Case]) -> list[tuple[str | None, str | None]]:
    trials = asyncio.run(judge_all(load_bundle(bundle), cases))
    return [(t.judged.decision, t.judged.rule) for t in trials]


@pytest.mark.parametrize("place", ["shipped", "tmp"])
def test_the_workspace_deleted_from_another_folder_is_judged_the_same_wherever_the_bundle_is(
    place: str, tmp_path: Path
) -> None:
    here = _placed_bundle(tmp_path / "here" / "bundles")
    there = _placed_bundle(tmp_path / "there" / "bundles")
    shipped = _shipped_case()
    # The shipped case enters /tmp; the same delete entered from the folders holding each
    # bundle copy shows the leak whatever TMPDIR is.
    cases = [shipped, _entering(shipped, here.parent.parent), _entering(shipped, there.parent)]
    bundle = SHIPPED if place == "shipped" else here
    elsewhere = _verdicts(there, cases)
    assert _verdicts(bundle, cases) == elsewhere
    # The pack's rule for deleting the workspace as a whole, whatever folder it is
    # deleted from (its history and the hosts' settings go with it).
    assert elsewhere == [("deny", "rm-workspace-root")] * len(cases)
