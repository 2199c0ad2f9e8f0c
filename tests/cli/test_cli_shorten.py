"""A call shortened to its cell is cut between whole words, never inside one: at 80x24 the
demo's ``bash: python -m pytest -q tests/test_calc.py`` reads ``bash: …test_calc.py``, not
``bash: pyth…st_calc.py``."""

from __future__ import annotations

import time
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from textual.widgets import DataTable

from amplifier_hooks.bundles import load_bundle
from amplifier_hooks.cli.run import build_app
from amplifier_hooks.cli.session import DEFAULT_BUNDLE, DEMO_TRACE
from amplifier_hooks.cli.shorten import _BOUNDARY, shorten_words
from amplifier_hooks.cli.trace_files import read_trace


def test_the_demos_calls_keep_the_tool_and_the_file() -> None:
    call = "bash: python -m pytest -q tests/test_calc.py"
    assert shorten_words(call, 21) == "bash: …test_calc.py"
    assert shorten_words("read_file: tests/test_calc.py", 21) == "…tests/test_calc.py"
    assert shorten_words("claude-sonnet-4 (12 messages)", 21) == "claude-sonnet-4 (12…"
    assert shorten_words("glob: **/*.py", 21) == "glob: **/*.py"  # fits: untouched


def _words_whole(original: str, short: str) -> bool:
    """Each side of the `…` is a whole-word start or end of ``original``."""
    if "…" not in short:
        return short == original
    head, _, tail = short.partition("…")
    head_ok = not head or original[len(head)] in _BOUNDARY or head[-1] in _BOUNDARY
    start = len(original) - len(tail)
    tail_ok = not tail or original[start - 1] in _BOUNDARY or original[start - 1] == " "
    return original.startswith(head) and original.endswith(tail) and head_ok and tail_ok


@given(st.text(alphabet="ab /:-._", min_size=0, max_size=60), st.integers(2, 40))
def test_never_longer_than_the_width_and_cut_between_words_when_it_can(
    text: str, width: int
) -> None:
    short = shorten_words(text, width)
    assert len(short) <= width
    if len(text) <= width:
        assert short == text
    elif any(c in _BOUNDARY for c in text[:width]):  # a word-bounded cut exists
        assert _words_whole(text, short), short
    else:  # one long word: cut in its middle, both ends kept
        head, _, tail = short.partition("…")
        assert text.startswith(head) and text.endswith(tail)


async def test_at_80x24_no_call_in_the_table_is_cut_inside_a_word() -> None:
    trace = read_trace(DEMO_TRACE)
    app, coordinator = await build_app(
        trace, load_bundle(DEFAULT_BUNDLE), approvals="deny", store=":memory:", delay=0
    )
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            deadline = time.monotonic() + 45
            while not app.done:
                assert time.monotonic() < deadline
                await pilot.pause(0.01)
            await pilot.pause()
            table: DataTable[Any] = app.query_one("#events", DataTable)
            cut = 0
            for index, step in enumerate(app.steps):
                shown = table.get_row_at(index)[-1].plain
                if "…" in shown:
                    cut += 1
                    assert _words_whole(step.summary, shown), (step.summary, shown)
            assert cut  # the demo has calls too long for 80 columns
            await pilot.press("q")
    finally:
        await coordinator.cleanup()
