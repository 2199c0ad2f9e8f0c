"""A rule compiled once (`Matcher`), and the checks it leaves for each kind of piece.

Its own module: the schema (`rules`) says what a pack may write; this is how the policy
(`policy`) matches it fast, answering once per kind of piece all that does not depend on
the piece's flags, arguments and paths.
"""

from __future__ import annotations

import re
from fnmatch import translate
from typing import NamedTuple

from amplifier_hooks.guard.facts import Facts
from amplifier_hooks.guard.globs import GlobSet, Sieve
from amplifier_hooks.guard.paths import Located
from amplifier_hooks.guard.rules import ArgSpec, FlagSpec, PathsMatch, Rule

__all__ = ["Check", "Matcher", "PathCheck", "Plan", "Prefilter", "args_hold", "flags_hold", "plan"]


def _globs(patterns: tuple[str, ...]) -> re.Pattern[str] | None:
    if not patterns:
        return None
    # Case does not matter: git's config keys (core.sshCommand) are case-insensitive.
    return re.compile("|".join(f"(?:{translate(p)})" for p in patterns), re.DOTALL | re.I)


class Check(NamedTuple):
    """A rule as it meets one kind of piece: what is left to check of its flags, arguments,
    pushed branches and paths (None: nothing)."""

    rule: Rule
    flags: FlagSpec | None
    args: ArgSpec | None
    branch: re.Pattern[str] | None
    paths: PathCheck | None
    env: ArgSpec | None
    reads_only: bool | None


class Plan(NamedTuple):
    """The checks for one kind of piece (`plan`)."""

    checks: tuple[Check, ...]
    cleared: tuple[Check, ...]
    """Those left when the prefilter clears the piece's paths."""
    prefilter: Prefilter | None
    """None: no deny or ask rule on paths."""


class Matcher:
    """A rule compiled once. `for_kind` answers, once per kind of piece (`Facts.key`),
    everything that does not depend on the piece's flags, arguments and paths."""

    __slots__ = ("_args", "_branch", "_env", "_flags", "_paths", "_subcommand", "rule")

    def __init__(self, rule: Rule) -> None:
        self.rule = rule
        self._subcommand = _globs(rule.subcommand or ())
        self._branch = _globs(rule.branch or ())
        self._flags = rule.flags.compiled() if rule.flags else None
        self._args = rule.args.compiled() if rule.args else None
        self._env = rule.env.compiled() if rule.env else None
        self._paths = PathCheck(rule.paths, rule.decision == "allow") if rule.paths else None

    def for_kind(self, facts: Facts) -> Check | None:
        """What is left to check for pieces like ``facts.piece`` (None: the rule cannot
        hold for them, whatever their flags, arguments and paths)."""
        rule = self.rule
        piece = facts.piece
        if rule.tool is not None and piece.tool not in rule.tool:
            return None
        if rule.program is not None and piece.program not in rule.program:
            return None
        if piece.program in rule.not_program:
            return None
        opaque = piece.opaque is not None
        if opaque and rule.decision != "deny":  # only a deny speaks for the opaque
            return None
        if rule.opaque is not None and opaque is not rule.opaque:
            return None
        if rule.function is not None and piece.function is not rule.function:
            return None
        if rule.wrapped is not None and not set(rule.wrapped).intersection(piece.wrappers):
            return None
        if rule.not_wrapped and not set(rule.not_wrapped).isdisjoint(piece.wrappers):
            return None
        if rule.inline_code is not None and facts.inline_code is not rule.inline_code:
            return None
        if rule.network is not None and facts.network is not rule.network:
            return None
        if rule.remote is not None and (facts.remote is not None) is not rule.remote:
            return None
        if rule.pipes_to is not None and not facts.pipes_to_any(rule.pipes_to):
            return None
        if self._subcommand is not None and not self._subcommand.match(facts.subcommand or ""):
            return None
        paths = self._paths
        if paths is not None and not facts.has_paths(paths.access):
            if not paths.allowing:
                return None
            paths = None  # an allow holds for no paths at all
        env = self._env
        if env is not None and not piece.env:  # (most pieces set no variable: `Facts.key`)
            if not args_hold(env, ()):
                return None
            env = None
        return Check(rule, self._flags, self._args, self._branch, paths, env, rule.reads_only)


