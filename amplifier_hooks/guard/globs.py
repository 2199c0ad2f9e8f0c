"""Path globs as a rule writes them (``~/.ssh/id_*``, ``**/.env``, ``/etc/**``), compiled
once per pack into as few regex matches per path as can be.

A glob ``**/NAME`` (NAME without ``**`` or a set) holds for a path exactly when NAME
matches the end of the path from just after a ``/`` (or from its start), which is NAME
reversed matching the start of the path reversed, up to a ``/`` or its end: all such globs
of a rule are one anchored regex match on the reversed path, which stops at the first
character no glob can take, not a search that tries every place in the path (on a glob
folder's ~100 forms the search was the largest cost of judging it: bench_guard's corpus
table). ``**/DIR/**`` (anything below DIR) is one regex search.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from amplifier_hooks.guard.globregex import glob_regex
from amplifier_hooks.guard.sievefolders import FolderViews

__all__ = ["KEPT", "SIFTED_FROM", "GlobSet", "Sieve", "Sifted", "compile_glob", "sifted"]


KEPT = 256
"""Answers a `GlobSet` keeps, by the tuple of forms asked (then cleared): they
are pure functions of the forms, and the same paths come back call after call (the files an
agent works on, ``~``, a glob folder's forms: `paths.KnownPlaces.globbed`). A kept answer
is one dict lookup; the regexes and string tests cost 1-2 µs a path and rule, and ~100 µs
on a glob folder's forms (bench_guard's corpus table: docs/performance.md). 256 keeps a
session's working set of paths at a few hundred kB for all the pack's sets."""
SIFTED_FROM = 8
"""Forms a path needs before a `GlobSet` asks its `Sieve` first: on a few forms its
regexes cost no more than the sieve (docs/performance.md)."""


class GlobSet:
    """Several globs: `matches` says whether any holds for any of a path's forms. With
    ``fold``, in any case: a deny or ask rule's place is the same place on a file system
    that ignores case (macOS, Windows: ``~/.AWS/Credentials``); a grant's and an
    exception's globs keep the exact case, so folding only adds matches where it stops."""

    __slots__ = ("_anywhere", "_answers", "_below", "_ends", "_sieve", "_whole")

    def __init__(self, patterns: tuple[str, ...], fold: bool = False) -> None:
        flags = re.IGNORECASE if fold else 0
        below: list[str] = []
        ends: list[str] = []
        whole: dict[str, list[str]] = {}
        for pattern in patterns:
            rest = pattern[3:]
            middle = rest[:-3]
            if pattern.startswith("**/") and rest.endswith("/**") and _literal(middle):
                below.append(re.escape(middle) + "/.*")  # anything below DIR
            elif pattern.startswith("**/") and rest and "**" not in rest and "[" not in rest:
                ends.append(compile_glob(rest[::-1]).pattern.removesuffix(r"\Z"))
            else:
                lead = pattern[0] if pattern[:1] in ("~", "/") else ""
                whole.setdefault(lead, []).append(compile_glob(pattern).pattern)
        # `**/DIR/**`: DIR right after a `/` or at the start, anything after it.
        self._below = re.compile(f"(?:^|/)(?:{'|'.join(below)})\\Z", flags) if below else None
        # `**/NAME`, on the reversed path: NAME reversed, then a `/` or nothing.
        self._ends = re.compile(f"(?:{'|'.join(ends)})(?:/|\\Z)", flags) if ends else None
        # The rest by how they start: a `~/` glob is only tried on `~/` forms, a `/` one on
        # absolute forms, any other on all.
        anywhere = whole.pop("", [])
        self._whole = {lead: _joined(found + anywhere, flags) for lead, found in whole.items()}
        self._anywhere = _joined(anywhere, flags) if anywhere else None
        self._sieve = Sieve(patterns)
        self._answers: dict[tuple[str, ...], bool] = {}
        """`matches` of the last `KEPT` tuples of forms (see `KEPT`)."""

    def matches(self, forms: tuple[str, ...]) -> bool:
        found = self._answers.get(forms)
        if found is None:
            # a glob folder's ~100 forms: a regex each would cost ~10x more than the sieve
            found = (len(forms) <= SIFTED_FROM or self._sieve.maybe_sifted(sifted(forms))) and (
                self._matches(forms)
            )
            if len(self._answers) >= KEPT:
                self._answers.clear()
            self._answers[forms] = found
        return found

    def _matches(self, forms: tuple[str, ...]) -> bool:
        below, ends = self._below, self._ends
        for form in forms:
            whole = self._whole.get(form[:1], self._anywhere)
            if whole is not None and whole.match(form):
                return True
            if ends is not None and ends.match(form[::-1]):
                return True
            if below is not None and below.search(form):
                return True
        return False


