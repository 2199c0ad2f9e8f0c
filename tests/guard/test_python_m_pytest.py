"""``python -m pytest ARGS`` is ``pytest ARGS`` (`table.python.module_writes`): the tests
it is given, in a sibling clone too, are read and run, not written, so it is judged as
``pytest`` is (never granted: the project's own code). An option that names a file it
writes or settings it takes from elsewhere keeps every operand a write."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard import Places, Policy, judge, load_pack
from amplifier_hooks.guard.table.python import module_writes

PLACES = Places.of("/home/dev/project", home="/home/dev")
PACK: Policy = load_pack()


def _decision(command: str) -> str | None:
    return judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES).decision


@pytest.mark.parametrize(
    "command",
    ["cd ../lib && python -m pytest -x -q tests/test_parser.py",
     "python3 -m pytest ~/src/lib/tests -k retry", "python3.12 -m pytest -q ../lib/tests",
     "cd ~/src/api && python -m pytest"],
)  # fmt: skip
def test_python_m_pytest_in_a_sibling_clone_is_judged_as_pytest(command: str) -> None:
    assert _decision(command) is None
    assert _decision(command.replace("python3.12 -m ", "").replace("python3 -m ", "")
                     .replace("python -m ", "")) is None  # fmt: skip


@pytest.mark.parametrize(
    "command",
    ["python -m pytest -o cache_dir=../lib/.c tests", "python -m pytest -qo cache_dir=../x tests",
     "python -m pytest --junitxml ../lib/report.xml tests"],
)  # fmt: skip
def test_an_option_that_writes_outside_the_workspace_still_asks(command: str) -> None:
    assert _decision(command) == "ask"


def test_a_report_written_over_a_start_up_file_is_denied() -> None:
    assert _decision("python -m pytest --junitxml ~/.bashrc tests") == "deny"


@pytest.mark.parametrize(
    ("args", "written"),
    [(("-m", "pytest", "-x", "tests"), ()), (("-m", "pytest", "--html=r.html"), None),
     (("-m", "pytest", "--basetemp", "/tmp/b"), None), (("x.py", "-m", "pytest"), None),
     (("-m", "json.tool", "a.json", "b.json"), ("b.json",))],
)  # fmt: skip
def test_module_writes_reads_pytest_and_json_tool(
    args: tuple[str, ...], written: tuple[str, ...] | None
) -> None:
    assert module_writes(args) == written
