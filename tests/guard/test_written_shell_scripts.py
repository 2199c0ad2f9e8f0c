"""A shell script the same command writes whole and runs (`writtenshell`): judged as its
commands, given the run's arguments; never granted; a loss of work, an unknown text or a
script not surely the one read stays asked as a written script."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.writtenshell import WRITTEN_READ
from tests.guard.conftest import Judge

PYTEST_SHIM = "printf '#!/bin/sh\\nexec pytest -q \"$@\"\\n' > t && chmod +x t && ./t tests/unit"


@pytest.mark.parametrize(
    "command",
    [
        PYTEST_SHIM,
        "printf '#!/bin/sh\\nset -e\\nnpm ci\\nnpm test\\n' > scripts/ci.sh && "
        "chmod +x scripts/ci.sh && ./scripts/ci.sh",
        "cat > tests/fixtures/hello.sh <<'EOF'\n#!/bin/sh\necho \"hello $1\"\nEOF\n"
        "chmod +x tests/fixtures/hello.sh && tests/fixtures/hello.sh world",
        "cat > /tmp/check.sh <<'EOF'\n#!/bin/sh\nnpm run typecheck && npm test\nEOF\n"
        "sh /tmp/check.sh",
        "echo 'make lint' > lint.sh && bash lint.sh",
    ],
)
def test_a_harmless_written_script_has_no_opinion(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision is None, (command, judged)


def test_its_commands_are_judged_not_granted(verdict: Judge) -> None:
    judged = verdict(PYTEST_SHIM)
    assert judged.decision != "allow"
    assert any(p.program == "pytest" for p in judged.pieces)


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("printf '#!/bin/sh\\nrm -rf ~\\n' > t && chmod +x t && ./t", "deny"),
        ("printf '#!/bin/sh\\nrm -rf \"$1\"\\n' > t && chmod +x t && ./t ~", "deny"),
        ("echo 'rm -rf src' > tidy.sh && sh tidy.sh", "ask"),  # a loss of work
        ("echo 'make lint' > t && echo 'make test' >> t && sh t", "ask"),  # appended
        ("printf 'make %s\\n' lint > t && sh t", "ask"),  # a format: other bytes
        ("printf '#!/usr/bin/python3\\nimport os\\n' > t && ./t", "ask"),  # not a shell's
        ("printf '#!/bin/bash -x\\nmake\\n' > t && ./t", "ask"),  # shebang options
        ("echo 'make lint' > t && sudo sh t", "ask"),  # a wrapper
        ("echo 'make lint' > t && sh -x t", "ask"),  # an option of the shell
        ("echo 'make lint' > t && cp other t && sh t", "ask"),  # changed in between
    ],
)
def test_its_harmful_or_unsure_twin_is_still_stopped(verdict: Judge, command: str,
                                                     decision: str) -> None:  # fmt: skip
    judged = verdict(command)
    assert judged.decision == decision, (command, judged)


def test_the_doubt_names_the_written_script(verdict: Judge) -> None:
    judged = verdict("echo 'make lint' > lint.sh && bash lint.sh")
    assert judged.decision is None
    assert WRITTEN_READ
