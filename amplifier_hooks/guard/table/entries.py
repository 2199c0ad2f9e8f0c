"""A program's home in the table: how its options and operands become `acts`.

An `Entry` reads a program's arguments (after its name) into a `Reading`; `entry` builds
one from the program's options (`options.Options`) and what its operands are, `plain`
one for a program with no options, and `merged` joins the tables of several families.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from amplifier_hooks.guard.table.acts import Act, Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.options import Options, Read, read_options

__all__ = ["Entry", "entry", "merged", "option_acts", "plain"]

Entry = Callable[[tuple[str, ...]], Reading]
"""A program's home in the table: its arguments (after the program name) to its acts."""


_TARGETED = {"read": Does.READ, "write": Does.WRITE, "delete": Does.DELETE, "run": Does.RUN,
             "network": Does.NETWORK, "link": Does.LINK}  # fmt: skip
"""Option roles whose value is the act's target (``sort -o FILE``: write FILE)."""


def option_acts(read: Read) -> tuple[Act, ...]:
    """The acts of the options whose value is a target (`_TARGETED`); an option that
    does ``run``/``network`` with no value still runs or reaches something."""
    acts: list[Act] = []
    for given in read.given:
        does = _TARGETED.get(given.opt.does)
        if does is None or given.negated:
            continue
        acts.append(Act(does, given.value if given.value is not None else ""))
    return tuple(acts)


def entry(options: Options, operands: Does | None = Does.READ,
          check: Callable[[Read], Reading | None] | None = None) -> Entry:  # fmt: skip
    """An entry for a program whose options are ``options`` and whose operands are each
    ``operands`` (None: not paths, e.g. ``echo``'s words). ``check`` may read the command
    line further and return its own reading (a mode that changes what the operands are)."""

    def reading(args: tuple[str, ...]) -> Reading:
        read = read_options(options, args)
        if read.doubt is not None:
            return doubtful(read.doubt)
        for given in read.given:
            if given.opt.does == "doubt" and not given.negated:
                return doubtful(f"{given.opt.names[0]} is an option the guard does not read")
        if check is not None:
            special = check(read)
            if special is not None:
                return special
        acts = option_acts(read)
        if operands is not None:
            acts += acts_of(operands, read.operands)
        return Reading(acts)

    return reading


def plain(operands: Does | None = Does.READ) -> Entry:
    """A program that takes no options at all."""
    return entry(Options(()), operands)


def merged(*tables: Mapping[str, Entry]) -> dict[str, Entry]:
    found: dict[str, Entry] = {}
    for table in tables:
        overlap = found.keys() & table.keys()
        if overlap:
            raise ValueError(f"programs in two homes: {sorted(overlap)}")
        found.update(table)
    return found