class Sieve:
    """A quick "no" for many globs at once: `maybe` is False only when no glob can match
    any of the forms, told from the forms' last names (a set lookup and one regex) and the
    folders that ``.../*`` and ``.../**`` globs name, in any case (a `GlobSet` may fold).
    Many rules' globs are one sieve, so a path that is nothing special
    (``tests/test_a.py``) is cleared in one step, not a regex per rule."""

    __slots__ = ("_always", "_ends", "_exact", "_folders", "_heads", "_infix_folders", "_infixes",
                 "_held", "_inner", "_named", "_names", "_rest", "_starts")  # fmt: skip

    def __init__(self, patterns: tuple[str, ...]) -> None:
        names: set[str] = set()
        exact: set[str] = set()
        named: list[str] = []
        prefixes: list[str] = []
        infixes: list[str] = []
        always = False
        for pattern in patterns:
            if _literal(pattern):
                exact.add(pattern.lower())  # `~/.ssh` is only that form, not any `.ssh`
                continue
            head, _, last = pattern.rpartition("/")
            folder = head[3:]
            deep = head.startswith("**/") and _literal(folder) and "\x00" not in folder
            # a last name of only `*`s (`DIR/*`, `DIR/**`) says nothing of the name: its
            # folder does
            anything = bool(last) and not last.strip("*")
            if anything and deep:
                infixes.append(f"/{folder}/")  # `**/DIR/**`: DIR/ at the start or after a /
            elif anything and head.startswith("**/") and (known := _leading_folders(folder)):
                infixes.append(f"/{known}/")  # `**/DIR/X*/**`: DIR/ is in every match
            elif anything and not head.startswith("*"):
                lead = _LEAD.match(pattern)
                assert lead is not None
                if lead.group():
                    prefixes.append(lead.group())
                elif known := _trailing_folders(head):
                    infixes.append(f"/{known}/")  # `?:/Windows/NTDS/**`: /Windows/NTDS/
                else:
                    always = True
            elif "**" in last or "[" in last:
                always = True  # a set may match a "/": too rare to be worth telling apart
            elif _literal(last):
                names.add(last.lower())
            else:
                named.append(last)
        named = list(dict.fromkeys(named))
        # An ASCII name meets `LIT*`, `*LIT` and `*LIT*` (ASCII LIT) as plain string tests in
        # lower case, the same answers as their regex (docs/performance.md); the rest by
        # regex (`*LIT*`'s backtracks over the name).
        heads = [n[:-1] for n in named if _affix(n[:-1]) and n.endswith("*")]
        ends = [n[1:] for n in named if _affix(n[1:]) and n.startswith("*")]
        inner = [n[1:-1] for n in named if n[:1] == n[-1:] == "*" and _affix(n[1:-1])]
        inside = {f"*{i}*" for i in inner}
        rest = [n for n in named if n[:-1] not in heads and n[1:] not in ends and n not in inside]
        self._inner = _any_of(tuple(i.lower() for i in inner))
        """Whether a name holds one of the ``*LIT*`` texts (`_any_of`)."""
        self._heads = _by_key(tuple(h.lower() for h in heads), lambda t: t[:1])
        self._ends = _by_key(tuple(e.lower() for e in ends), lambda t: t[-1:])
        """The names' literal starts by their first character, their ends by their last: a
        name meets only the few that can hold."""
        self._rest = _NameGlobs(rest) if rest else None
        floating = self._rest.held if self._rest else ()
        self._held = _any_of((*(i.lower() for i in inner), *floating))
        """Every text a name holds to meet a ``*LIT*`` glob or one of `_rest`'s floating ones:
        most names hold none, told by one search, not two (`bench_guard`'s fresh row)."""
        self._always = always
        self._exact = frozenset(exact)
        self._names = frozenset(names)
        self._named = (
            _joined([compile_glob(n).pattern for n in named], re.IGNORECASE) if named else None
        )
        lowered = tuple(p.lower() for p in prefixes)
        self._starts = tuple("\x00" + p for p in lowered)
        self._infixes = _fewest(tuple(i.lower() for i in infixes), str.__contains__)
        self._folders = FolderViews(self._exact, _fewest(lowered, str.startswith), self._infixes)
        """What the literal paths, prefixes and infixes say of each folder (`sievefolders`)."""
        self._infix_folders = frozenset(i.split("/")[1] for i in self._infixes)
        """Each infix's first folder (``.git`` of ``/.git/hooks/``): an infix ``/A/...``
        found in the slashed forms has A between two of their ``/``s, so forms none of
        whose ``/``-parts is such a folder meet no infix. One set test of a dozen parts
        instead of ~26 substring searches (2-3 µs: a third of the fresh decision's sift)."""

    def maybe(self, forms: tuple[str, ...]) -> bool:
        """Whether some glob may match some form (False: none does): each form's folder
        told by its kept `sievefolders.View`, its last name by the name globs."""
        if self._always:
            return True
        view, seen, low = self._folders.view, None, ""
        for form in forms:
            cut = form.rfind("/") + 1
            holds, exact, heads = view(form[:cut])
            if holds:
                return True
            name = form[cut:]
            if name != seen:
                low = name.lower()
                if low in self._names or self._named_holds(low):
                    return True
                seen = name
            if low in exact or (heads and low.startswith(heads)):
                return True
        return False

    def _named_holds(self, name: str) -> bool:
        """Whether a last name (lowered) meets a glob of a name with a wildcard."""
        if self._named is None:
            return False
        if not name.isascii():
            return self._named.match(name) is not None
        heads, ends = self._heads.get(name[:1]), self._ends.get(name[-1:])
        if (heads is not None and name.startswith(heads)) or (
            ends is not None and name.endswith(ends)
        ):
            return True
        held = self._held
        if held is None or held.search(name) is None:  # (no `*LIT*` glob, no floating one)
            return self._rest is not None and self._rest.match(name, floating=False)
        inner = self._inner
        if inner is not None and inner.search(name) is not None:
            return True
        return self._rest is not None and self._rest.match(name)

    def maybe_sifted(self, view: Sifted) -> bool:
        """`maybe` of many forms, told from their `sifted` view (the same answer; a form
        holding a NUL may only add a "maybe")."""
        if self._always:
            return True
        if not self._names.isdisjoint(view.names) or not self._exact.isdisjoint(view.forms):
            return True
        if self._named is not None and any(self._named_holds(name) for name in view.names):
            return True
        starts, slashed = view.starts, view.slashed
        if any(map(starts.__contains__, self._starts)):
            return True
        if self._infix_folders.isdisjoint(view.parts):
            return False  # (`_infix_folders`)
        return any(map(slashed.__contains__, self._infixes))


