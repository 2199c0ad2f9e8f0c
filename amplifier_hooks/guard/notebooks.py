"""Notebooks: code a person runs later, cell by cell, trusting the agent that wrote it.

A Jupyter notebook (``.ipynb``: JSON whose ``cells[]`` of ``cell_type: code`` hold a
``source``, a list of lines or a string), a jupytext or VS Code percent-format ``.py``
(cells opened by ``# %%`` lines) and a cell Claude Code's ``NotebookEdit`` puts in are
Python with IPython's additions: ``!cmd`` (and ``x = !cmd``, ``!!cmd``), ``%system`` and
``%sx`` run a shell command; a ``%%bash``, ``%%sh`` or ``%%script bash`` cell is a shell
script; ``%%writefile PATH`` writes the cell's text to ``PATH``. `notebook_code` gives
that code as (language, code) pairs, the shell's as scripts (a ``%%writefile`` as the
``cat > PATH`` heredoc it amounts to), the rest as Python, so `planted` judges it as the
code a build tool runs later is judged. An edit's new text is a fragment of the file: the
JSON strings it holds are read as the lines they are.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["NOTEBOOK_TOOL", "cell_notebook", "ipython_code", "is_notebook", "notebook_code"]

NOTEBOOK_TOOL = "Jupyter"
"""What runs a notebook's code later (the person, through its kernel)."""
MAX_NOTEBOOK = 4 * 1024 * 1024
"""A longer notebook is not read (its outputs may be large; the write is not granted)."""
_PERCENT = re.compile(r"^# %%", re.MULTILINE)
_BANG = re.compile(r"^[ \t]*(?:[\w.]+[ \t]*=[ \t]*)?!!?[\w./~$-]", re.MULTILINE)
_SHELL_LINE = re.compile(r"^(\s*)(?:[\w.]+\s*=\s*)?(?:!!?|%system\b|%sx\b|%sc\b)(.*)$")
"""A line IPython hands to the shell: ``!cmd``, ``files = !ls``, ``%system cmd``."""
_SHELL_CELLS = frozenset({"bash", "sh", "script bash", "script sh", "script zsh", "zsh"})
_MAGIC_LINE = re.compile(r"^(\s*)%")
"""Any other line magic (``%matplotlib inline``, ``%load_ext``): not Python, left out."""
_JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"(\s*:)?')


def is_notebook(path: str, text: str) -> bool:
    """Whether writing ``text`` into ``path`` writes a notebook or IPython's code: an
    ``.ipynb``, an ``.ipy``, or a ``.py`` with ``# %%`` cells or a ``!cmd`` line (not
    Python: an edit of a percent-format file whose marker the edit does not hold)."""
    if path.endswith((".ipynb", ".ipy")):
        return True
    return path.endswith(".py") and (
        ("# %%" in text and _PERCENT.search(text) is not None) or _bang_line(text)
    )


def _bang_line(text: str) -> bool:
    """Whether a line of ``text`` is a shell line (`_BANG`), tried only at the lines that
    hold a ``!`` (a match lies within one line and holds one): searched from every line's
    start, `_BANG` costs 1 ms on a 20 KB Python file (``!=``), and every write of a
    ``.py`` file asks (`is_notebook`)."""
    at = text.find("!")
    while at >= 0:
        if _BANG.match(text, text.rfind("\n", 0, at) + 1) is not None:
            return True
        end = text.find("\n", at)
        if end < 0:
            return False
        at = text.find("!", end)
    return False


def cell_notebook(inputs: Mapping[str, Any]) -> str:
    """A ``NotebookEdit`` call's input as the notebook text of its one new cell (a
    markdown or raw cell holds no code)."""
    source = inputs.get("new_source")
    kind = inputs.get("cell_type")
    cell_type = kind if isinstance(kind, str) else "code"
    cells = [{"cell_type": cell_type, "source": source}] if isinstance(source, str) else []
    return json.dumps({"cells": cells})


