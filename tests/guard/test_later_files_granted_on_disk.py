"""Files a tool runs the commands of later, or takes its packages' source from, that a
Write on a real workspace used to be granted as an ordinary edit: a root
``.devcontainer.json``, lint-staged's and husky's rc files, ``.hg/hgrc``, a venv's
``pip.conf``, ``uv.toml``, ``pdm.toml``, ``poetry.toml``, a ``Pipfile``, ``dvc.yaml``,
``Snakefile``, ``mkdocs.yml`` (`laterfiles`); the commands of the first ones are read
(`laterlisters`). And a chmod giving every local user write inside the workspace is
asked (``chmod-workspace-world-writable``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.guard import Places, Verdict, judge
from amplifier_hooks.guard.buildfiles import runs_later
from amplifier_hooks.guard.laterlisters import (
    devcontainer_commands,
    hgrc_hooks,
    lint_staged_commands,
)
from amplifier_hooks.guard.policy import Policy
from tests.guard.conftest import Judge


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    top = tmp_path / "home" / "project"
    (top / "src").mkdir(parents=True)
    (top / ".hg").mkdir()
    (top / ".venv").mkdir()
    return top


def _write(rel: str, text: str, workspace: Path, pack: Policy) -> Verdict:
    data: dict[str, Any] = {
        "tool_name": "Write",
        "tool_input": {"file_path": str(workspace / rel), "content": text},
        "workspace": str(workspace),
    }
    return judge(data, pack, Places.of(workspace, home=workspace.parent))


LATER = [".devcontainer.json", ".lintstagedrc", ".lintstagedrc.json", ".huskyrc",
         ".hg/hgrc", ".venv/pip.conf", "uv.toml", "pdm.toml", "poetry.toml", "Pipfile",
         "dvc.yaml", "Snakefile", "mkdocs.yml"]  # fmt: skip


@pytest.mark.parametrize("rel", LATER)
def test_a_later_file_is_never_granted(rel: str, workspace: Path, pack: Policy) -> None:
    assert runs_later(str(workspace / rel)) is not None
    assert _write(rel, "{}\n", workspace, pack).decision != "allow"


@pytest.mark.parametrize("rel", ["src/app.py", "pip.conf", "src/hgrc", "docs/uv.md"])
def test_an_ordinary_file_still_is(rel: str, workspace: Path, pack: Policy) -> None:
    assert _write(rel, "x = 1\n", workspace, pack).decision == "allow"


@pytest.mark.parametrize(
    ("rel", "text"),
    [
        (".devcontainer.json", '{"postCreateCommand": "rm -rf ~/.ssh"}'),
        (".devcontainer.json", '// c\n{"postStartCommand": {"a": ["rm", "-rf", "/home"]}}'),
        (".lintstagedrc.json", '{"*.js": ["eslint --fix", "rm -rf ~/.ssh"]}'),
        (".lintstagedrc", "'*.py': rm -rf ~/.claude\n"),
        (".hg/hgrc", "[ui]\nusername = a\n[hooks]\npre-commit = rm -rf ~/.ssh\n"),
        ("dvc.yaml", "stages:\n  a:\n    cmd: rm -rf ~/.ssh\n"),
    ],
)
def test_their_commands_are_judged(rel: str, text: str, workspace: Path, pack: Policy) -> None:
    assert _write(rel, text, workspace, pack).decision in ("ask", "deny")


@pytest.mark.parametrize(
    ("rel", "text"),
    [
        (".devcontainer.json", '{"image": "python:3.12", "postCreateCommand": "pip install -e ."}'),
        (".lintstagedrc.json", '{"*.js": ["eslint --fix", "prettier --write"]}'),
        (".hg/hgrc", "[ui]\nusername = a\n"),
        ("dvc.yaml", "stages:\n  train:\n    cmd: python train.py\n"),
    ],
)
def test_everyday_ones_are_free(rel: str, text: str, workspace: Path, pack: Policy) -> None:
    assert _write(rel, text, workspace, pack).decision is None


def test_the_listers_read_what_runs_and_fail_closed() -> None:
    assert devcontainer_commands('{"postCreateCommand": ["a", "b c"]}') == ["a 'b c'"]
    assert devcontainer_commands("{not json") is None
    assert devcontainer_commands("[1]") is None
    assert lint_staged_commands("'*.js': [a, 3]\n") == ["a"]
    assert lint_staged_commands("a: [") is None
    assert lint_staged_commands("- a\n") is None
    assert hgrc_hooks("[hooks]\n# c\nx = a b\n[ui]\ny = c\n") == ["a b"]


@pytest.mark.parametrize(
    "command",
    ["chmod -R a+w src", "chmod 666 src/app.py", "chmod -R 0777 scripts", "chmod o+rw src/x",
     "chmod u+x,o+w src/x", "chmod -R go=rwx src"],
)  # fmt: skip
def test_write_for_every_user_in_the_workspace_is_asked(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision == "ask", judged
    assert judged.rule == "chmod-workspace-world-writable"


@pytest.mark.parametrize(
    "command",
    ["chmod -R u+w src", "chmod -R go-w src", "chmod -R g+w src", "chmod 644 src/app.py",
     "chmod 0755 scripts/run.sh", "chmod +x scripts/run.sh", "chmod -R o-rwx src"],
)  # fmt: skip
def test_narrower_modes_stay_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision != "ask"
