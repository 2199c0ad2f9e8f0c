"""The protected places a ``find`` could find, for the actions that change what it finds.

``find . -maxdepth 1 -name '.c*' -exec rm -rf {} +`` names no protected place, yet in any
project with a ``.claude`` or ``.codex`` folder it deletes them. Each place the hosts keep
in any folder (`agents.HOSTS`' ``**/`` globs: ``.claude/settings.json``, ``.codex/
config.toml``, ``.github/hooks/...``), and below a home start point (``~``, ``$HOME``)
those kept in the home folder, is asked of find's expression (`findexpr`) as a path below
each start point that holds a workspace's top (`_TOP_STARTS`), with the folders holding
it: the actions it may reach are judged as applied to it (``rm -rf ./.claude``), as the
rules judge that command written out. A hook script's name is not known, so only a
pattern any name matches finds it (``-path '*/hooks/*'``); ``-name '*.pyc'`` finds none
of these places.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from functools import lru_cache

from amplifier_hooks.guard.agents import HOSTS, OWN_STATE
from amplifier_hooks.guard.findexpr import UNKNOWN, parse_find
from amplifier_hooks.guard.table.finding import find_start

__all__ = ["ACTS_ON_FOUND", "found_owned"]

ACTS_ON_FOUND = frozenset({"-delete", "-exec", "-execdir", "-ok", "-okdir"})
"""find's actions that change (or run a program on) what it finds."""
_HOME_STARTS = frozenset({"~", "~/", "$HOME", "${HOME}", "$HOME/", "${HOME}/"})
_TOP_STARTS = frozenset({*_HOME_STARTS, ".", "./", "..", "../", "/", "$PWD", "${PWD}", "$PWD/",
                         "${PWD}/"})  # fmt: skip
"""Start points that hold a workspace's own top (or a home folder's): where a host keeps
its places. A folder named below them (``find build -name '*.json' -delete``) is taken for
one of the person's own, as `find-delete-settings-names` takes it."""
_DEPENDENCIES = "node_modules"
"""Left out: ``find . -name node_modules -prune -exec rm -rf {} +`` is the everyday clean
of a project's dependencies, and finds ``.opencode/node_modules`` too; deleting it loses
no setting (what a plugin imports is fetched again), and writing into it is judged
where a command names it."""
_SCRIPT_NAME = "hook"
"""The name written for a file of a hook folder (any name there is protected)."""

Place = tuple[tuple[str, ...], str, tuple[str, ...]]
"""(the parts below a start point, ``f`` or ``d``, the parts written for it)."""


def _concrete(name: str) -> tuple[str, ...]:
    """A protected file name's spellings: ``settings*.json`` is ``settings.json`` and
    ``settings.local.json``."""
    if "*" not in name:
        return (name,)
    return (name.replace("*", ""), name.replace("*", ".local"))


def _places_of(tail: str) -> list[Place]:
    parts = tuple(tail.split("/"))
    found: list[Place] = [(parts[:n], "d", parts[:n]) for n in range(1, len(parts))]
    if parts[-1] == "**":  # a folder all of whose files are protected, whatever their name
        found.append(((*parts[:-1], UNKNOWN), "f", (*parts[:-1], _SCRIPT_NAME)))
    else:
        found += [((*parts[:-1], n), "f", (*parts[:-1], n)) for n in _concrete(parts[-1])]
    return found


@lru_cache(maxsize=2)
def _places(home: bool) -> tuple[Place, ...]:
    """Each protected place below a start point (below the home folder too, if ``home``),
    its folders first; each once."""
    tails = [s.glob[3:] for s in HOSTS if s.glob.startswith("**/")]
    if home:
        tails += [g[2:] for g in (*(s.glob for s in HOSTS), *OWN_STATE) if g.startswith("~/")]
    tails = [t for t in tails if "node_modules" not in t]  # (`_DEPENDENCIES`)
    seen: dict[tuple[str, ...], Place] = {}
    for tail in tails:
        for place in _places_of(tail):
            seen.setdefault(place[0], place)
    return tuple(seen.values())


_OPERATORS = frozenset({"-o", "-or", ",", "!", "-not", "("})


def _names_kept(expression: tuple[str, ...]) -> frozenset[str] | None:
    """The place names every ``-name``/``-iname`` of an expression of tests all of which
    must hold keeps (``-name '*.pyc'``: none), a cheap screen before `findexpr`; None where
    an operator may let another name through."""
    if not _OPERATORS.isdisjoint(expression):
        return None
    kept: frozenset[str] | None = None
    for index, word in enumerate(expression[:-1]):
        if word in ("-name", "-iname"):
            these = _matching(expression[index + 1], word == "-iname")
            kept = these if kept is None else kept & these
    return kept


@lru_cache(maxsize=256)  # a few patterns recur (`*.pyc`, `node_modules`)
def _matching(pattern: str, fold: bool) -> frozenset[str]:
    names = {p[0][-1] for p in (*_places(False), *_places(True))}
    if fold:
        return frozenset(n for n in names if fnmatchcase(n.lower(), pattern.lower()))
    return frozenset(n for n in names if fnmatchcase(n, pattern))


def found_owned(args: tuple[str, ...]) -> dict[int, list[str]]:
    """For each action of ``find args`` (its word's index; ``len(args)`` for the print find
    adds when there is none), the protected places below its start points it may run on,
    each as a path below its start point. Empty where find's expression is not read."""
    starts, at = find_start(args)
    expr = parse_find(args, at)
    if expr is None:
        return {}
    found: dict[int, list[str]] = {}
    names = _names_kept(args[at:])
    for start in starts or (".",):
        if start not in _TOP_STARTS:
            continue
        for parts, kind, written in _places(start in _HOME_STARTS):
            if names is not None and parts[-1] not in names:
                continue
            if not expr.may_act_on(parts[-1]):  # (a screen: `reaches` would find nothing)
                continue
            below = max(1, expr.mindepth - len(parts))  # the same place in folders below
            nested = (*(UNKNOWN,) * below, *parts)
            reached = expr.reaches(start, parts, kind) | expr.reaches(start, nested, kind)
            path = (start if start.endswith("/") else start + "/") + "/".join(written)
            for action in reached:
                found.setdefault(action, []).append(path)
    return found
