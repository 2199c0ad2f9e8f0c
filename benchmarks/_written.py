"""The written-files row of `benchmarks.bench_guard`: a file tool writing a long ordinary
file (a Python module, a Makefile, a markdown page, each about 20 KB), as the guard judges
it. Its text is searched for what a write can carry (a notebook's shell lines, a hooks
key, an agent file's switches, a credential): the screens before those searches
(`notebooks.is_notebook`, `calls.file_piece`, `agentfiles.instruction_marks`) are
judged on this row, which the corpus's short texts do not show."""

from __future__ import annotations

import statistics
import time
from typing import Any

from amplifier_hooks.guard import Places, judge, load_pack
from amplifier_hooks.guard.parser import forget_parsed
from amplifier_hooks.guard.readings import forget_readings

__all__ = ["WRITTEN", "written_costs"]

_WORKSPACE = "/home/dev/project"


def _python(size: int) -> str:
    """A module of small functions comparing and assigning (``!=``, ``x = y``)."""
    lines: list[str] = ["import os", ""]
    index = 0
    while sum(len(line) + 1 for line in lines) < size:
        lines += [f"def step_{index}(value, other):",
                  f"    total = value + {index}",
                  "    if total != other:",
                  "        return total",
                  f"    return os.path.join('data', 'part_{index}.csv')", ""]  # fmt: skip
        index += 1
    return "\n".join(lines)


def _makefile(size: int) -> str:
    """Targets whose recipes are indented with tabs."""
    lines: list[str] = ["CC = cc", ""]
    index = 0
    while sum(len(line) + 1 for line in lines) < size:
        lines += [f"build/part_{index}.o: src/part_{index}.c",
                  "\t$(CC) -c -o $@ $<", ""]  # fmt: skip
        index += 1
    return "\n".join(lines)


def _markdown(size: int) -> str:
    """Headed paragraphs of prose."""
    lines: list[str] = ["# Notes", ""]
    index = 0
    while sum(len(line) + 1 for line in lines) < size:
        lines += [f"## Part {index}", "",
                  "The build reads its sources, writes its objects below build/ and "
                  "links them; each step is described here.", ""]  # fmt: skip
        index += 1
    return "\n".join(lines)


WRITTEN = (("src/steps.py", _python), ("mk/parts.mk", _makefile), ("docs/notes.md", _markdown))
"""Each file written: where, and what makes its text."""


def written_costs(rounds: int, size: int = 20_000) -> list[tuple[str, float]]:
    """(path, median CPU seconds) of a ``Write`` of each of `WRITTEN`, read afresh."""
    policy = load_pack()
    places = Places.of(_WORKSPACE, home="/home/dev")
    found: list[tuple[str, float]] = []
    for path, make in WRITTEN:
        given = {"file_path": f"{_WORKSPACE}/{path}", "content": make(size)}
        data: dict[str, Any] = {"tool_name": "Write", "tool_input": given,
                                "workspace": _WORKSPACE}  # fmt: skip
        runs = []
        for _ in range(rounds):
            forget_parsed()
            forget_readings()
            started = time.process_time()
            judge(data, policy, places)
            runs.append(time.process_time() - started)
        found.append((path, statistics.median(runs)))
    return found
