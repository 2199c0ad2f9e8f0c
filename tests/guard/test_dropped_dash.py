"""A lone ``-`` before a redirection is an argument: the grammar leaves it out of its tree
(``cmd - 2>/dev/null x`` reads as ``cmd 2>/dev/null x``), the guard puts it back."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.parser import parse_by_tree, parse_fresh
from tests.guard.conftest import decided


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("echo - 2>/dev/null x", ("-", "x")),
        ("cat - 2>/dev/null", ("-",)),
        ("echo a 2>/dev/null - x", ("a", "-", "x")),
        (
            "ansible-vault decrypt --output - 2>/dev/null v.yml",
            ("decrypt", "--output", "-", "v.yml"),
        ),
        ("rm 2>/dev/null -rf build", ("-rf", "build")),
    ],
)
def test_the_dash_is_kept(command: str, args: tuple[str, ...]) -> None:
    assert parse_by_tree(command).pieces[0].args == args
    assert parse_fresh(command).pieces[0].args == args


def test_a_decrypt_to_standard_output_stays_denied_with_a_redirection_after_the_dash() -> None:
    command = "ansible-vault decrypt --output - 2>/dev/null group_vars/prod/vault.yml"
    assert decided(command) == ("deny", "credential-decrypt-print-vault-stdout")
