"""A Windows path (a drive letter, a share) names a file outside the workspace on the host
that sent it: it is never granted as a read of the workspace, and Windows' credential
stores and any user's keys are denied as the POSIX ones are."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, judge, load_pack
from amplifier_hooks.guard.paths import locate
from amplifier_hooks.guard.winpaths import windows_path

_WORKSPACE = Path("/home/ada-guard-test/ws")  # never created, and not under /tmp
_PLACES = Places.of(_WORKSPACE, home=_WORKSPACE.parent)


def _decision(tool: str, tool_input: dict[str, str]) -> str | None:
    return judge({"tool_name": tool, "tool_input": tool_input}, load_pack(), _PLACES).decision


@pytest.mark.parametrize(
    ("raw", "forms"),
    [
        ("D:\\data\\report.csv", ("D:/data/report.csv",)),
        ("c:/Users/kim/.aws/credentials", ("c:/Users/kim/.aws/credentials", "~/.aws/credentials")),
        ("\\\\fileserver\\team\\plan.docx", ("//fileserver/team/plan.docx",)),
        ("C:\\Users\\kim", ("C:/Users/kim",)),
    ],
)
def test_windows_absolute_paths_are_read_with_slashes_and_a_home_form(
    raw: str, forms: tuple[str, ...]
) -> None:
    found = windows_path(raw, _PLACES.known)
    assert found is not None and found.forms == forms


@pytest.mark.parametrize("raw", ["src/main.py", "C:", "notes:v2.txt", "/tmp/C:\\x", "\\n"])
def test_other_paths_are_not_windows_paths(raw: str) -> None:
    assert windows_path(raw, _PLACES.known) is None


@pytest.mark.parametrize("raw", ["E:\\builds\\out.log", "E:/builds/out.log"])
def test_a_windows_path_is_never_placed_in_the_workspace(raw: str) -> None:
    for cwd in (".", ""):  # the quick way for plain relative paths, and the full one
        where = locate(raw, cwd, _PLACES).where
        assert "unknown" in where and "outside_workspace" in where
        assert "inside_workspace" not in where


@pytest.mark.parametrize("tool", ["read_file", "grep", "list_dir"])
@pytest.mark.parametrize("raw", ["D:\\projects\\other\\README.md", "D:/projects/other/README.md"])
def test_a_read_on_another_drive_is_not_granted(tool: str, raw: str) -> None:
    assert _decision(tool, {"path": raw}) is None  # no opinion: the host decides


@pytest.mark.parametrize(
    "raw",
    [
        "C:\\Windows\\System32\\config\\SECURITY",
        "c:\\windows\\system32\\config\\sam",
        "D:\\Windows\\NTDS\\ntds.dit",
        "C:\\Users\\kim\\AppData\\Roaming\\Microsoft\\Credentials\\0A1B2C",
        "C:\\Users\\kim\\AppData\\Local\\Microsoft\\Edge\\User Data\\Profile 1\\Login Data",
        "C:/Users/kim/.kube/config",
        "C:\\Users\\kim\\.ssh\\id_ed25519",
    ],
)
def test_windows_credential_stores_are_denied_to_read(raw: str) -> None:
    assert _decision("read_file", {"path": raw}) == "deny"
    assert _decision("bash", {"command": f"cat '{raw}'"}) == "deny"


def test_a_write_on_another_drive_is_not_granted() -> None:
    assert _decision("write_file", {"path": "D:\\notes\\todo.txt", "content": "x"}) != "allow"
    assert _decision("edit_file", {"path": "C:/Users/kim/.bashrc", "content": "x"}) == "deny"


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("write_file", {"path": "C:\\Users\\kim\\.claude\\settings.json", "content": "{}"}),
        ("edit_file", {"path": "c:/users/kim/.codex/hooks.json", "content": "[]"}),
        ("write_file", {"path": "D:\\work\\app\\.gemini\\settings.json", "content": "{}"}),
        ("bash", {"command": "rm -r 'C:\\Users\\kim\\.codex'"}),
    ],
)
def test_a_hosts_hook_settings_on_a_windows_drive_are_kept(
    tool: str, tool_input: dict[str, str]
) -> None:
    assert _decision(tool, tool_input) == "deny"


def test_other_files_of_those_folders_are_not_kept_as_hook_settings() -> None:
    command = {"path": "C:\\Users\\kim\\.claude\\commands\\review.md", "content": "x"}
    # not hook settings: a command file (with no hooks in it) is the agent's to edit
    assert _decision("write_file", command) not in ("deny", "allow")
