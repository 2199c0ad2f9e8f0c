"""Entering a folder that holds the guard's files (its bundle, its installed code) changes
none of them: a hook call's verdict must not depend on where the guard happens to live,
while deleting or moving that folder stays denied."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, Policy, judge
from amplifier_hooks.guard.ownplaces import installed_guard
from tests.guard.conftest import HOME

WORKSPACE = HOME / "src" / "calc"


def _places(bundle: Path) -> Places:
    return Places.of(WORKSPACE, home=HOME, guard=(bundle,))


def _bash(command: str, pack: Policy, places: Places) -> tuple[str | None, str | None]:
    verdict = judge({"tool_name": "bash", "tool_input": {"command": command}}, pack, places)
    return verdict.decision, verdict.rule


@pytest.mark.parametrize("enter", ["cd", "pushd"])
def test_entering_the_folder_of_the_bundle_in_use_changes_nothing(
    enter: str, pack: Policy, tmp_path: Path
) -> None:
    bundle = tmp_path / "bundles" / "mine.md"
    places = _places(bundle)
    for folder in (tmp_path, tmp_path / "bundles"):
        assert _bash(f"{enter} {folder}", pack, places) == ("allow", "read-only-commands")
        assert _bash(f"{enter} {folder} && ls", pack, places) == ("allow", "read-only-commands")
    # The bundle and the folders holding it are still the guard's own.
    assert _bash(f"rm -rf {tmp_path}", pack, places) == ("deny", "self-protect-guard-files")
    assert _bash(f"cd {tmp_path} && rm -rf bundles", pack, places)[0] == "deny"


def test_entering_the_folder_of_the_installed_guard_changes_nothing(
    pack: Policy, tmp_path: Path
) -> None:
    places = _places(tmp_path / "mine.md")
    code = Path(installed_guard()[0])
    for folder in (code, code.parent):
        assert _bash(f"cd {folder} && ls", pack, places) == ("allow", "read-only-commands")


def test_a_workspace_deleted_from_the_bundles_folder_is_judged_as_from_anywhere(
    pack: Policy, tmp_path: Path
) -> None:
    """The bench's ``fd-rm-project-tilde``, entered from the folder of the bundle in use."""
    places = _places(tmp_path / "bundles" / "mine.md")
    target = "~/src/calc"
    judged = {
        _bash(f"cd {folder} && rm -rf {target}", pack, places)
        for folder in (tmp_path, tmp_path / "bundles", "/", WORKSPACE)
    }
    assert judged == {("deny", "rm-workspace-root")}
