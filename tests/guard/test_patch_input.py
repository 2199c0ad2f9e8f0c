"""GNU patch changes into each ``-d DIR`` as it reads the option, then opens its input
(``-i``), output (``-o``), rejects (``-r``) and operands: the guard finds them there. The
input is only read, never written; the folder ``-d`` names is where patch writes, and a
protected one is denied as before."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, Policy, judge, load_pack
from amplifier_hooks.guard.table import read_program

PLACES = Places.of("/home/dev/project", home="/home/dev")
PACK: Policy = load_pack()


def _verdict(command: str) -> tuple[str, str]:
    verdict = judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES)
    return verdict.decision, verdict.reason or ""


def test_the_input_is_found_below_the_folder_and_only_read() -> None:
    decision, reason = _verdict(
        "patch --directory=third_party/zlib -p1 --forward --input=../../patches/zlib-cve.patch"
    )
    assert decision not in ("deny", "ask"), reason
    assert "/home/patches" not in reason


@pytest.mark.parametrize(
    "command",
    [
        "patch -d third_party/zlib -p1 -i ../../patches/zlib-cve.patch",
        "patch -d src -o out.c a.c -i ../fix.diff",  # -o is src/out.c, in the workspace
        "patch -d src -d lib -p1 -i ../../fix.diff",  # src/lib, the input ./fix.diff
    ],
)
def test_files_below_a_workspace_folder_are_not_asked(command: str) -> None:
    decision, reason = _verdict(command)
    assert decision not in ("deny", "ask"), (command, reason)


@pytest.mark.parametrize(
    "command",
    [
        "patch -p1 -i ~/.ssh/id_rsa",
        "patch -d src -p1 -i ../../.ssh/id_rsa",  # /home/dev/.ssh/id_rsa, from src
        "patch -d src -p1 --input=/home/dev/.ssh/id_ed25519",
    ],
)
def test_a_credential_read_as_the_input_is_not_granted(command: str) -> None:
    decision, reason = _verdict(command)
    assert decision in ("deny", "ask"), (command, reason)
    assert "outside the workspace" not in reason, reason


@pytest.mark.parametrize(
    "command",
    [
        "patch -d .claude -p1 -i ../fix.diff",
        "patch -d .claude -d hooks -p1 -i ../../fix.diff",  # .claude/hooks
        "patch -d src -o ../.claude/settings.json a.c -i ../fix.diff",  # -o from src
        "patch -d src --directory ~/.gemini -i upgrade.diff",  # an absolute -d replaces
    ],
)
def test_a_protected_place_reached_through_the_folder_is_denied(command: str) -> None:
    assert _verdict(command)[0] == "deny", command


def test_the_files_patch_opens_are_named_from_where_it_was_run() -> None:
    read = read_program("patch", ("-d", "a", "-d", "b", "-o", "out.c", "-r", "rej", "a.c",
                                  "--input=../p.diff"))  # fmt: skip
    assert read is not None and read.doubt is None
    assert read.values("into") == ("a", "b")
    assert read.values("read") == ("a/b/../p.diff",)
    assert read.values("write") == ("a/b/out.c", "a/b/rej")
    assert read.operands == ("a/b/a.c",)
    assert set(read.words) == {"a", "a/b", "a/b/out.c", "a/b/rej", "a/b/a.c", "a/b/../p.diff"}
    unmoved = read_program("patch", ("-p1", "-i", "x.diff"))
    assert unmoved is not None and unmoved.values("read") == ("x.diff",)


def test_gnu_patch_reads_and_writes_below_the_folder(tmp_path: Path) -> None:
    """What the guard assumes, checked against the real program in a temporary folder."""
    if shutil.which("patch") is None:
        if os.environ.get("CI"):
            pytest.fail("GNU patch is not installed")
        pytest.skip("GNU patch is not installed")
    work = tmp_path / "sub" / "dir"
    work.mkdir(parents=True)
    (work / "f.txt").write_text("a\n")
    (tmp_path / "patches").mkdir()
    (tmp_path / "patches" / "p.diff").write_text("--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-a\n+b\n")
    args = ("-d", "sub", "-d", "dir", "-p1", "-o", "out.txt", "-i", "../../patches/p.diff")
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "LC_ALL": "C"}
    done = subprocess.run(["patch", *args], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    read = read_program("patch", args)
    assert read is not None
    (input_file,) = read.values("read")
    (output,) = read.values("write")
    assert (tmp_path / input_file).resolve() == (tmp_path / "patches" / "p.diff").resolve()
    assert (tmp_path / output).read_text() == "b\n"
    assert (work / "f.txt").read_text() == "a\n"  # -o: the original is left as it was


@pytest.mark.parametrize(
    "command",
    ["patch a.txt ../fix.patch", "patch -d src a.c ../../fix.patch", "patch a.c /tmp/x.diff"],
)
def test_the_patch_file_given_after_the_original_is_only_read(command: str) -> None:
    """``patch ORIGFILE PATCHFILE``: the second operand is the patch patch reads."""
    decision, reason = _verdict(command)
    assert decision not in ("deny", "ask"), (command, reason)
    assert "outside the workspace" not in reason, reason


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("patch ../x.txt fix.patch", "ask"),  # the original is written, outside the workspace
        ("patch .claude/settings.json fix.patch", "deny"),
        ("patch -d .claude settings.json ../fix.patch", "deny"),
        ("patch a.c ~/.ssh/id_rsa", "deny"),  # the patch file read: a credential
    ],
)
def test_the_original_file_is_still_written(command: str, expected: str) -> None:
    assert _verdict(command)[0] == expected, command


def test_gnu_patch_reads_its_second_operand_and_writes_its_first(tmp_path: Path) -> None:
    """What the guard assumes of ``patch ORIGFILE PATCHFILE``, checked on the real program."""
    if shutil.which("patch") is None:
        if os.environ.get("CI"):
            pytest.fail("GNU patch is not installed")
        pytest.skip("GNU patch is not installed")
    (tmp_path / "f.txt").write_text("a\n")
    diff = "--- f.txt\n+++ f.txt\n@@ -1 +1 @@\n-a\n+b\n"
    (tmp_path / "p.diff").write_text(diff)
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "LC_ALL": "C"}
    done = subprocess.run(["patch", "f.txt", "p.diff"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "f.txt").read_text() == "b\n"
    assert (tmp_path / "p.diff").read_text() == diff
