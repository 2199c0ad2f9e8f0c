"""``cmake -E rm|remove|remove_directory|copy|copy_if_different|rename|touch`` are judged as
the ``rm``/``cp``/``mv``/``touch`` they are (`cmaketool`): git's facts decide deletes in the
workspace, protected places stay protected, and any other cmake call is cmake's."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, Policy
from amplifier_hooks.guard.cmaketool import cmake_operation
from amplifier_hooks.guard.words import Word
from tests.guard.conftest import committed, decided, project_places, write
from tests.guard.test_losses import decide


def _texts(command: str) -> list[str] | None:
    found = cmake_operation(tuple(Word(w, False) for w in command.split()[1:]))
    return None if found is None else [w.text for w in found[0]]


@pytest.mark.parametrize(
    ("command", "twin"),
    [
        ("cmake -E rm -rf build src", ["rm", "-rf", "build", "src"]),
        ("cmake -E remove -f a.txt", ["rm", "-f", "--", "a.txt"]),
        ("cmake -E remove -r a.txt", ["rm", "--", "-r", "a.txt"]),  # not an option there
        ("cmake -E remove_directory build", ["rm", "-r", "-f", "--", "build"]),
        ("cmake -E copy a b dest", ["cp", "--", "a", "b", "dest"]),
        ("cmake -E copy -t dest a b", ["cp", "-t", "dest", "--", "a", "b"]),
        ("cmake -E copy_if_different -rf x", ["cp", "--", "-rf", "x"]),
        ("cmake -E rename old new", ["mv", "--", "old", "new"]),
        ("cmake -E touch stamp", ["touch", "--", "stamp"]),
        ("cmake -E touch_nocreate stamp", ["touch", "-c", "--", "stamp"]),
        ("cmake -E env FOO=1 make", ["env", "FOO=1", "--", "make"]),
        ("cmake -E env --unset=A B=2 -- ls -l", ["env", "-u", "A", "B=2", "--", "ls", "-l"]),
    ],
)
def test_each_operation_reads_as_its_twin(command: str, twin: list[str]) -> None:
    assert _texts(command) == twin


@pytest.mark.parametrize(
    "command",
    ["cmake -E echo hi", "cmake --build build", "cmake -S . -B build -E rm x", "cmake -E",
     "cmake -E capabilities", "cmake -E env --modify PATH=path_list_prepend:/tmp ls",
     "cmake -E env FOO=1"],
)  # fmt: skip
def test_other_cmake_calls_are_not_file_operations(command: str) -> None:
    assert _texts(command) is None


@pytest.mark.parametrize(
    ("command", "found"),
    [("cmake -E env FOO=1 rm -rf ~", ("deny", "rm-root-or-home")),
     ("cmake -E env --unset=X -- rm -rf /", ("deny", "rm-root-or-home")),
     ("cmake -E env CC=clang ls", (None, None))],
)  # fmt: skip
def test_the_command_env_runs_is_judged_as_itself(
    command: str, found: tuple[str | None, str | None]
) -> None:
    assert decided(command) == found


def test_a_computed_operation_is_not_read() -> None:
    assert cmake_operation((Word("-E", False), Word("$OP", True), Word("x", False))) is None


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("cmake -E rm -rf .claude/hooks", "deny"),
        ("cmake -E remove -f .gemini/settings.json", "deny"),
        ("cmake -E copy build/settings.json /home/dev/.claude/settings.json", "deny"),
        ("cmake -E remove_directory .", "deny"),
        ("cmake -E remove_directory /home/dev", "deny"),
        ("cmake -E rename /home/dev/.ssh /tmp/k", "deny"),
    ],
)
def test_protected_places_stay_protected(command: str, decision: str) -> None:
    assert decided(command)[0] == decision


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``src/`` tracked with a change in progress, ``CMakeLists.txt`` tracked, ``build/``
    ignored."""
    top = tmp_path_factory.mktemp("cmake-e") / "project"
    write(top / ".gitignore", "build/\n")
    write(top / "src" / "main.c", "int main(void) { return 0; }\n")
    write(top / "CMakeLists.txt", "project(x C)\n")
    committed(top)
    write(top / "src" / "main.c", "int main(void) { return 1; }\n")
    write(top / "build" / "CMakeLists.txt.bak", "old\n")
    write(top / "build" / "out.o", "built\n")
    return top


@pytest.fixture
def places(project: Path) -> Places:
    return project_places(project)


@pytest.mark.parametrize(
    ("command", "twin"),
    [
        ("cmake -E rm -rf build src", "rm -rf build src"),
        ("cmake -E remove_directory src", "rm -rf src"),
        ("cmake -E remove src/main.c", "rm src/main.c"),
        ("cmake -E copy build/CMakeLists.txt.bak CMakeLists.txt",
         "cp build/CMakeLists.txt.bak CMakeLists.txt"),
        ("cmake -E rename build/out.o src/main.c", "mv build/out.o src/main.c"),
        ("cmake -E rm -rf build", "rm -rf build"),
        ("cmake -E copy_if_different src/main.c build/main.c", "cp src/main.c build/main.c"),
    ],
)  # fmt: skip
def test_git_facts_decide_as_for_the_twin(
    command: str, twin: str, pack: Policy, places: Places
) -> None:
    """Stopped as the twin is, by the same decision; where the twin is granted, cmake's
    spelling is free but not granted (cmake runs it)."""
    ours, theirs = decide(command, pack, places).decision, decide(twin, pack, places).decision
    assert ours == (None if theirs == "allow" else theirs)


def test_losing_work_is_stopped_and_the_build_folder_is_free(pack: Policy, places: Places) -> None:
    assert decide("cmake -E rm -rf build src", pack, places).decision in ("ask", "deny")
    assert decide("cmake -E rm -rf build", pack, places).decision not in ("ask", "deny")
    # never granted: cmake runs it (a launcher)
    assert decide("cmake -E touch build/stamp", pack, places).decision != "allow"
