"""A git setting that runs a program, or includes a file, named by a path in the call's own
workspace or home is denied wherever that home is (``/Users/dev``, not only ``/home/*``):
the value is resolved as a path, not read as text (`gitconfigscripts`)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard import Places, Policy, judge
from amplifier_hooks.guard.gitconfigscripts import CONFIG_SCRIPT, mark_config_scripts
from amplifier_hooks.guard.parser import parse_command

MAC = Places.of("/Users/dev/project", home="/Users/dev")


def _decided(pack: Policy, tool: str, given: dict[str, str]) -> tuple[str | None, str | None]:
    verdict = judge({"tool_name": tool, "tool_input": given}, pack, MAC)
    return verdict.decision, verdict.rule


@pytest.mark.parametrize(
    "command",
    [
        "git config --global core.editor /Users/dev/project/scripts/x",
        'git config --global core.editor "/Users/dev/project/scripts/edit-and-sync --wait"',
        'git config --global includeIf."gitdir:~/".path /Users/dev/project/.gitconfig.shared',
        "git config --file=$HOME/.gitconfig core.askPass /Users/dev/project/tools/askpass",
        "git config --global diff.external /Users/dev/project/tools/difftool",
        "git config set --global sequence.editor /Users/dev/bin/seq",
        "git config --global filter.x.smudge '/Users/dev/project/x %f'",
    ],
)
def test_a_setting_pointing_at_the_calls_own_workspace_or_home_is_denied(
    pack: Policy, command: str
) -> None:
    assert _decided(pack, "bash", {"command": command})[0] == "deny", command


@pytest.mark.parametrize(
    "command",
    [
        "git config --global core.editor /usr/bin/vim",
        "git config --global core.excludesFile /Users/dev/.gitignore_global",
        "git config --global user.name /Users/dev/project",
        "git config --get core.editor",
        "git config --global credential.helper /usr/local/bin/git-credential-manager",
    ],
)
def test_a_system_program_or_a_setting_that_runs_nothing_is_not_denied(
    pack: Policy, command: str
) -> None:
    assert _decided(pack, "bash", {"command": command})[0] != "deny", command


def test_a_gitconfig_edited_to_include_a_workspace_file_is_denied(pack: Policy) -> None:
    new = "[include]\n\tpath = /Users/dev/project/.gitconfig.local\n[user]"
    edit = {"file_path": "/Users/dev/.gitconfig", "old_string": "[user]", "new_string": new}
    assert _decided(pack, "Edit", edit)[0] == "deny"


def test_only_a_code_running_key_with_a_writable_path_is_marked() -> None:
    def marks(command: str) -> tuple[str, ...]:
        return mark_config_scripts(parse_command(command).pieces, MAC)[0].wrappers

    assert CONFIG_SCRIPT in marks("git config core.pager /Users/dev/project/p")
    assert CONFIG_SCRIPT in marks("git config core.pager ~/p")
    assert CONFIG_SCRIPT not in marks("git config core.pager /usr/bin/less")
    assert CONFIG_SCRIPT not in marks("git config core.pager less")  # a name: the PATH's
    assert CONFIG_SCRIPT not in marks("git config user.email /Users/dev/x")
    assert CONFIG_SCRIPT not in marks("git config core.pager")  # a read, no value
    assert CONFIG_SCRIPT not in marks("git status")
    assert CONFIG_SCRIPT not in marks("git config core.pager 'less \"unclosed'")
