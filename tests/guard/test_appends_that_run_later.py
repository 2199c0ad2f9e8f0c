"""A shell append (``>>``, ``tee -a``) into a file of the workspace is granted as an edit
is, but not into one a tool runs of its own accord (`buildfiles.runs_later`: the build
wrappers, Yarn's own code, Python's startup files, the REPLs' rc files, the environment
managers' and test runners' settings, a virtual environment's programs), a ``.env``
variant, or bundler's settings; and text ``echo`` appends to a requirements file is read
as a file tool's edit adding it (`supplypieces`: another index is asked)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.buildfiles import runs_later
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "target",
    [
        "gradlew",
        "mvnw",
        "android/gradlew",
        ".yarn/releases/yarn-4.1.0.cjs",
        ".yarn/plugins/@yarnpkg/plugin-x.cjs",
        ".pnp.cjs",
        "sitecustomize.py",
        "src/usercustomize.py",
        ".pryrc",
        ".irbrc",
        ".pdbrc",
        "mise.toml",
        ".mise.toml",
        "flake.nix",
        "shell.nix",
        "bunfig.toml",
        "karma.conf.js",
        ".eslintrc.js",
        ".prettierrc.cjs",
        ".mocharc.yml",
        ".storybook/main.ts",
        ".venv/bin/pytest",
        "venv/bin/python3",
        ".env.local",
        ".env.production",
        ".bundle/config",
    ],
)
def test_an_append_to_what_runs_later_is_not_granted(verdict: Judge, target: str) -> None:
    judged = verdict(f"echo x >> {target}")
    assert judged.decision != "allow", (target, judged)


@pytest.mark.parametrize(
    "command",
    [
        "echo '--index-url https://pkgs.example.org/simple' >> requirements.txt",
        "echo '--extra-index-url https://pkgs.example.org/simple' >> requirements-dev.txt",
        "echo 'tool @ git+https://example.org/t.git' >> requirements.txt",
        "cd src && echo '-i https://pkgs.example.org/simple' >> ../requirements.txt",
        "printf 'addopts = -p helpers.collect\\n' >> pytest.ini",
        "echo '--index-url https://pkgs.example.org/simple' | tee -a requirements.txt",
    ],
)
def test_an_appended_source_or_plugin_is_asked(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision == "ask", (command, judged)


@pytest.mark.parametrize(
    "command",
    [
        "echo 'requests==2.32.3' >> requirements.txt",
        "echo 'A=1' >> .env.example",
        "echo '*.log' >> .gitignore",
        "echo 'done' >> notes.txt",
        "echo 'print(1)' >> src/app.py",
        "echo 'requests==2.32.3' | tee -a requirements.txt",
    ],
)
def test_everyday_appends_are_granted(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision == "allow", (command, judged)


@pytest.mark.parametrize(
    ("path", "tool"),
    [
        ("/w/gradlew", "the Gradle wrapper (./gradlew)"),
        ("/w/.venv/bin/pip", "the virtual environment (its programs, run by name)"),
        ("/w/venv/Scripts/python.exe", "the virtual environment (its programs, run by name)"),
        ("/w/.yarn/releases/yarn-4.1.0.cjs", "yarn (every yarn command, by its yarnPath)"),
    ],
)
def test_runs_later_names_the_tool(path: str, tool: str) -> None:
    runner = runs_later(path)
    assert runner is not None and runner.tool == tool


@pytest.mark.parametrize(
    "path",
    ["/w/bin/tool", "/w/releases/x.cjs", "/w/.eslintrc.json", "/w/src/main.py",
     "/w/.venv/lib/python3.12/x.py", "/w/mocharc.yml", "/w/notes.md"],
)  # fmt: skip
def test_runs_later_leaves_ordinary_files(path: str) -> None:
    assert runs_later(path) is None
