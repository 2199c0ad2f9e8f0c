"""What ``find`` finds, as paths the guard can place: its start points (every file below
each, ``ROOT/*``, when only ``-type f`` narrows them), and the paths its tests name
(``-path PAT``; ``-name .git`` names every ``.git`` below). ``-delete`` and ``-exec``
act on these (`unwrap`)."""

from __future__ import annotations

from fnmatch import fnmatchcase

from amplifier_hooks.guard.findexpr import find_regex
from amplifier_hooks.guard.globbed import RULE_NAMES, named_by
from amplifier_hooks.guard.secrets import secret_samples
from amplifier_hooks.guard.table.finding import find_start
from amplifier_hooks.guard.words import Word

__all__ = ["found_roots"]

_FIND_FILTERS = frozenset({"-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-newer",
                           "-mtime", "-mmin", "-type", "-size", "-empty", "-user", "-perm",
                           "-wholename", "-links", "-inum", "-atime", "-ctime"})  # fmt: skip
_FIND_PATHS = frozenset({"-path", "-ipath", "-wholename", "-iwholename"})
_FIND_NAMES = frozenset({"-name", "-iname"})
_NEGATIONS = frozenset({"!", "-not"})
_FIND_REGEXES = frozenset({"-regex", "-iregex"})


def _path_places(top: str, pattern: str, test: str) -> list[Word]:
    """``-path PAT``: find's ``*`` takes ``/`` and dots, so ``*aws*`` selects what
    ``~/.aws`` holds: each protected folder (`RULE_NAMES`) and secret's name PAT may
    select below ``top``."""
    fold = test.startswith("-i")
    pat = pattern.lower() if fold else pattern
    found: list[Word] = []
    for name in RULE_NAMES:
        place = f"{top}/{name}/config"
        if fnmatchcase(place.lower() if fold else place, pat):
            found += [Word(f"{top}/{name}/*"), Word(f"{top}/**/{name}/*")]
    for name in secret_samples():
        place = f"{top}/x/{name}"
        if fnmatchcase(place.lower() if fold else place, pat):
            found.append(Word(f"{top}/**/{name}"))
    return found


def _regex_secrets(top: str, pattern: str, fold: bool) -> list[Word]:
    """``-regex PAT``: every secret's name (`secrets.secret_samples`) PAT may select
    below ``top``, as ``top/**/NAME``; a PAT the guard cannot read may select any. Read
    both ways find may (its default Emacs syntax, and the extended one of ``-E`` and
    ``-regextype posix-extended``): a name either selects counts."""
    flavours = (find_regex(pattern, fold, False), find_regex(pattern, fold, True))
    found: list[Word] = []
    for name in secret_samples():
        places = (f"{top}/{name}", f"{top}/.ssh/{name}", f"{top}/x/{name}")
        if any(c is None or any(c.fullmatch(p) for p in places) for c in flavours):
            found.append(Word(f"{top}/**/{name}"))
    return found


def _every_file(test: Word, value: tuple[Word, ...]) -> bool:
    """``-type f`` (``f,l``) leaves out only folders, which ``-delete`` leaves when they
    hold anything: what it finds is every file below, not a kind of them."""
    return test.text == "-type" and bool(value) and set(value[0].text.split(",")) <= {"f", "l"}


def _below(root: Word, pattern: Word) -> Word:
    """``find ROOT -path PATTERN``: the paths PATTERN names (it starts with ROOT, or with
    a pattern matching it)."""
    text = pattern.text
    return pattern if text.startswith((root.text, "/", "~")) else Word(f"{root.text}/{text}")


def found_roots(args: tuple[Word, ...]) -> tuple[list[Word], bool]:
    """The paths what ``find args`` finds are below or are, and whether its tests keep
    only some of them (``found``)."""
    given, at = find_start(tuple([w.text for w in args]))
    roots = list(args[at - len(given) : at]) or [Word(".")]  # (after -H, -L, -P, ...)
    tests = [(w, args[n + 1 : n + 2]) for n, w in enumerate(args) if w.text in _FIND_FILTERS]
    filtered = bool(tests)
    if filtered and all(_every_file(*t) for t in tests) and not any(r.dynamic for r in roots):
        # every file below each root: what `ROOT/*` names, its own dot files too
        roots, filtered = [Word(f"{r.text.rstrip('/') or '/'}/*") for r in roots], False
    named: list[Word] = []
    for n, word in enumerate(args[:-1]):
        value = args[n + 1]
        if value.dynamic or (n and args[n - 1].text in _NEGATIONS):
            continue
        if word.text in _FIND_PATHS:  # whole paths (`./x/.claude/settings.json`): PAT too
            named.append(_below(roots[0], value))
            named += _path_places(roots[0].text.rstrip("/") or "/", value.text, word.text)
        elif word.text in _FIND_REGEXES:  # `-regex '.*/id_ed.*'`: the secrets it may select
            top = roots[0].text.rstrip("/") or "/"
            named += _regex_secrets(top, value.text, word.text == "-iregex")
        elif word.text in _FIND_NAMES:  # `-name .git`: every `.git` below
            top = roots[0].text.rstrip("/") or "/"
            named += [Word(f"{top}/**/{name}") for name in named_by(value.text)]
    return roots + named, filtered
