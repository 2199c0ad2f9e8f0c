"""A delete fed names the guard cannot see (``mdfind``, ``locate``, ``getent``'s output
through ``xargs`` or ``parallel``) is never granted: asked, whatever its options; a
listing fed the same names stays free."""

from __future__ import annotations

import pytest

from tests.guard.conftest import decided


@pytest.mark.parametrize(
    "command",
    ["mdfind -name foo | xargs rm -rf", "mdfind -0 -onlyin . kind:folder | xargs -0 rm -rf",
     "mdfind -name foo | xargs -I{} rm -rf {}", "locate -0 '*.tmp' | xargs -0 rm -rf",
     "locate '*.tmp' | xargs rm -f", "getent passwd | cut -d: -f6 | xargs rm -rf",
     "getent passwd | cut -d: -f6 | parallel rm -rf", "locate foo | parallel -X rm -rf",
     "xargs rm -rf < <(mdfind foo)", "xargs -a <(mdfind foo) rm -rf",
     "mdfind foo | sudo xargs rm -rf", "locate foo > /tmp/l && xargs -a /tmp/l rm -rf"],
)  # fmt: skip
def test_a_delete_of_names_unseen_is_asked(command: str) -> None:
    assert decided(command) == ("ask", "rm-unknown-path")


@pytest.mark.parametrize(
    "command", ["locate foo | xargs ls -l", "mdfind -onlyin . -name '*.log' | xargs wc -l"]
)
def test_a_listing_of_the_same_names_stays_free(command: str) -> None:
    assert decided(command)[0] is None
