"""Properties of the PowerShell reading, on commands composed from the cmdlet table:
cmdlets and their aliases in any case, parameters by any unique prefix, ``-Name:value``,
statements and pipelines.

- A PowerShell grant implies that every command in it only reads: one cmdlet that
  changes, runs or fetches anything (or a native program) takes the grant away.
- Removing the home folder or a host's settings is denied however the cmdlet, its
  parameters and the place are spelled.

Nothing is run: the guard only reads the text.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard import Places, judge, load_pack
from amplifier_hooks.guard.psaliases import ALIASES
from amplifier_hooks.guard.pscmdlets import CMDLETS

PACK = load_pack()
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_HOME = Path("/home/ada-ps-props")  # never created
_PLACES = Places.of(_HOME / "project", home=_HOME)

READS = sorted(n for n, c in CMDLETS.items() if c.reads and c.act in ("read", "list", "look"))
CHANGES = ["Remove-Item x", "Set-Content a.txt b", "Copy-Item a b", "dotnet build",
           "git status", "Invoke-WebRequest https://example.invalid", "Start-Process x",
           "New-Item -ItemType Directory d", "& $c", "Stop-Service s"]  # fmt: skip
HOMES = ["~", "$HOME", "$env:USERPROFILE", "${env:USERPROFILE}", f"C:\\Users\\{_HOME.name}",
         f"c:/users/{_HOME.name.upper()}", "$env:HOMEDRIVE$env:HOMEPATH"]  # fmt: skip
REMOVERS = ["Remove-Item", "remove-item", "REMOVE-ITEM", *sorted(
    a for a, n in ALIASES.items() if n == "remove-item")]  # fmt: skip


def _decision(command: str) -> str | None:
    call = {"tool_name": "PowerShell", "tool_input": {"command": command}}
    return judge(call, PACK, _PLACES).decision


def _prefix(name: str, cut: int) -> str:
    """``-Name`` cut to a unique prefix as PowerShell accepts it (at least its first
    letters that no other parameter of Remove-Item shares)."""
    return "-" + name[: max(cut, 3)]


@SETTINGS
@given(
    reads=st.lists(st.sampled_from(READS), min_size=1, max_size=3),
    change=st.sampled_from(CHANGES),
    joiner=st.sampled_from(["; ", " | ", "\n"]),
    at=st.integers(min_value=0, max_value=3),
)
def test_one_command_that_is_not_a_read_takes_the_grant_away(
    reads: list[str], change: str, joiner: str, at: int
) -> None:
    words = [f"{r} README.md" for r in reads]
    words.insert(min(at, len(words)), change)
    assert _decision(joiner.join(words)) != "allow"


@SETTINGS
@given(
    remover=st.sampled_from(REMOVERS),
    home=st.sampled_from(HOMES),
    recurse=st.integers(min_value=3, max_value=7),
    force=st.integers(min_value=2, max_value=5),
    order=st.booleans(),
    colon=st.booleans(),
)
def test_removing_the_home_folder_is_denied_however_spelled(
    remover: str, home: str, recurse: int, force: int, order: bool, colon: bool
) -> None:
    flags = [_prefix("Recurse", recurse), "-" + "Force"[:force]]
    if colon:
        flags.append("-Confirm:$false")
    parts = [remover, home, *flags] if order else [remover, *flags, "-Path", home]
    assert _decision(" ".join(parts)) == "deny", parts


@SETTINGS
@given(
    writer=st.sampled_from(["Set-Content", "sc", "Add-Content", "ac", "Clear-Content", "clc",
                            "Out-File", "Remove-Item", "ri", "New-Item"]),
    home=st.sampled_from(HOMES),
    host=st.sampled_from([".claude\\settings.json", ".codex\\hooks.json", ".codex/config.toml",
                          ".gemini\\settings.json", ".claude\\settings.local.json"]),
)  # fmt: skip
def test_a_hosts_settings_in_the_home_folder_are_never_changed(
    writer: str, home: str, host: str
) -> None:
    value = "" if writer.lower() in ("clear-content", "clc", "remove-item", "ri") else " '{}'"
    command = f'{writer} "{home}\\{host}"{value}'
    assert _decision(command) == "deny", command
