"""``cmake -E``: CMake's portable file operations, read as the programs they are.

``cmake -E rm -rf build src`` deletes as ``rm -rf build src`` does, ``cmake -E copy A B``
copies as ``cp``, ``cmake -E rename`` moves as ``mv``, ``cmake -E touch`` as ``touch``. Build
scripts and recipes use them to be portable, and an agent can use them to spell a delete or
an overwrite that the rules for ``rm``/``cp``/``mv`` would otherwise never see. Each is
judged as its POSIX twin (git's facts decide deletes in the workspace; protected places
stay protected), under ``cmake`` as a launcher (`launchers`): never granted.

cmake reads ``-E`` only as its first word, and the operations take no options but the
few named here (``rm``'s ``-r``/``-R``/``-f``/``--``, ``remove``'s leading ``-f``,
``copy``'s ``-t DIR``): every other word is a path, so the twin gets ``--`` before them.
``cmake -E env [--unset=NAME] [NAME=VALUE]... [--] COMMAND`` runs COMMAND as ``env`` does:
its twin is ``env``, so the command is judged as the command it is.
"""

from __future__ import annotations

from amplifier_hooks.guard.words import Word

__all__ = ["cmake_operation"]

_WHY = "cmake -E runs it as the file operation it is (cmake's own spelling)"

_PLAIN = {
    "copy": "cp",
    "copy_if_different": "cp",
    "rename": "mv",
    "touch": "touch",
    "touch_nocreate": "touch",
    "remove_directory": "rm",
}
"""Operations whose every word after the name is a path, and the twin that reads them."""
_TWIN_OPTIONS = {"touch_nocreate": ("-c",), "remove_directory": ("-r", "-f")}
"""The twin's options that say what the operation does (``touch -c`` creates nothing;
``remove_directory`` deletes the whole tree, and is quiet when it is missing)."""


def _word(text: str) -> Word:
    return Word(text, False)


def cmake_operation(args: tuple[Word, ...]) -> tuple[tuple[Word, ...], str] | None:
    """The twin command line of ``cmake args`` when it is ``-E`` with a file operation, and
    why it is judged so (None: another use of cmake, or an operation not read here)."""
    if len(args) < 2 or args[0].text != "-E" or args[1].dynamic:
        return None
    operation, rest = args[1].text, args[2:]
    if operation == "env":
        return _env(rest)
    if operation == "rm":  # reads -r/-R/-f bundles up to `--`, as rm does
        return (_word("rm"), *rest), _WHY
    if operation == "remove":  # a leading -f only: it ignores missing files
        force = rest[:1] and rest[0].text == "-f"
        paths = rest[1:] if force else rest
        return (_word("rm"), *((_word("-f"),) if force else ()), _word("--"), *paths), _WHY
    twin = _PLAIN.get(operation)
    if twin is None:
        return None
    if operation.startswith("copy") and rest[:1] and rest[0].text == "-t":  # copy -t DIR F...
        return (_word("cp"), *rest[:2], _word("--"), *rest[2:]), _WHY
    options = tuple(_word(o) for o in _TWIN_OPTIONS.get(operation, ()))
    return (_word(twin), *options, _word("--"), *rest), _WHY


def _env(rest: tuple[Word, ...]) -> tuple[tuple[Word, ...], str] | None:
    """``cmake -E env``'s twin, ``env -u NAME... NAME=VALUE... -- COMMAND`` (None: a
    ``--modify`` of a variable, which the twin cannot spell, or a word not known)."""
    twin: list[Word] = [_word("env")]
    for at, word in enumerate(rest):
        text = word.text
        if word.dynamic:
            return None
        if text.startswith("--unset="):
            twin.extend((_word("-u"), _word(text.removeprefix("--unset="))))
        elif text == "--":
            return (*twin, _word("--"), *rest[at + 1 :]), _ENV_WHY
        elif text.startswith("-"):
            return None  # (`--modify NAME=OP:VALUE`, or an option of a later cmake)
        elif "=" in text and text.partition("=")[0].isidentifier():
            twin.append(word)
        else:
            return (*twin, _word("--"), *rest[at:]), _ENV_WHY
    return None


_ENV_WHY = "cmake -E env runs the command with these variables, as env does"