class _NameGlobs:
    """The names' globs the sieve tests by regex, each tried only on names that hold its
    literal part: ``LIT*...`` on names starting with LIT's first character, ``*LIT*...``
    on names holding LIT (what any name it matches does). One regex of them all tried
    every alternative on every name (~1 µs of the fresh decision's sift,
    docs/performance.md); the same answers for an ASCII name in lower case (`Sieve`)."""

    __slots__ = ("_by_head", "_floating", "_held", "_other", "held")

    def __init__(self, globs: list[str]) -> None:
        by_head: dict[str, list[str]] = {}
        floating: list[str] = []
        held: list[str] = []
        other: list[str] = []
        for glob in globs:
            pattern = compile_glob(glob).pattern
            parts = glob.split("*")
            literal = next((part for part in parts if part), "")
            if not glob.isascii() or not _literal(literal) or not _literal(glob.replace("*", "_")):
                other.append(pattern)  # (`?`, a set, a backslash: tried on every name)
            elif parts[0]:
                for head in {literal[0].lower(), literal[0].upper()}:
                    by_head.setdefault(head, []).append(pattern)
            else:
                floating.append(pattern)
                held.append(literal.lower())
        self._by_head = {head: _joined(found, re.IGNORECASE) for head, found in by_head.items()}
        self._floating = _joined(floating, re.IGNORECASE) if floating else None
        self.held = tuple(held)
        """The literal text of each floating glob: a name holding none meets none of them."""
        self._held = _any_of(self.held)
        self._other = _joined(other, re.IGNORECASE) if other else None

    def match(self, name: str, floating: bool = True) -> bool:
        """Whether some glob matches the whole ``name`` (ASCII, lower case); ``floating``:
        False when ``name`` holds none of `held` (then no floating glob is tried)."""
        found = self._by_head.get(name[:1])
        if found is not None and found.match(name) is not None:
            return True
        floating_globs, held = self._floating if floating else None, self._held
        if (
            floating_globs is not None
            and held is not None
            and held.search(name) is not None
            and (floating_globs.match(name) is not None)
        ):
            return True
        return self._other is not None and self._other.match(name) is not None


