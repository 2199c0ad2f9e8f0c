"""Loops over project files, read as what they run on: ``for f in src/*.py; do sed -i
.. "$f"; done`` edits ``src/*.py``; ``find . -name '*.py' | xargs sed -i ..`` edits what
that ``find`` finds. Without this, the loop variable and xargs's input are unknown paths,
and everyday edits are asked.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.findowned import found_owned
from amplifier_hooks.guard.listers import ls_names_only
from amplifier_hooks.guard.literals import only_plain_reads, sets_unseen
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table import patterned
from amplifier_hooks.guard.table.finding import find_start

__all__ = ["LISTED", "bind_for_loops", "bind_xargs", "fed_lister", "inside_word"]

_FOR = re.compile(r"\bfor\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+([^;\n]*?)\s*[;\n]\s*do\b")
MAX_VALUES = 64


def bind_for_loops(text: str, pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``$NAME`` of a ``for NAME in WORDS`` loop replaced by its words, where they are
    plain (no expansion or substitution the guard cannot read); ``${NAME%SUFFIX}`` by
    them with the suffix taken off (`_trimmed`)."""
    bound: dict[str, tuple[str, ...]] = {}
    listed: set[str] = set()  # the names bound to what a lister prints
    source = text.encode()
    unseen = sets_unseen(source)
    for found in _FOR.finditer(text):
        name, words = found.group(1), found.group(2).strip()
        if unseen or not _only_expanded(name, text, found.start(1)):
            continue  # the body sets it again (`read -r f`, `f=~/.bashrc`): not its words
        values: tuple[str, ...] | None = tuple(
            _RANGE.sub("*", v.strip("'\"")) for v in words.split()
        )
        if values and any("$" in v or "`" in v for v in values):
            values = _listed(words, pieces)
            if values is not None:
                listed.add(name)
        if values and len(values) <= MAX_VALUES:
            bound[f"${name}"] = values
            bound[f"${{{name}}}"] = values
    assigned = _ASSIGNED.finditer(text) if not unseen else ()
    for found in assigned:  # `files=$(git diff --name-only); ruff $files`
        name, values = found.group(1), _listed(found.group(2), pieces)
        start, end = (len(text[:at].encode()) for at in (found.start(1), found.end()))
        if values is not None and only_plain_reads(name, text.encode(), start, end):
            listed.add(name)
            bound[f"${name}"] = bound[f"${{{name}}}"] = values
    if not bound:
        return pieces
    out: list[Piece] = []
    for piece in pieces:
        trimmed = False
        found_only = piece.found
        args: list[str] = []
        per_arg: list[tuple[str, ...]] = []  # each argument's words, for `_rounds`
        for arg in piece.args:
            words = bound.get(arg)
            if words is None and "%" in arg:
                words = _trimmed(arg, bound)
                trimmed = trimmed or words is not None
            if words is None and "${!" in arg:
                words = _indirect(arg, bound)
            if words is None and "$" in arg:
                words = _inside_word(arg, bound)
            read = _READ.search(arg) if words is not None else None
            if read is not None and read.group(1) in listed:
                found_only = True
            args.extend((arg,) if words is None else words)
            per_arg.append((arg,) if words is None else words)
        if args == list(piece.args):
            out.append(piece)
            continue
        doubt = piece.doubt or (_TRIMMED if trimmed else _LISTED if found_only else None)
        for round_args in _rounds(per_arg) or (args,):
            dynamic = any("$" in a or "`" in a for a in round_args)
            out.append(piece._replace(args=tuple(round_args), dynamic=dynamic, doubt=doubt,
                                      found=found_only))  # fmt: skip
    return tuple(out)


