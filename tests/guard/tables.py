"""The two tests of a table of calls: each stopped call with the decision and rule that stop
it, each everyday call beside it staying free (no ask, no deny), judged by the default pack
in the corpora's scenario (`decided`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from tests.guard.conftest import decided

__all__ = ["stopped_and_free"]


def stopped_and_free(
    stopped: Sequence[tuple[str, str, str]], free: Sequence[str]
) -> tuple[Callable[[str, str, str], None], Callable[[str], None]]:
    """``test_stopped, test_everyday_stays_free = stopped_and_free(STOPPED, FREE)``: pytest
    collects them under the names the test file gives them."""

    @pytest.mark.parametrize(("command", "decision", "rule"), stopped)
    def test_stopped(command: str, decision: str, rule: str) -> None:
        assert decided(command) == (decision, rule)

    @pytest.mark.parametrize("command", free)
    def test_everyday_stays_free(command: str) -> None:
        assert decided(command)[0] not in ("deny", "ask")

    return test_stopped, test_everyday_stays_free
