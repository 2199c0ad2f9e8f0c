"""Inline Python whose whole effect is one file act on a literal path (``shutil.rmtree(
"build", ignore_errors=True)`` of the project's own output by its name, ``os.makedirs(
"out")``) is judged as the shell command doing it (``rm -rf -- build``); a source tree
deleted (``rmtree("src")``: work lost), a path the reader cannot name, a function keyword
(``onerror=``) or the function handed on under another name keeps the code asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, Policy
from amplifier_hooks.guard.pyreader import read_python
from tests.guard.conftest import decided, git, judged_with_git, write


@pytest.mark.parametrize(
    "code",
    ["import shutil; shutil.rmtree('build', ignore_errors=True)",
     "from shutil import rmtree; rmtree('dist')", "import os; os.makedirs('out/x', exist_ok=True)",
     "import os; os.makedirs('out/x', mode=0o755)", "import os; os.mkdir('out', mode=0o700)",
     "import shutil; shutil.rmtree('.pytest_cache')"],
)  # fmt: skip
def test_one_literal_file_act_keeps_code_quiet(code: str) -> None:
    assert read_python(code).quiet
    assert decided(f'python3 -c "{code}"') == (None, None)


@pytest.mark.parametrize(
    "code",
    ["import shutil; shutil.rmtree('build', onerror=print)",
     "import shutil; f = shutil.rmtree; f('build')",
     "import shutil, sys; shutil.rmtree(sys.argv[1])",
     "import shutil; shutil.rmtree('b*')", "import os; os.remove('build/a.o')",
     "import shutil; shutil.rmtree('src')", "import shutil; shutil.rmtree('build/.env')",
     "import shutil; shutil.rmtree('../build')", "import shutil; shutil.rmtree('/tmp/build')",
     # a folder the path is relative to (a descriptor the shell opened), an unknown keyword
     "import shutil; shutil.rmtree('dist', dir_fd=3)", "import os; os.mkdir('.bashrc', dir_fd=3)",
     "import os; os.makedirs('out', exists_ok=True)"],
)  # fmt: skip
def test_other_forms_stay_loud(code: str) -> None:
    assert not read_python(code).quiet


@pytest.mark.parametrize(
    ("code", "decision"),
    [("import shutil; shutil.rmtree('/home/dev')", "deny"),
     ("import shutil; shutil.rmtree('.git')", "deny"),
     ("import shutil; [shutil.rmtree(d) for d in ['build', '/home/dev']]", "deny"),
     ("import shutil; shutil.rmtree('../other')", "deny"),
     ("import os; os.remove('.env')", "ask")],
)  # fmt: skip
def test_the_act_is_judged_as_the_shell_command(code: str, decision: str) -> None:
    assert decided(f'python3 -c "{code}"')[0] == decision


def test_a_tracked_build_folder_is_judged_as_rm_is(tmp_path: Path, pack: Policy) -> None:
    top = tmp_path / "work"
    write(top / "build" / "make.sh", "echo hi\n")  # a project that keeps build/ in git
    git(tmp_path, "init", "-q", str(top))
    git(top, "add", ".")
    git(top, "commit", "-qm", "start")
    write(top / "build" / "make.sh", "echo changed\n")  # a change no commit holds
    places = Places.of(top, home=tmp_path)

    def said(command: str) -> str | None:
        call = {"tool_name": "bash", "tool_input": {"command": command}}
        return judged_with_git(call, pack, places).decision

    shell = said("rm -rf build")
    assert shell is not None
    assert said("python3 -c \"import shutil; shutil.rmtree('build')\"") == shell


_SNAP = "from huggingface_hub import snapshot_download; snapshot_download"


@pytest.mark.parametrize(
    "code",
    [f"{_SNAP}('sentence-transformers/all-MiniLM-L6-v2', local_dir='models/minilm', "
     "allow_patterns=['*.safetensors', '*.json'])",
     f"{_SNAP}('org/m', repo_type='dataset', revision='v1')",
     "from huggingface_hub import hf_hub_download; hf_hub_download('org/m', 'config.json')"],
)  # fmt: skip
def test_a_hub_download_by_name_is_judged_as_hf_download(code: str) -> None:
    assert read_python(code).quiet
    assert decided(f'python -c "{code}"') == (None, None)


@pytest.mark.parametrize(
    ("code", "decision"),
    [(f"{_SNAP}('org/m', local_dir='~/.ssh')", "deny"),
     (f"{_SNAP}('org/m', local_dir='/home/dev/.config/autostart')", "ask"),
     (f"{_SNAP}('../m')", "ask"), (f"import sys; {_SNAP}(sys.argv[1])", "ask"),
     (f"{_SNAP}('org/m', local_dir=d)", "ask"), (f"{_SNAP}('org/m', token='x')", "ask"),
     (f"{_SNAP}('org/m', local_dir='.git/hooks')", "ask")],
)  # fmt: skip
def test_other_hub_downloads_stay_judged(code: str, decision: str) -> None:
    assert decided(f'python -c "{code}"')[0] == decision
