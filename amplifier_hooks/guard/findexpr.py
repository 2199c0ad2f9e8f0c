"""find's expression read as find reads it, and asked of one path: could it reach an action?

``find . -maxdepth 1 -name '.c*' -exec rm -rf {} +`` runs ``rm`` on ``./.claude`` if that
folder is there. `parse_find` reads the expression (tests, ``!``/``-not``, ``-a``, ``-o``,
``,``, parentheses, the global options ``-maxdepth``/``-mindepth``/``-depth``/
``-regextype``); `Expr.reaches` walks a path to it as find would (its folders first, where a
``-prune`` that surely runs stops the walk) and says which actions may run on it. A test
the path cannot answer (``-mtime``, ``-size``, ``-empty``) may be either true or false, so
an action behind it may run; a name the guard does not know (`UNKNOWN`) matches only the
patterns any name matches (``*``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import lru_cache

__all__ = ["UNKNOWN", "Expr", "parse_find"]

UNKNOWN = "\x00"
"""A name the guard does not know (a hook script's, a folder's between): ``*`` and ``?``
match it, no literal pattern does."""

_AND, _OR, _NOT, _LIST = "and", "or", "not", "list"
_PATH_TESTS = frozenset({"-path", "-ipath", "-wholename", "-iwholename"})
_NAME_TESTS = frozenset({"-name", "-iname"})
_REGEX_TESTS = frozenset({"-regex", "-iregex"})
_TYPE_TESTS = frozenset({"-type", "-xtype"})
_ONE_VALUE = frozenset(
    {"-lname", "-ilname", "-size", "-perm", "-user", "-group", "-uid", "-gid", "-links",
     "-inum", "-samefile", "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin", "-used",
     "-newer", "-anewer", "-cnewer", "-fstype", "-context"}
)  # fmt: skip
"""Tests a path's name cannot answer: either outcome."""
_NO_VALUE = frozenset({"-empty", "-executable", "-readable", "-writable", "-nouser",
                       "-nogroup"})  # fmt: skip
_GLOBAL = frozenset({"-depth", "-d", "-xdev", "-mount", "-follow", "-noleaf", "-daystart",
                     "-ignore_readdir_race", "-noignore_readdir_race", "-warn",
                     "-nowarn"})  # fmt: skip
_RUNS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_PRINTS = frozenset({"-print", "-print0", "-ls"})
_PRINT_TO = {"-fprint": 1, "-fprint0": 1, "-fls": 1, "-printf": 1, "-fprintf": 2}
_EXTENDED = frozenset({"posix-extended", "posix-egrep", "egrep", "posix-awk", "awk", "gnu-awk"})
_BOTH = frozenset({True, False})

Node = tuple[str, int, tuple["Node", ...]]
"""(kind, index of its word in the arguments, operands): kind is an operator or a word."""
Named = tuple[tuple[str, bool], ...]
"""Name tests, each (pattern, whether case is folded: ``-iname``)."""


@dataclass
class Expr:
    """A parsed find expression and its global options."""

    root: Node | None
    words: tuple[str, ...]
    maxdepth: int | None = None
    mindepth: int = 0
    no_prune: bool = False  # `-depth` (and `-delete`, which implies it)
    extended: bool = False
    actions: tuple[int, ...] = ()
    printed: bool = field(default=False)  # no action: find prints what matches
    prunes: bool = False
    named: tuple[Named, ...] | None = field(default=None, repr=False)

    def may_act_on(self, name: str) -> bool:
        """Whether some action may run on a path named ``name``: False only where every
        action sits behind ``-name``/``-iname`` tests the name fails (`_names_before`), a
        screen before `reaches` (``find . -name __pycache__ -prune -o -name '*.pyc'
        -delete`` asks it of each protected place: `findowned`)."""
        if self.printed or self.root is None:
            return True
        if self.named is None:
            before = _names_before(self.root, self.words, (), {})
            self.named = tuple(before[a] for a in self.actions if self.words[a] != "-prune")
        return any(all(_glob(name, p, fold) for p, fold in tests) for tests in self.named)

    def reaches(self, path: str, parts: tuple[str, ...], kind: str) -> frozenset[int]:
        """The indexes of the actions that may run on ``path`` (the start point's own text
        joined to ``parts``) of type ``kind`` (``f`` or ``d``); `len(words)` is the print
        find adds when the expression has no action."""
        depth = len(parts)
        if depth < self.mindepth or (self.maxdepth is not None and depth > self.maxdepth):
            return frozenset()
        if not self.no_prune and self.prunes:
            for upto in range(depth):  # its folders, the start point first
                walk = _Walk(self, _joined(path, parts[:upto]), parts[:upto], "d")
                walk.run(self.root)
                if walk.pruned:
                    return frozenset()
        walk = _Walk(self, _joined(path, parts), parts, kind)
        outcomes = walk.run(self.root)
        if self.printed and True in outcomes:
            walk.reached.add(len(self.words))
        return frozenset(walk.reached)


