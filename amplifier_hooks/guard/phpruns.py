"""What PHP runs besides the script it is named: the tool of a Composer ``vendor/bin``
script and the code Laravel's tinker is given.

``php vendor/bin/envoy run deploy`` deploys as ``envoy run deploy`` does, so its words are
judged as that program's too (as ``python -m twine upload`` is twine's: `pymodules`).
``php artisan tinker --execute=CODE`` runs CODE in the application, inline code exactly
like ``php -r CODE``, so it is judged as that (read by `phpreader`, asked when unread),
but for the everyday look at the data: one model's query of literal arguments ending in a
count or a fetch, printed (``dump(App\\Models\\Order::where('status', 'new')->count())``),
which reads the database and changes nothing; it stays as tinker itself (no opinion).
`unwrap` adds the piece beside PHP's own, which is never granted for it.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.words import Word

__all__ = ["php_runs"]

_VALUED = frozenset({"-d", "-c", "-z"})
"""PHP's options that take the next word (``-d NAME=VALUE``, ``-c INI``, ``-z FILE``)."""
_EXECUTE = "--execute"


def php_runs(program: str, words: tuple[Word, ...]) -> tuple[str, tuple[Word, ...]] | None:
    """The program ``program words`` also runs and its words: ``envoy run deploy`` for
    ``php vendor/bin/envoy run deploy``, ``php -r CODE`` for ``php artisan tinker
    --execute=CODE``. None: not such a call."""
    args = tuple([w.text for w in words])
    start = _script(program, args)
    if start is None:
        return None
    script = args[start] if start >= 0 else "artisan"
    name = script.rsplit("/", 1)[-1]
    if script[: -len(name)].removeprefix("./") == "vendor/bin/" and name not in ("", "php"):
        return name, words[start + 1 :]
    if name == "artisan" and args[start + 1 : start + 2] == ("tinker",):
        code = _tinker_code(words[start + 2 :])
        if code is None or (not code.dynamic and _LOOK.fullmatch(code.text)):
            return None
        return "php", (Word("-r"), code)
    return None


_LITERAL = r"""\s*(?:'[^'\\]*'|"[^"\\$]*"|-?\d+(?:\.\d+)?|true|false|null)\s*"""
_ARGS = rf"\((?:{_LITERAL}(?:,{_LITERAL})*)?\)"
_BUILDER = (
    "where|whereIn|whereNotIn|whereNull|whereNotNull|whereDate|whereBetween|orWhere|"
    "orderBy|orderByDesc|latest|oldest|limit|take|skip|offset|select|with|withCount|query"
)
_READ = "count|exists|doesntExist|sum|avg|min|max|first|get|pluck|find|all|toSql|value"
_LOOK = re.compile(
    rf"\s*(?:(?:dump|dd|print_r|var_dump|echo)\s*\(?)?\s*\\?App\\Models\\\w+::"
    rf"(?:(?:{_BUILDER}){_ARGS}\s*->\s*)*(?:{_READ}){_ARGS}\s*\)?\s*;?\s*"
)
"""A printed look at one model's data: builder methods of literal arguments, then a read
(`php_runs` leaves it to tinker's own piece)."""


def _script(program: str, args: tuple[str, ...]) -> int | None:
    """The index in ``args`` of the script PHP runs (-1: ``./artisan`` is its own script,
    run by its ``#!``); None for inline code, PHP's input or any other program."""
    if program == "artisan":
        return -1
    if program.rstrip("0123456789.") != "php":
        return None
    taking = False
    for index, arg in enumerate(args):
        if taking:
            taking = False
        elif arg in _VALUED:
            taking = True
        elif arg == "-f":  # (`php -f vendor/bin/envoy`: the script is the next word)
            continue
        elif not arg.startswith("-"):
            return index
        elif arg == "--" or arg[1:2] in ("r", "R", "B", "E", "a", "F"):
            return None  # inline code, PHP's interactive shell: read elsewhere
    return None


def _tinker_code(words: tuple[Word, ...]) -> Word | None:
    """Tinker's ``--execute`` code (``--execute CODE`` or ``--execute=CODE``); None:
    tinker opens its shell."""
    for index, word in enumerate(words):
        if word.text == _EXECUTE and index + 1 < len(words):
            return words[index + 1]
        if word.text.startswith(_EXECUTE + "="):
            return Word(word.text[len(_EXECUTE) + 1 :], word.dynamic)
    return None
