"""A workspace inside a home folder of its own, so paths resolve the same on any machine."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, Policy, Verdict, judge, load_pack

Judge = Callable[..., Verdict]


@pytest.fixture(scope="session")
def pack() -> Policy:
    return load_pack("default")


HOME = Path("/home/ada-guard-test")
"""Never created: resolving a path that does not exist only normalises it, and pytest's
temporary folders are under /tmp, which the pack treats as scratch space."""


@pytest.fixture
def places() -> Places:
    workspace = HOME / "src" / "calc"
    return Places.of(workspace, home=HOME, protected=(HOME / "bundles" / "mine.yaml",))


@pytest.fixture
def verdict(pack: Policy, places: Places) -> Judge:
    """``verdict("rm -rf ~")`` for a shell command; ``verdict(path, tool="read_file")``."""

    def run(value: str, tool: str = "bash", policy: Policy | None = None) -> Verdict:
        data = {"command": value} if tool == "bash" else {"file_path": value}
        return judge({"tool_name": tool, "tool_input": data}, policy or pack, places)

    return run