def _only_expanded(name: str, text: str, bound_at: int) -> bool:
    """Whether nothing in ``text`` but its ``for`` (at ``bound_at``) sets ``name``: no
    ``f=x``, ``f+=x``, ``f[0]=x``, ``${f:=x}``, arithmetic's ``f++``, another ``for f``,
    ``select f``, ``coproc f`` (`literals.sets_unseen` finds ``read f`` and the other
    builtins that set a name they are given)."""
    for match in re.finditer(rf"(?<![A-Za-z0-9_]){name}(?![A-Za-z0-9_])", text):
        if match.start() == bound_at:
            continue
        before = text[max(0, match.start() - 8) : match.start()]
        if before.endswith("$"):
            continue  # `$f`: a read
        if before.endswith(("${", "${!", "${#")):
            if _EXPANSION_SETS.match(text, match.end()):
                return False
            continue
        if _SETS_AFTER.match(text, match.end()) or _SETS_BEFORE.search(before):
            return False
        if "((" in text and before.endswith(("++", "--")):
            return False  # arithmetic's `((--f))` (not an option's `--lr`)
    return True


_EXPANSION_SETS = re.compile(r":?:?=")
_SETS_AFTER = re.compile(r"\s*(?:\+\+|--|(?:[-+*/%&|^]|<<|>>)?=(?!=)|\[)")
_SETS_BEFORE = re.compile(r"\b(?:for|select|coproc)\s+$")


def _rounds(per_arg: list[tuple[str, ...]]) -> list[list[str]]:
    """The loop's body once per value, when two or more of a command's arguments take the
    loop's values (``ln -sf ../../githooks/$h .git/hooks/$h``: each round links one hook,
    where the values all run together would read as many sources and a last folder);
    [] when at most one does (its values in a row mean the same as one round each)."""
    taking = [words for words in per_arg if len(words) > 1]
    if len(taking) < 2 or len({len(words) for words in taking}) != 1:
        return []
    count = len(taking[0])
    return [[words[i] if len(words) > 1 else words[0] for words in per_arg]
            for i in range(count)]  # fmt: skip


_ASSIGNED = re.compile(
    r"(?:^|[;\n])[ \t]*([A-Za-z_][A-Za-z0-9_]*)=(\$\([^()`$;|&]*\))(?=[ \t]*(?:[;\n]|&&|$))"
)
"""A variable set, as a statement of its own, to what one plain command prints."""
_LISTED = (
    "a loop over what a lister prints: the shell splits it at blanks and expands patterns in it"
)
_RANGE = re.compile(r"\{[A-Za-z0-9+-]+\.\.[A-Za-z0-9+-]+(?:\.\.-?[0-9]+)?\}")
"""A brace range (``{01..05}``, ``{a..f}``): names differing in one part, never a ``/``,
so a ``*`` there names them all (and maybe more)."""
_READ = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
LISTED = _LISTED
"""The doubt a word bound to what a lister prints carries (`listedwords` too)."""


_INDIRECT = re.compile(r"\$\{!([A-Za-z_][A-Za-z0-9_]*)\}")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _indirect(arg: str, bound: dict[str, tuple[str, ...]]) -> tuple[str, ...] | None:
    """``$v=${!v}`` of ``for v in PATH SHELL``: ``PATH=${PATH}``, ``SHELL=${SHELL}``; the
    value of the variable each round names, read by its name (a secret's name is then
    the pack's to judge). None unless every value is a plain variable name."""
    found = _INDIRECT.search(arg)
    values = bound.get("$" + found.group(1)) if found is not None else None
    if found is None or values is None or not all(_NAME.fullmatch(v) for v in values):
        return None
    name = found.group(1)
    plain = re.compile(rf"\$\{{{name}\}}|\${name}(?![A-Za-z0-9_])")
    return tuple(plain.sub(v, arg.replace(f"${{!{name}}}", f"${{{v}}}")) for v in values)


def _inside_word(arg: str, bound: dict[str, tuple[str, ...]]) -> tuple[str, ...] | None:
    """``tests/case$n.json`` of ``n`` bound: the word with each value in its place, where
    that is its one expansion."""
    found = re.fullmatch(r"([^$`]*)(\$[A-Za-z_][A-Za-z0-9_]*|\$\{[A-Za-z_][A-Za-z0-9_]*\})"
                         r"(?![A-Za-z0-9_])([^$`]*)", arg)  # fmt: skip
    if found is None:
        return None
    values = bound.get(found.group(2))
    if values is None:
        return None
    return tuple(found.group(1) + v + found.group(3) for v in values)


