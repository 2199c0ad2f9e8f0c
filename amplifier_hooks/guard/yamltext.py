"""A configuration's text read as YAML once per decision, whoever reads it.

A write of a workflow file is read by several checks (its ``run:`` steps, `cichecks`,
`wfchecks`, `autoruns`), and each used to load the same text again: a workflow's
load is 50 to 150 µs, and the corpus's workflow cases loaded their text three to five
times (``bench_guard``'s corpus p99 at 60d1924: these cases are a good part of its top percent).
Within a decision (`memo`) the data of a text is made once; outside one nothing is
remembered. The data is shared, so its readers only read it (none changes what it was
handed). A text that is no YAML raises the same error at every read.
"""

from __future__ import annotations

import textwrap
from typing import Any

import yaml

from amplifier_hooks.guard.memo import resolved

__all__ = ["LOADER", "yaml_data"]

LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""The safe loader (libyaml's where PyYAML has it: the same data, about six times faster)."""
_DATA = "yaml-data"
"""Tags this module's entries in the decision's memo (paths are remembered there too)."""


class _Failed:
    """What a text that is no YAML raised, remembered so a second read raises it too."""

    __slots__ = ("error",)

    def __init__(self, error: yaml.YAMLError | ValueError) -> None:
        self.error = error


def yaml_data(text: str, dedent: bool = True) -> object:
    """``text`` (dedented first unless ``dedent`` is false: an edit's lines are indented as
    in their file) loaded with the safe loader; raises `yaml.YAMLError` (or the
    ``ValueError`` a malformed value gives) when it is no YAML."""
    memo = resolved()
    if memo is None:
        return _load(text, dedent)
    key = (_DATA, dedent, text)
    found = memo.get(key, memo)  # (the memo itself: nothing there yet)
    if found is memo:
        try:
            found = memo[key] = _load(text, dedent)
        except (yaml.YAMLError, ValueError) as error:
            memo[key] = _Failed(error)
            raise
    if isinstance(found, _Failed):
        raise found.error.with_traceback(None)
    return found


def _load(text: str, dedent: bool) -> object:
    data: object = yaml.load(textwrap.dedent(text) if dedent else text, Loader=LOADER)
    return data
