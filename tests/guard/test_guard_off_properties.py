"""Properties of switching the guard off from outside its files, on composed commands.

- An agent CLI started with its settings folder moved (a variable), or with its hooks
  turned off or left unloaded (an option), is denied, however it is wrapped and whatever
  else it is given.
- A setting whose value is a command (git's ``-c``, ``git config``, ``GIT_CONFIG_*``
  variables, npm's scripts) is judged as that command: one that deletes the home folder
  is denied, in every spelling.
- Uninstalling the guard's package is denied by every installer that can.

Nothing is run: the guard only reads the commands.
"""

from __future__ import annotations

import shlex

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard import Places, judge, load_pack

PACK = load_pack()
PLACES = Places.of("/home/ada-guard-test/src/calc", home="/home/ada-guard-test")
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

AGENTS = ["claude", "codex", "gemini", "copilot", "opencode", "cline", "openclaw"]
MOVED = ["HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "XDG_CONFIG_HOME",
         "OPENCLAW_STATE_DIR", "OPENCODE_CONFIG_DIR"]  # fmt: skip
HOOKS_OFF = ["--pure", "--skip-trust", "--setting-sources=local", "--setting-sources local",
             "--settings '{\"disableAllHooks\": true}'"]  # fmt: skip
WRAPPERS = ["", "env ", "nice -n 5 ", "timeout 60 ", "nohup ", "command ", "env LANG=C "]
WORDS = ["-p", "exec", "run", "'fix the tests'", "--model", "x", "-q", "--json"]
FOLDERS = ["/tmp/blank", "/tmp/h", "$PWD/.x", "~/other", "."]


def _decision(command: str) -> str | None:
    return judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK,
                 PLACES).decision  # fmt: skip


@SETTINGS
@given(
    agent=st.sampled_from(AGENTS),
    moved=st.sampled_from(MOVED),
    folder=st.sampled_from(FOLDERS),
    wrapper=st.sampled_from(WRAPPERS),
    words=st.lists(st.sampled_from(WORDS), max_size=4),
    before=st.sampled_from(["", "cd src && ", "ls; "]),
)
def test_an_agent_cli_with_its_settings_moved_is_denied(
    agent: str, moved: str, folder: str, wrapper: str, words: list[str], before: str
) -> None:
    assignment = f"{moved}={folder}"
    if wrapper.startswith("env"):
        command = f"{before}{wrapper}{assignment} {agent} {' '.join(words)}"
    else:
        command = f"{before}{assignment} {wrapper}{agent} {' '.join(words)}"
    assert _decision(command) == "deny", command


@SETTINGS
@given(
    agent=st.sampled_from(AGENTS),
    off=st.sampled_from(HOOKS_OFF),
    wrapper=st.sampled_from(WRAPPERS),
    words=st.lists(st.sampled_from(WORDS), max_size=4),
    first=st.booleans(),
)
def test_an_agent_cli_with_its_hooks_off_is_denied(
    agent: str, off: str, wrapper: str, words: list[str], first: bool
) -> None:
    rest = " ".join(words)
    command = f"{wrapper}{agent} {off} {rest}" if first else f"{wrapper}{agent} {rest} {off}"
    assert _decision(command) == "deny", command


DELETE_HOME = ["rm -rf ~", "rm -rf $HOME", "rm -rf /home/ada-guard-test"]
KEYS = ["core.fsmonitor", "core.pager", "core.sshCommand", "core.editor", "sequence.editor",
        "diff.external", "alias.st", "core.askPass", "pager.log"]  # fmt: skip


@SETTINGS
@given(
    key=st.sampled_from(KEYS),
    payload=st.sampled_from(DELETE_HOME),
    route=st.sampled_from(["c", "config", "global", "env"]),
    tail=st.sampled_from(["; false", " #", ""]),
)
def test_a_setting_that_runs_a_destructive_command_is_denied(
    key: str, payload: str, route: str, tail: str
) -> None:
    value = ("!" if key.startswith("alias.") else "") + payload + tail
    quoted = shlex.quote(value)
    if route == "c":
        command = f"git -c {key}={quoted} status"
    elif route == "config":
        command = f"git config {key} {quoted}"
    elif route == "global":
        command = f"git config --global {key} {quoted} && git log -1"
    else:
        command = (f"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0={key} "
                   f"GIT_CONFIG_VALUE_0={quoted} git status")  # fmt: skip
    assert _decision(command) == "deny", command


@SETTINGS
@given(
    manager=st.sampled_from(["npm", "pnpm", "yarn"]),
    script=st.sampled_from(["postinstall", "prepare", "test", "build"]),
    payload=st.sampled_from(DELETE_HOME),
)
def test_a_package_script_set_to_a_destructive_command_is_denied(
    manager: str, script: str, payload: str
) -> None:
    command = f"{manager} pkg set scripts.{script}={shlex.quote(payload)}"
    assert _decision(command) == "deny", command


INSTALLERS = ["pip uninstall -y", "pip3 uninstall", "pipx uninstall", "uv pip uninstall",
              "uv tool uninstall", "uv remove", "poetry remove", "conda remove -y"]  # fmt: skip
PACKAGES = ["amplifier-hooks", "amplifier_hooks", "amplifier-hooks==1.0",
            "amplifier-module-ah-guard"]  # fmt: skip


@SETTINGS
@given(
    installer=st.sampled_from(INSTALLERS),
    package=st.sampled_from(PACKAGES),
    wrapper=st.sampled_from(WRAPPERS),
)
def test_uninstalling_the_guard_is_denied(installer: str, package: str, wrapper: str) -> None:
    command = f"{wrapper}{installer} {package}"
    assert _decision(command) == "deny", command