def _names_before(node: Node, words: tuple[str, ...], needed: Named,
                  found: dict[int, Named]) -> dict[int, Named]:  # fmt: skip
    """For each action below ``node``, the name tests (pattern, folded) a path passes to
    reach it: those of each ``-a`` whose right side holds it, taken from its left side's
    conjunction (a name test decides alone: find evaluates the right side only then)."""
    kind, at, operands = node
    if kind == _AND:
        _names_before(operands[0], words, needed, found)
        _names_before(operands[1], words, (*needed, *_conjoined(operands[0], words)), found)
    elif kind in (_OR, _LIST, _NOT):
        for operand in operands:
            _names_before(operand, words, needed, found)
    else:
        found[at] = needed  # (asked for actions only)
    return found


def _conjoined(node: Node, words: tuple[str, ...]) -> Named:
    """The name tests that all hold wherever ``node`` holds (an ``-a`` of them)."""
    kind, at, operands = node
    if kind in _NAME_TESTS:
        return ((words[at + 1], kind == "-iname"),)
    if kind == _AND:
        return (*_conjoined(operands[0], words), *_conjoined(operands[1], words))
    return ()


def _joined(start: str, parts: tuple[str, ...]) -> str:
    if not parts:
        return start
    return (start if start.endswith("/") else start + "/") + "/".join(parts)


class _Walk:
    """One path asked of the expression: what it may be, which actions it may reach."""

    def __init__(self, expr: Expr, path: str, parts: tuple[str, ...], kind: str) -> None:
        self.expr, self.path, self.kind = expr, path, kind
        self.name = parts[-1] if parts else path.rstrip("/").rsplit("/", 1)[-1] or "/"
        self.reached: set[int] = set()
        self.pruned = False

    def run(self, node: Node | None, surely: bool = True) -> frozenset[bool]:
        if node is None:
            return frozenset({True})
        kind, at, operands = node
        if kind == _NOT:
            return frozenset(not o for o in self.run(operands[0], surely))
        if kind in (_AND, _OR):
            first = self.run(operands[0], surely)
            goes_on = kind == _AND  # `-a` goes on where its left is true, `-o` where false
            if goes_on not in first:
                return first
            then = self.run(operands[1], surely and first == {goes_on})
            return (first - {goes_on}) | then
        if kind == _LIST:
            self.run(operands[0], surely)
            return self.run(operands[1], surely)
        return self._primary(kind, at, surely)

    def _primary(self, word: str, at: int, surely: bool) -> frozenset[bool]:
        words = self.expr.words
        value = words[at + 1] if at + 1 < len(words) else ""
        if word in _NAME_TESTS:
            return _one(_glob(self.name, value, word == "-iname"))
        if word in _PATH_TESTS:
            return _one(_glob(self.path, value, word.startswith("-i")))
        if word in _REGEX_TESTS:
            return _regex(self.path, value, word == "-iregex", self.expr.extended)
        if word in _TYPE_TESTS:
            return _one(self.kind in value.split(","))
        if word == "-prune":
            self.pruned = self.pruned or surely
            return frozenset({True})
        if word in ("-true", "-false"):
            return _one(word == "-true")
        if at in self.expr.actions:
            self.reached.add(at)
            return frozenset({True}) if word in _PRINTS or word in _PRINT_TO else _BOTH
        return _BOTH if word in _ONE_VALUE or word in _NO_VALUE else frozenset({True})


def _one(value: bool) -> frozenset[bool]:
    return frozenset({value})


def _glob(text: str, pattern: str, fold: bool) -> bool:
    if fold:
        text, pattern = text.lower(), pattern.lower()
    return fnmatchcase(text, pattern)


def _regex(path: str, pattern: str, fold: bool, extended: bool) -> frozenset[bool]:
    """find's ``-regex`` matches the whole path; its default syntax is Emacs's (``\\(``
    groups, ``\\|`` alternates). A pattern Python cannot read may match."""
    compiled = find_regex(pattern, fold, extended)
    if compiled is None:
        return _BOTH
    return _one(compiled.fullmatch(path) is not None)


@lru_cache(maxsize=128)
def find_regex(pattern: str, fold: bool, extended: bool) -> re.Pattern[str] | None:
    """``pattern`` translated and compiled once, not for each path asked of it:
    `findowned` asks every protected place of one expression (``find -E ~ -regex ...``
    was half translation, `bench_guard`'s corpus row). None: Python cannot read it."""
    try:
        return re.compile(pattern if extended else _from_emacs(pattern),
                          re.IGNORECASE if fold else 0)  # fmt: skip
    except re.error:
        return None


