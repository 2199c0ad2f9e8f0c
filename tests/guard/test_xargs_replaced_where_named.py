"""``LISTER | xargs -I{} CMD``: each line the lister prints goes where ``{}`` is in CMD,
nowhere else (`loops.bind_xargs`). Appended after CMD's words, the lister's folder read as
CMD's last operand: a copy's or a link's destination, so a program planted onto the PATH
or over a startup file went unjudged."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.loops import _given_roots
from tests.guard.conftest import decided


@pytest.mark.parametrize(
    ("command", "stopped"),
    [
        ('ls tools/shims | xargs -I{} ln -sf "$PWD/tools/shims/{}" ~/bin/{}', ("deny", "ask")),
        ("ls tools/shims | xargs -I{} ln -sf tools/shims/{} ~/bin/", ("deny",)),
        ("ls dotfiles | xargs -I{} cp dotfiles/{} ~/.bashrc", ("deny",)),
    ],
)
def test_a_destination_after_the_replaced_word_is_judged(
    command: str, stopped: tuple[str, ...]
) -> None:
    assert decided(command)[0] in stopped


@pytest.mark.parametrize(
    "command",
    [
        "find src -name '*.py' | xargs -I{} wc -l {}",
        "ls src | xargs -I{} wc -l src/{}",
        "ls tests/*.py | xargs -n1 python3 -m pytest -q",
    ],
)
def test_everyday_listings_stay_free(command: str) -> None:
    assert decided(command)[0] not in ("deny", "ask")


def test_roots_go_where_named() -> None:
    assert _given_roots(("-sf", "a/{}", "~/bin/"), ("x",)) == ("-sf", "a/x", "~/bin/")
    assert _given_roots(("-l",), ("src", "lib")) == ("-l", "src", "lib")
    assert _given_roots(("{}",), ("src", "lib")) == ("src", "lib")
