"""docs/approval-screen.svg is what `make screenshot` makes of the screen today: the test
regenerates it in a temporary directory and compares it with the committed file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "docs" / "approval-screen.svg"
SCRIPT = ROOT / "scripts" / "screenshot_approval.py"


def test_the_committed_screenshot_is_what_the_script_makes(tmp_path: Path) -> None:
    output = tmp_path / "approval-screen.svg"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(output)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=50,
    )
    assert done.returncode == 0, done.stderr
    made = output.read_text(encoding="utf-8")
    assert "Approval&#160;required" in made and "terminal-approval" in made
    # The generator is deterministic (a standing clock, a fixed id and workspace): a
    # difference is a change to the screen that docs/ does not show yet.
    assert made == COMMITTED.read_text(encoding="utf-8"), (
        "docs/approval-screen.svg is out of date: run `make screenshot` and commit it"
    )