def _from_emacs(pattern: str) -> str:
    out: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            following = pattern[index + 1]
            out.append(following if following in "(|){}" else char + following)
            index += 2
            continue
        out.append("\\" + char if char in "(|){}" else char)
        index += 1
    return "".join(out)


def parse_find(args: tuple[str, ...], start: int) -> Expr | None:
    """The expression of ``find`` from ``args[start]``; None where a word is not one the
    guard reads (then nothing is said of what it finds)."""
    expr = Expr(None, args)
    reader = _Reader(args, start, expr)
    try:
        expr.root = reader.list_()
    except ValueError:
        return None
    if reader.index < len(args):
        return None  # (an unmatched `)`)
    expr.actions = tuple(reader.actions)
    expr.prunes = "-prune" in (args[a] for a in reader.actions)
    expr.printed = not any(args[a] != "-prune" for a in reader.actions)
    expr.no_prune = expr.no_prune or "-delete" in (args[a] for a in reader.actions)
    return expr


class _Reader:
    """A recursive descent over find's operators: ``,`` < ``-o`` < ``-a`` < ``!``."""

    def __init__(self, args: tuple[str, ...], start: int, expr: Expr) -> None:
        self.args, self.index, self.expr = args, start, expr
        self.actions: list[int] = []

    def _peek(self) -> str | None:
        return self.args[self.index] if self.index < len(self.args) else None

    def list_(self) -> Node | None:
        node = self.or_()
        while self._peek() == ",":
            self.index += 1
            node = (_LIST, -1, (self._needed(node), self._needed(self.or_())))
        return node

    def or_(self) -> Node | None:
        node = self.and_()
        while self._peek() in ("-o", "-or"):
            self.index += 1
            node = (_OR, -1, (self._needed(node), self._needed(self.and_())))
        return node

    def and_(self) -> Node | None:
        node = self.unary()
        while self._peek() not in (None, ")", ",", "-o", "-or"):
            if self._peek() in ("-a", "-and"):
                self.index += 1
            right = self._needed(self.unary())
            node = right if node is None else (_AND, -1, (node, right))
        return node

    def _needed(self, node: Node | None) -> Node:
        if node is None:
            raise ValueError("an operator without an operand")
        return node

    def unary(self) -> Node | None:
        word = self._peek()
        if word is None:
            return None
        self.index += 1
        if word in ("!", "-not"):
            return (_NOT, -1, (self._needed(self.unary()),))
        if word == "(":
            node = self.list_()
            if self._peek() != ")":
                raise ValueError("an unclosed (")
            self.index += 1
            return self._needed(node)
        return self._primary(word)

    def _primary(self, word: str) -> Node | None:
        at = self.index - 1
        args, expr = self.args, self.expr
        value = args[self.index] if self.index < len(args) else None
        if word in ("-maxdepth", "-mindepth", "-regextype"):
            if value is None:
                raise ValueError(f"{word} without a value")
            self.index += 1
            if word == "-regextype":
                expr.extended = value in _EXTENDED
            elif not value.isdigit():
                raise ValueError(f"{word} {value}")
            elif word == "-maxdepth":
                expr.maxdepth = int(value)
            else:
                expr.mindepth = int(value)
            return ("-true", at, ())
        if word in _GLOBAL:
            expr.no_prune = expr.no_prune or word in ("-depth", "-d")
            return ("-true", at, ())
        if word in _RUNS:
            while self.index < len(args) and args[self.index] not in (";", "+"):
                self.index += 1
            if self.index >= len(args):
                raise ValueError(f"{word} without its end")
            self.index += 1
            self.actions.append(at)
            return (word, at, ())
        if word in _PRINT_TO:
            self.index += _PRINT_TO[word]
            self.actions.append(at)
            return (word, at, ())
        if word in _PRINTS or word in ("-delete", "-quit", "-prune"):
            self.actions.append(at)
            return (word, at, ())
        if word.startswith("-newer") and len(word) == 8:  # `-newermt DATE`
            self.index += 1
            return ("-size", at, ())  # (either outcome)
        if word in _NAME_TESTS | _PATH_TESTS | _REGEX_TESTS | _TYPE_TESTS | _ONE_VALUE:
            if value is None:
                raise ValueError(f"{word} without a value")
            self.index += 1
            return (word, at, ())
        if word in _NO_VALUE or word in ("-true", "-false"):
            return (word, at, ())
        raise ValueError(f"find {word} is not read")
