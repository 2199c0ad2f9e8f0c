"""What PHP runs besides the script it is named: the tool of a Composer ``vendor/bin``
script and the code Laravel's tinker is given.

``php vendor/bin/envoy run deploy`` deploys as ``envoy run deploy`` does, so its words are
judged as that program's too (as ``python -m twine upload`` is twine's: `pymodules`).
``php artisan tinker --execute=CODE`` runs CODE in the application, inline code exactly
like ``php -r CODE``, so it is judged as that (read by `phpreader`, asked when unread).
`unwrap` adds the piece beside PHP's own, which is never granted for it.
"""

from __future__ import annotations

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
        return None if code is None else ("php", (Word("-r"), code))
    return None


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
