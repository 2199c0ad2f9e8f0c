"""An AWS CLI call whose operation only looks (``aws ec2 describe-snapshot-attribute``).

The pack's ``cloud-change`` asks for a cloud call any of whose words names a change
(``create*``, ``delete*``, ``modify*``), since the operation may sit anywhere among them;
an option's value is a word too, so ``--attribute createVolumePermission`` of a describe
read as a create. The AWS CLI spells each call ``aws [options] SERVICE OPERATION
[--parameter value ...]``: its second word past the global options is the operation, and
one that starts with a verb that only looks (``describe-``, ``get-``, ``list-``,
``head-``) changes nothing there, whatever its values say. Such a call is marked
`CLOUD_LOOK`, which keeps ``cloud-change`` off it; the rules on what it reads (a secret's
value, a file it writes here) still hold.
"""

from __future__ import annotations

from amplifier_hooks.guard.marking import mark_each
from amplifier_hooks.guard.model import Piece

__all__ = ["CLOUD_LOOK", "mark_cloud_looks", "operation"]

CLOUD_LOOK = "@cloud-look"
"""The mark of an AWS CLI call whose operation only looks."""
_LOOKS = ("describe-", "get-", "list-", "head-")
_VALUED = frozenset({"--region", "--profile", "--output", "--endpoint-url", "--query", "--color",
                     "--ca-bundle", "--cli-read-timeout", "--cli-connect-timeout",
                     "--cli-binary-format"})  # fmt: skip
"""The AWS CLI's global options that take a value (the next word)."""


def mark_cloud_looks(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each AWS CLI call whose operation only looks marked `CLOUD_LOOK`."""
    return mark_each(pieces, ("aws",), _mark_at)


def _mark_at(pieces: tuple[Piece, ...], index: int) -> tuple[str, ...]:
    found = operation(pieces[index].args)
    return (CLOUD_LOOK,) if found is not None and found.startswith(_LOOKS) else ()


def operation(args: tuple[str, ...]) -> str | None:
    """The operation of ``aws ARGS`` (its second word past the global options), or None
    when it is not there as a plain word."""
    words: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("-"):
            if words:
                break  # (the service's parameters start: no operation word before them)
            skip = arg in _VALUED
        else:
            words.append(arg)
            if len(words) == 2:
                return arg
    return None