def notebook_code(path: str, text: str) -> list[tuple[str, str]] | None:
    """The code of the notebook text ``text`` writes into ``path`` as (language, code)
    pairs (``shell`` scripts and ``python``); None: it is too long to read."""
    if len(text) > MAX_NOTEBOOK:
        return None
    if path.endswith((".py", ".ipy")):
        return _cells_code(_percent_cells(text))
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("cells"), list):
        return _cells_code(_json_cells(data["cells"]))
    return _cells_code([_fragment_lines(text)])


def ipython_code(code: str) -> list[tuple[str, str]]:
    """IPython's code given on its command line or its input (``ipython -c CODE``) as one
    cell's (language, code) pairs: its shell lines and cells, and its Python."""
    return _cell_code(code)


def _json_cells(cells: list[object]) -> list[str]:
    found: list[str] = []
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type", "code") != "code":
            continue
        source = cell.get("source")
        if isinstance(source, list):
            found.append("".join(s for s in source if isinstance(s, str)))
        elif isinstance(source, str):
            found.append(source)
    return found


def _percent_cells(text: str) -> list[str]:
    """A percent-format file's code cells (a ``[markdown]`` cell is prose); jupytext's
    commented magics (``# !cmd``, ``# %%bash`` below a cell marker) are read as the
    magics they turn back into."""
    cells: list[list[str]] = [[]]
    prose = False
    for line in text.splitlines():
        if line.startswith("# %%") and not line.startswith("# %%%"):
            marker = line[4:].strip()
            prose = "[markdown]" in marker or "[md]" in marker or "[raw]" in marker
            cells.append([])
            continue
        if prose:
            continue
        if line.startswith("# !") or line.startswith("# %"):
            line = line[2:]
        cells[-1].append(line)
    return ["\n".join(c) for c in cells if c]


def _fragment_lines(text: str) -> str:
    """An edit's fragment of notebook JSON: the strings it holds that are not keys, read
    as the lines they are; text that holds no JSON string is read as it is."""
    lines: list[str] = []
    for match in _JSON_STRING.finditer(text):
        if match.group(2):
            continue
        try:
            value = json.loads(f'"{match.group(1)}"')
        except ValueError:
            value = match.group(1)
        if isinstance(value, str):
            lines.append(value if value.endswith("\n") else value + "\n")
    return "".join(lines) if lines else text


def _cells_code(cells: Iterable[str]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for cell in cells:
        found.extend(_cell_code(cell))
    return found


def _cell_code(cell: str) -> list[tuple[str, str]]:
    lines = cell.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    first = lines[start].strip() if start < len(lines) else ""
    if first.startswith("%%"):
        magic, _, rest = first[2:].partition(" ")
        body = "\n".join(lines[start + 1 :]) + "\n"
        if magic == "writefile" or magic == "file":
            target = [w for w in shlex.split(rest, posix=True) if not w.startswith("-")]
            if not target:
                return []
            return [("shell", _heredoc(f"cat > {shlex.quote(target[-1])}", body))]
        name = " ".join([magic, *rest.split()[:1]]) if magic == "script" else magic
        if name in _SHELL_CELLS or magic in ("system", "sx"):
            return [("shell", body)]
        if magic in ("capture", "time", "timeit", "prun"):
            return _cell_code(body)
        return []  # another language's cell (%%javascript, %%html): run in the browser
    shell: list[tuple[str, str]] = []
    python: list[str] = []
    for line in lines:
        hit = _SHELL_LINE.match(line)
        if hit is not None:
            shell.append(("shell", hit.group(2).strip()))
            python.append(f"{hit.group(1)}pass")
        elif (other := _MAGIC_LINE.match(line)) is not None:
            python.append(f"{other.group(1)}pass")
        else:
            python.append(line)
    code = "\n".join(python)
    only_magic = all(line.strip() in ("", "pass") for line in python)
    return shell if only_magic else [*shell, ("python", code)]


def _heredoc(command: str, body: str) -> str:
    """``command`` fed ``body`` through a quoted heredoc, with a delimiter ``body`` does
    not hold."""
    delimiter = "NOTEBOOK_CELL"
    while delimiter in body:
        delimiter += "_"
    return f"{command} <<'{delimiter}'\n{body}{delimiter}\n"
