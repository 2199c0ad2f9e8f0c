"""The shell evaluates an arithmetic context's values as expressions, and an array
subscript in one runs its command substitution: ``read n < f; (( n > 0 ))``, ``[[ $n -gt
0 ]]`` and ``echo $((n + 1))`` run whatever ``a[$(cmd)]`` the file holds. Such a call is
not granted (`statements.ARITHMETIC`, `grant`); the shell's own numbers (``$#``, ``$?``,
``${#x}``, ``RANDOM``) and literal numbers are still granted, as is ``[``'s ``-gt``,
which reads numbers only."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.statements import ARITHMETIC
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "command",
    [
        "read -r n < count.txt; (( n > 0 )) && echo more",
        "read -r n < count.txt; [[ $n -gt 0 ]] && echo more",
        "read -r n < count.txt; echo $((n + 1))",
        '[[ "$(cat count.txt)" -ge 1 ]] && echo some',
        "n=$(head -1 count.txt); echo $[n * 2]",
        "while read -r n; do (( total += n )); done < sizes.txt; echo done",
        'read -r k < keys.txt; [[ -v "seen[$k]" ]] && echo seen',
        'read -r k < keys.txt; unset "seen[$k]"',
    ],
)
def test_a_value_known_at_run_time_evaluated_as_arithmetic_is_not_granted(
    verdict: Judge, command: str
) -> None:
    judged = verdict(command)
    assert judged.decision != "allow", (command, judged)


@pytest.mark.parametrize(
    "command",
    [
        "[[ $# -gt 0 ]] || echo none",
        "[[ $? -ne 0 ]] && echo failed",
        "[[ ${#PATH} -gt 0 ]] && echo set",
        "[[ 3 -lt 4 ]] && echo yes",
        '[ "$(wc -l < notes.txt)" -gt 0 ] && echo lines',
        "[[ -f notes.txt ]] && cat notes.txt",
        "echo $((RANDOM % 6))",
        "echo $((2 + 3))",
        "{ echo a; echo b; } >> notes.txt",
        "[[ -v HOME ]] && echo set",
        "unset seen[1]",
    ],
)
def test_the_shells_own_numbers_are_still_granted(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision == "allow", (command, judged)


def test_the_arithmetic_word_is_given_only_for_values() -> None:
    def words(command: str) -> list[tuple[str, ...]]:
        return [p.args for p in parse_command(command).pieces if p.program in ("((", "[[")]

    def opaque(command: str) -> bool:
        # tree-sitter-bash before 0.25 (the lowest versions' run) reads `(( ))` as a
        # command named by `$((...))`: an unknown program, never granted either way
        return [p.program for p in parse_command(command).pieces] == [None]

    assert words("(( n > 0 ))") == [(ARITHMETIC,)] or opaque("(( n > 0 ))")
    assert words("(( 1 + 2 ))") == [()] or opaque("(( 1 + 2 ))")
    assert words("[[ $n -eq 1 ]]") == [(ARITHMETIC,)]
    assert words("[[ $n == 1 ]]") == [()]  # a string comparison evaluates nothing
    assert words("[ $n -eq 1 ]") == [()]
