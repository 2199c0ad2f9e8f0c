"""bash's namerefs are judged as the variables they name (`namerefs`): ``$ref`` after
``declare -n ref=GITHUB_TOKEN`` is the token."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.namerefs import follow_namerefs
from amplifier_hooks.guard.parser import parse_command
from tests.guard.conftest import decided


@pytest.mark.parametrize(
    "command",
    [
        'declare -n ref=GITHUB_TOKEN; echo "$ref"',
        "local -n ref=GITHUB_TOKEN; echo $ref",
        'typeset -n v; v=AWS_SECRET_ACCESS_KEY; printf "%s\\n" "${v}"',
        "declare -gn r=API_TOKEN; echo ${r:0:4}",
        'declare -n a=GITHUB_TOKEN; declare -n b=a; echo "$b"',
    ],
)
def test_a_secret_printed_through_a_nameref_is_denied(command: str) -> None:
    assert decided(command) == ("deny", "secret-variable-print"), command


def test_only_a_nameref_is_followed() -> None:
    def args(command: str) -> list[tuple[str, ...]]:
        return [p.args for p in follow_namerefs(parse_command(command).pieces) if p.args]

    assert args('declare -n r=HOME; echo "$r" "$rr" "${r}x"') == [
        ("-n", "r"), ('$HOME', "$rr", "${HOME}x")]  # fmt: skip
    assert args('declare r=HOME; echo "$r"') == [("r",), ("$r",)]  # not -n: a value
    assert args('declare -r r=HOME; echo "$r"') == [("-r", "r"), ("$r",)]
    assert args("declare -n r=$1; echo $r") == [("-n", "r"), ("$r",)]  # target unknown
    assert args('echo "$r"; declare -n r=HOME') == [("$r",), ("-n", "r")]  # not yet


def test_printf_v_of_plain_text_stays_free() -> None:
    assert decided("printf -v pad '%-10s' name")[0] == "allow"