class PathCheck:
    """A rule's ``paths``, compiled: the first path it holds for (deny, ask), or whether
    it holds for every path (allow)."""

    __slots__ = ("access", "allowing", "globs", "not_globs", "patterns", "where")

    def __init__(self, spec: PathsMatch, allowing: bool) -> None:
        self.access = spec.access
        self.allowing = allowing
        self.where = frozenset(spec.where)
        self.patterns = spec.glob
        self.globs = GlobSet(spec.glob, fold=not allowing) if spec.glob else None
        self.not_globs = GlobSet(spec.not_glob) if spec.not_glob else None

    def match(self, facts: Facts) -> Located | bool:
        located = facts.paths(self.access)
        if self.allowing:
            return all(self._holds(p) for p in located)
        for path in located:
            if self._holds(path):
                return path
        return False

    def _holds(self, located: Located) -> bool:
        where = located.where
        if self.where and self.where.isdisjoint(where):
            return False
        if self.allowing and "unknown" in where:
            return False
        globs = self.globs
        if globs is not None and not globs.matches(located.forms):
            return False
        not_globs = self.not_globs
        return not_globs is None or not not_globs.matches(located.forms)


class Prefilter:
    """The paths of every deny and ask rule a kind of piece meets, as one quick test:
    False when none of those rules can hold for any path the piece touches (their places
    meet no rule's ``where``, their names no rule's globs), so a harmless path costs one
    test, not one per rule. True says only "maybe": each rule then checks its own."""

    __slots__ = ("always", "sieve", "where")

    def __init__(self, checks: tuple[PathCheck, ...]) -> None:
        where: set[str] = set()
        patterns: list[str] = []
        self.always = False
        for check in checks:
            if check.patterns:  # its places narrow it further: the globs alone are a "maybe"
                patterns.extend(check.patterns)
            elif check.where:
                where.update(check.where)
            else:
                self.always = True  # a rule on every path of its access
        self.where = frozenset(where)
        self.sieve = Sieve(tuple(patterns)) if patterns else None

    def maybe(self, located: tuple[Located, ...]) -> bool:
        if self.always:
            return True
        where, sieve = self.where, self.sieve
        for path in located:
            if not where.isdisjoint(path.where):
                return True
            if sieve is not None and sieve.maybe(path.forms):
                return True
        return False


def plan(checks: tuple[Check, ...], made: dict[tuple[PathCheck, ...], Prefilter]) -> Plan:
    """``checks``, the same without their deny and ask path checks, and one `Prefilter`
    of those: a piece whose paths it clears meets only the rest. ``made``: the prefilters
    built so far, by their checks (many kinds of piece meet the same path rules)."""
    sifted = tuple(c.paths for c in checks if c.paths is not None and not c.paths.allowing)
    if not sifted:
        return Plan(checks, checks, None)
    cleared = tuple(c for c in checks if c.paths is None or c.paths.allowing)
    prefilter = made.get(sifted)
    if prefilter is None:
        prefilter = made[sifted] = Prefilter(sifted)
    return Plan(checks, cleared, prefilter)


def flags_hold(spec: FlagSpec, flags: frozenset[str]) -> bool:
    any_of, all_of, none_of = spec
    if any_of and not any(alt & flags for alt in any_of):
        return False
    if not all(alt & flags for alt in all_of):
        return False
    return not any(alt & flags for alt in none_of)


def args_hold(spec: ArgSpec, args: tuple[str, ...]) -> bool:
    # Plain loops over the few words, not `any(map(...))` and a generator per entry: this
    # runs for every args rule a piece meets (seven for `git status`), and the builtins'
    # set-up cost more than the tests (an `each` of one word on `status`: 0.83 -> 0.27 µs).
    any_of, all_of, none_of, each = spec
    if not args:
        return any_of is None and not each
    if any_of is not None:
        match = any_of.match
        for arg in args:
            if match(arg):
                break
        else:
            return False
    if all_of is not None:
        match = all_of.match
        for arg in args:
            if not match(arg):
                return False
    for entry in each:  # every entry matched by some argument
        match = entry.match
        for arg in args:
            if match(arg):
                break
        else:
            return False
    if none_of is not None:
        match = none_of.match
        for arg in args:
            if match(arg):
                return False
    return True
