"""Every Python snippet in docs/*.md and README.md runs as written, saved as a script.

Each ```python block is run on its own in a subprocess, from an empty directory that sees
the checkout's bundles/, modules/ and examples/ (as a reader in the checkout would), with
its own state directory and no approval store from the environment. A block that is
deliberately a fragment (a signature, a piece of a loop) says so with an HTML comment
right above it, ``<!-- fragment: why -->``, and there are only a few.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
FRAGMENT = re.compile(r"<!--\s*fragment\b(.*?)-->\s*$", re.DOTALL)
MOST_FRAGMENTS = 5
"""Fragments are the exception: a reader copies snippets to try them."""
SHARED = ("bundles", "modules", "examples")


def snippets() -> list[tuple[str, str, str | None]]:
    """``(where, code, why it is a fragment or None)`` for every block, in file order."""
    found = []
    for doc in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        text = doc.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
            marker = FRAGMENT.search(before)
            why = marker.group(1).strip(" :") if marker else None
            found.append((f"{doc.relative_to(ROOT)}:{line}", match.group(1), why))
    return found


SNIPPETS = snippets()
RUNNABLE = [(where, code) for where, code, why in SNIPPETS if why is None]


def test_there_are_snippets_and_few_fragments() -> None:
    assert len(RUNNABLE) >= 15
    fragments = [(where, why) for where, _, why in SNIPPETS if why is not None]
    assert len(fragments) <= MOST_FRAGMENTS, fragments
    assert all(why for _, why in fragments), "a fragment says why it is one"


@pytest.mark.parametrize(("where", "code"), RUNNABLE, ids=[where for where, _ in RUNNABLE])
def test_the_snippet_runs_as_a_script(where: str, code: str, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    for name in SHARED:
        (work / name).symlink_to(ROOT / name, target_is_directory=True)
    script = work / "snippet.py"
    script.write_text(code, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("AMPLIFIER_HOOKS_")}
    env.update(
        XDG_STATE_HOME=str(tmp_path / "state"),
        AMPLIFIER_HOOKS_LOG=str(tmp_path / "events.jsonl"),
        NO_COLOR="1",
    )
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=work,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=50,
    )
    assert done.returncode == 0, f"{where} failed:\n{done.stderr[-3000:]}"