class Sifted(NamedTuple):
    """Many forms as every `Sieve` asks them, lowered: the forms; their last names; each
    after a NUL; each with a ``/`` before it, kept apart by a NUL."""

    forms: frozenset[str]
    names: frozenset[str]
    starts: str
    slashed: str
    parts: frozenset[str]
    """The slashed forms' ``/``-parts (`Sieve._infix_folders`)."""


def sifted(forms: tuple[str, ...]) -> Sifted:
    """The `Sifted` view of ``forms``, kept for the last `SIFTED_KEPT` tuples of forms: a
    glob folder's ~100 forms meet a dozen rules' sieves, and are the same tuple at every
    call that names it (`paths.KnownPlaces.globbed`; docs/performance.md)."""
    found = _SIFTED.get(forms)
    if found is None:
        lows = [form.lower() for form in forms]
        found = Sifted(
            frozenset(lows),
            frozenset(low[low.rfind("/") + 1 :] for low in lows),
            "\x00" + "\x00".join(lows),
            slashed := "/" + "\x00/".join(lows),
            frozenset(slashed.split("/")),
        )
        if len(_SIFTED) >= SIFTED_KEPT:
            _SIFTED.clear()
        _SIFTED[forms] = found
    return found


SIFTED_KEPT = 256
_SIFTED: dict[tuple[str, ...], Sifted] = {}


def _by_key(texts: tuple[str, ...], key: Callable[[str], str]) -> dict[str, tuple[str, ...]]:
    """``texts`` by ``key`` of each (a few first or last characters)."""
    found: dict[str, tuple[str, ...]] = {}
    for text in texts:
        found[key(text)] = (*found.get(key(text), ()), text)
    return found


def _fewest(texts: tuple[str, ...], implies: Callable[[str, str], bool]) -> tuple[str, ...]:
    """``texts`` without repeats and without any that another of them implies is found
    (``implies(longer, shorter)``: a prefix's longer spelling, an infix holding another):
    the same "some text is found" answer from fewer tests."""
    kept = sorted(set(texts), key=lambda t: (len(t), t))
    return tuple(t for i, t in enumerate(kept) if not any(implies(t, u) for u in kept[:i]))


_LEAD = re.compile(r"[^*?\[\\]*")
"""The literal start of a glob: what every path it matches starts with."""


def _leading_folders(folder: str) -> str:
    """The folders a ``**/`` glob's folder part starts with before its first wildcard
    (``site-packages`` of ``site-packages/amplifier_module_*``); "" when it has none."""
    known: list[str] = []
    for name in folder.split("/"):
        if not _literal(name) or "\x00" in name:
            break
        known.append(name)
    return "/".join(known)


def _trailing_folders(head: str) -> str:
    """The literal folders a glob's folder part ends with after its last wildcard
    (``Windows/NTDS`` of ``?:/Windows/NTDS``), each path it matches holds them between
    slashes; "" when it ends with a wildcard."""
    known: list[str] = []
    for name in reversed(head.split("/")):
        if not _literal(name) or "\x00" in name:
            break
        known.append(name)
    return "/".join(reversed(known))


def _affix(text: str) -> bool:
    """A name's literal start or end an ASCII string test can tell (`Sieve`)."""
    return _literal(text) and text.isascii() and "/" not in text and "*" not in text


def _literal(text: str) -> bool:
    return bool(text) and not any(c in text for c in "*?[\\")


def _any_of(texts: tuple[str, ...]) -> re.Pattern[str] | None:
    """A search for any of ``texts`` (None: there are none): one regex search finds
    whether a name holds one of a dozen texts in a third of the time of a test each."""
    return re.compile("|".join(re.escape(t) for t in dict.fromkeys(texts))) if texts else None


def _joined(patterns: list[str], flags: int = 0) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), flags)


def compile_glob(pattern: str) -> re.Pattern[str]:
    """A path glob as a regex: ``**/`` is any folders (or none), ``*`` and ``?`` stay
    within one name, ``[...]`` is a set, a backslash is a character (`globregex`). ``~/``
    patterns meet the ``~/`` form, relative ones the workspace-relative form or (with
    ``**/``) any."""
    return re.compile(glob_regex(pattern, path=True, globstar=True, escapes=False) + r"\Z")