def _listed(words: str, pieces: tuple[Piece, ...]) -> tuple[str, ...] | None:
    """``$(LISTER ...)`` as a loop's words: the folders the lister lists below (what it
    prints is paths there), when it is a lister `bind_xargs` knows."""
    if not (words.startswith("$(") and words.endswith(")")):
        return None
    inner = words[2:-1].strip()
    lister = next((p for p in pieces if p.text.strip() == inner), None)
    if lister is None:
        return None
    roots = _roots(lister)
    return None if roots is None else roots[0]


_TRIM = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)%%?([^/$`*?\[\]{}\\]+)\}([^$`]*)")
_TRIMMED = "a loop's value with its end taken off (${f%.md}) is read as a pattern"


def _trimmed(arg: str, bound: dict[str, tuple[str, ...]]) -> tuple[str, ...] | None:
    """``${f%.markdown}.md`` of ``f`` bound to ``docs/*.markdown``: ``docs/*.md``. A
    suffix with no ``/`` or pattern in it takes off the end of the last name only, so
    each value stays in its folder (never granted: `_TRIMMED`)."""
    found = _TRIM.fullmatch(arg)
    if found is None:
        return None
    values = bound.get("$" + found.group(1))
    if values is None:
        return None
    suffix, rest = found.group(2), found.group(3)
    return tuple((v[: -len(suffix)] if v.endswith(suffix) else v) + rest for v in values)


_GIT_DIFF_ELSE = ("--output", "--ext", "--textconv", "--line-prefix")
"""git diff's options that write elsewhere, run a program, or print more than names."""
_FIND_PRINTS = frozenset({"-printf", "-fprintf", "-fprint", "-fprint0", "-ls", "-fls", "-exec",
                          "-execdir", "-ok", "-okdir"})  # fmt: skip
"""find's actions that print other text than the names found, or run a program that does."""
_LISTERS = frozenset({"find", "fd", "fdfind", "git", "grep", "rg", "ls", "echo", "printf"})


def bind_xargs(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """A piece run by ``xargs`` whose input comes from ``find``, ``fd``, ``git ls-files``,
    ``grep -l`` or ``ls`` over named folders: given those folders, as paths below them
    (``found``, when the lister filters what it lists) instead of unknown input."""
    out: list[Piece] = []
    for index, piece in enumerate(pieces):
        source = _lister(pieces, index) if "xargs" in piece.wrappers else None
        if source is None:
            out.append(piece)
            continue
        roots, filtered = source
        wrappers = tuple(w for w in piece.wrappers if w != "xargs")
        out.append(piece._replace(args=_given_roots(piece.args, roots), wrappers=wrappers,
                                  found=filtered, dynamic=False))  # fmt: skip
    return tuple(out)


def _given_roots(args: tuple[str, ...], roots: tuple[str, ...]) -> tuple[str, ...]:
    """``args`` given the lister's folders: where ``{}`` is (``xargs -I{}``: each line
    goes there, nowhere else; appended, a folder would read as a copy's destination), or
    after them."""
    if not any("{}" in a for a in args):
        return (*args, *roots)
    return tuple(a.replace("{}", r) if "{}" in a else a for a in args for r in
                 (roots if "{}" in a else (a,)))  # fmt: skip


_FIND_TESTS = frozenset({"-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-newer",
                         "-mtime", "-mmin", "-size", "-empty", "-perm", "-wholename"})  # fmt: skip


def fed_lister(pieces: tuple[Piece, ...], index: int) -> tuple[tuple[str, ...], bool] | None:
    """(folders, whether filtered) of the lister whose output feeds ``pieces[index]``,
    through line filters; None where that is not one lister (`_roots`)."""
    return _lister(pieces, index)


def inside_word(arg: str, bound: dict[str, tuple[str, ...]]) -> tuple[str, ...] | None:
    """`_inside_word`: ``arg`` with its one bound variable in its place, each value."""
    return _inside_word(arg, bound)


def _lister(pieces: tuple[Piece, ...], index: int,
            depth: int = 0) -> tuple[tuple[str, ...], bool] | None:  # fmt: skip
    """(folders, whether filtered) of the lister whose output feeds ``pieces[index]``."""
    program = pieces[index].program
    feeding = [p for p in pieces[:index] if p.pipes_to[:1] == (program,)]
    if len(feeding) != 1 or feeding[0].dynamic:
        return None
    lister = feeding[0]
    if _filters(lister) and depth < MAX_FILTERS:  # `git diff --name-only | grep -E x |`
        earlier = next(n for n, p in enumerate(pieces) if p is lister)
        inner = _lister(pieces, earlier, depth + 1)
        return None if inner is None else (inner[0], True)
    return _roots(lister)


MAX_FILTERS = 4
_LINE_FILTERS = frozenset({"grep", "egrep", "fgrep", "rg", "head", "tail", "sort", "uniq"})


def _filters(piece: Piece) -> bool:
    """Whether ``piece`` keeps some of the lines of its input and prints nothing else (a
    search of its input, ``head``, ``sort``, ...)."""
    program = piece.program or ""
    if program not in _LINE_FILTERS:
        return False
    if program in ("grep", "egrep", "fgrep", "rg"):
        _, read = patterned(program, piece.args)
        return not read.operands and "--files-with-matches" not in read.flags() and not any(
            a.startswith(("-o", "--only", "-r", "--rec")) for a in piece.args)  # fmt: skip
    if program in ("head", "tail"):
        return _whole_lines(piece.args)
    return all(a.startswith("-") for a in piece.args) and "-o" not in piece.args


_COUNT = re.compile(r"[+-]?\d+")


def _whole_lines(args: tuple[str, ...]) -> bool:
    """``head``/``tail`` given only a count of lines (``-n +4``, ``-5``, ``--lines=3``):
    whole lines of its input, each a path the lister printed (``-c`` cuts a name)."""
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg in ("-n", "--lines") and rest and _COUNT.fullmatch(rest[0]):
            rest.pop(0)
        elif not re.fullmatch(r"-n[+-]?\d+|--lines=[+-]?\d+|-\d+|-q|-v", arg):
            return False
    return True


def _roots(lister: Piece) -> tuple[tuple[str, ...], bool] | None:
    """(folders, whether filtered) of what ``lister`` prints: paths below the folders."""
    if lister.program not in _LISTERS or lister.dynamic:
        return None
    args = lister.args
    if lister.program == "find":
        if not _FIND_PRINTS.isdisjoint(args):
            return None  # (`-printf '/x/%p'`, `-exec cat {} ;`: other text than names)
        roots = find_start(args)[0] or (".",)  # after -H, -L, -P, ...
        if not any(a in _FIND_TESTS for a in args):
            return roots, False  # (all below the start points: the roots say it)
        owned = found_owned(args)  # the protected places it may print (`findowned`)
        printed = [p for at, found in owned.items() if at == len(args) or args[at] in
                   ("-print", "-print0") for p in found]  # fmt: skip
        return (*roots, *printed), True
    if lister.program in ("fd", "fdfind"):
        return (".",), bool([a for a in args if not a.startswith("-")])
    if lister.program == "git":
        if args[:1] == ("diff",) and "--name-only" in args and not any(
            a.startswith(_GIT_DIFF_ELSE) for a in args):  # fmt: skip
            return (".",), True  # paths in the repository, relative to its top
        if not args or args[0] != "ls-files":
            return None
        paths = tuple(a for a in args[1:] if not a.startswith("-"))
        return paths or (".",), bool(paths)
    if lister.program in ("grep", "rg"):  # as they read their options (`table.text`)
        _, read = patterned(lister.program, args)
        if "--files-with-matches" not in read.flags():
            return None
        return read.operands or (".",), True
    if lister.program in ("echo", "printf"):  # literal words: xargs is given exactly them
        words = [a for a in args if not a.startswith("-")]
        if lister.program == "printf" and words and "%" in words[0]:
            words = words[1:]  # the format: its `%s` prints the words that follow
        if any(c in w for w in words for c in "'\"\\"):
            return None  # xargs reads quotes and backslashes itself
        split = tuple(part for w in words for part in w.split())  # as xargs splits them
        return (split, False) if split else None
    if not all(ls_names_only(a) for a in args if a.startswith("-")):
        return None  # `ls -l`: modes, owners, sizes and link targets besides names
    operands = [a for a in args if not a.startswith("-")]  # ls
    return tuple(operands) or (".",), False
