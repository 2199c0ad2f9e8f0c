"""Checkers run in a mode that only reads the files they are given.

A linter, a type checker or a shell's syntax check reads its operands and reports; it
changes none of them. The guard treats a program it does not know as writing every path
it is given, which asks for each check of a sibling clone or a dotfiles script. Here are
the modes that are known to write nothing the operands name: ``shellcheck``, ``bash -n``
(and the other shells' ``-n``: parse, run nothing), ``mypy`` without a report, a cache
folder or ``--install-types``, ``ruff check`` without a fix or an output file,
``ruff format --check``/``--diff``, ``tsc --noEmit`` (a type check, also run by a
package runner: ``npx tsc --noEmit -p .``), ``prettier --check`` and ``eslint`` without a
fix, ``go vet`` without a ``-vettool`` of its own,
``stow -n`` (a dry run), a package's inspectors (``dpkg-deb`` listing or showing a
package, ``lintian``, ``debdiff``, ``dscverify``, ``rpmlint``, ``rpm -qp``), and the
servers' configuration checks (`configchecks`:
``haproxy -c``, ``promtool check``, ``kong check``, ``visudo -c``, ...). Nothing here grants:
the piece is judged as before, only its operands count as read (a secret file still
asks, a script still runs nowhere). ``ruff`` keeps its ``.ruff_cache`` beside the files
it checks and ``mypy`` its ``.mypy_cache`` in the folder it runs in: caches, no file of
the person's.
"""

from __future__ import annotations

from amplifier_hooks.guard.configchecks import CONFIG_CHECKERS, checks_config

__all__ = ["CHECKERS", "checks_only"]

_SHELLS_N = frozenset({"sh", "bash", "dash", "ksh", "mksh", "zsh"})
_SHELL_N_LETTERS = frozenset("nvx")
"""``-n`` reads and parses the script; ``-v`` and ``-x`` only print. Any other option
(``-c``, ``-i``, ``-s``, ``-o``, ``--rcfile``) is left to the shell's own reading."""

_MYPY_WRITES = ("--install-types", "--junit-xml", "--cache-dir", "--python-executable", "--pdb")
"""mypy options that write a file, install packages or run another program."""

_RUFF_CHECK_WRITES = ("--fix", "--fix-only", "--add-noqa", "--output-file", "-o", "--config",
                      "--watch", "-w")  # fmt: skip
"""``ruff check`` options that change the checked files or write another (``--config``
can switch fixing on inline; ``--watch`` is left to the person: it never ends)."""


_TSC_WRITES = ("--build", "-b", "--init", "--generateTrace", "--tsBuildInfoFile", "--watch",
               "-w", "--incremental", "-i", "--showConfig")  # fmt: skip
"""tsc options that write a file even with ``--noEmit`` (a build's info, a trace, a new
tsconfig), print the settings or never end."""
_TSC_WRITES_LOWER = tuple(o.lower() for o in _TSC_WRITES)
"""`_TSC_WRITES` as tsc matches them: in any case (``--Build``, ``-W``)."""
_RUNNERS = frozenset({"npx", "bunx", "pnpm", "yarn"})
"""Package runners whose ``[exec] tsc ...`` runs the project's own tsc."""
_RUNNER_FLAGS = frozenset({"--no-install", "--yes", "-y", "--no", "-q", "--quiet", "exec"})

_PACKAGE_LOOKS = frozenset({"lintian", "debdiff", "dscverify", "rpmlint"})
"""Package inspectors that read the packages and sources they are given and print a
report (none has an option that writes a file)."""
_DPKG_DEB_LOOKS = frozenset({"-c", "--contents", "-I", "--info", "-f", "--field", "-W",
                             "--show"})  # fmt: skip
"""``dpkg-deb`` actions that print a package's contents or fields (``-b``, ``-x``, ``-R``
build or unpack)."""

CHECKERS = frozenset({"shellcheck", "mypy", "ruff", "stow", "tsc", "prettier", "eslint", "go",
                      "dpkg-deb", "rpm",
                      *_PACKAGE_LOOKS, *_RUNNERS, *_SHELLS_N, *CONFIG_CHECKERS})  # fmt: skip
"""The programs `checks_only` may find only reading (`plainwords` reads them apart)."""


def checks_only(program: str | None, args: tuple[str, ...]) -> bool:
    """Whether ``PROGRAM ARGS`` is a checker in a mode that only reads its operands."""
    if program == "shellcheck":
        return True  # it has no option that writes a file
    if program in _SHELLS_N:
        return _shell_parses_only(args)
    if program == "mypy":
        return bool(args) and not any(_named(a, _MYPY_WRITES) or "report" in a for a in args)
    if program == "ruff":
        return _ruff_reads(args)
    if program in _JS_CHECKERS:
        return _JS_CHECKERS[program](args)
    if program in _RUNNERS:  # `npx tsc --noEmit -p .`, `npx prettier --check .`
        rest = list(args)
        while rest and rest[0] in _RUNNER_FLAGS:
            rest.pop(0)
        check = _JS_CHECKERS.get(rest[0]) if rest else None
        return check is not None and check(tuple(rest[1:]))
    if program == "go":  # `go vet ./...`: reports, writes only go's build cache
        return args[:1] == ("vet",) and not any(_named(a, ("-vettool", "--vettool")) for a in args)
    if program == "stow":  # -n: only says what it would link
        return any(a in ("--no", "--simulate") or _stow_group(a) for a in args)
    if program in _PACKAGE_LOOKS:
        return True
    if program == "dpkg-deb":
        return bool(args) and args[0] in _DPKG_DEB_LOOKS
    if program == "rpm":  # `rpm -qp F`, `rpm -qlp F`: a query of a package file
        return bool(args) and args[0][:2] == "-q" and args[0][1:].isalpha()
    return checks_config(program, args)


def _stow_group(arg: str) -> bool:
    """A group of stow's short flags that holds ``-n`` (``-nv``), none taking a value."""
    return arg[:1] == "-" and "n" in arg[1:] and set(arg[1:]) <= set("nvSDRp")


def _shell_parses_only(args: tuple[str, ...]) -> bool:
    """``bash -n SCRIPT``: every option before the script is a group of ``n``, ``v``,
    ``x``, with ``n`` among them, and a script follows."""
    parses = False
    for index, arg in enumerate(args):
        if arg[:1] != "-" or arg == "-":
            return parses and arg != "-"
        letters = arg[1:]
        if arg.startswith("--") or not letters or not set(letters) <= _SHELL_N_LETTERS:
            return False
        parses = parses or "n" in letters
        if index == len(args) - 1:
            return False  # no script: it reads its input
    return False


def _ruff_reads(args: tuple[str, ...]) -> bool:
    """``ruff check`` without a fix or an output file; ``ruff format --check|--diff``."""
    if not args:
        return False
    sub, rest = args[0], args[1:]
    if sub == "check":
        return not any(_named(a, _RUFF_CHECK_WRITES) or _short_has(a, "ow") for a in rest)
    if sub == "format":
        return any(a in ("--check", "--diff") for a in rest) and not any(
            _named(a, ("--config",)) for a in rest
        )
    return False


def _tsc_checks(args: tuple[str, ...]) -> bool:
    """``tsc --noEmit [-p DIR] [FILES]``: types checked, nothing written. tsc reads its
    options' names in any case (``--NOEMIT``, ``--generatetrace``) and the last
    ``--noEmit`` wins (``--noEmit --noEmit false`` emits)."""
    lowered = tuple(a.lower() for a in args)
    if "--noemit" not in lowered or any(_named(a, _TSC_WRITES_LOWER) for a in lowered):
        return False
    index = len(lowered) - 1 - lowered[::-1].index("--noemit")
    return lowered[index + 1 : index + 2] != ("false",)  # (`--noEmit false` emits)


_PRETTIER_WRITES = ("--write", "-w", "--cache-location", "--plugin")
_ESLINT_WRITES = ("--fix", "--fix-dry-run", "--fix-type", "-o", "--output-file",
                  "--cache-location", "--cache-file", "--init", "--rulesdir", "--plugin",
                  "--resolve-plugins-relative-to", "--env-info", "--inspect-config")  # fmt: skip
"""eslint options that write files (a fix, a report, a cache elsewhere) or load code the
command line names (a rules folder, a plugin)."""


def _prettier_checks(args: tuple[str, ...]) -> bool:
    """``prettier --check`` (``-c``, ``--list-different``/``-l``) without ``--write``:
    it says which files are not formatted, and writes none (its configuration cannot
    turn writing on)."""
    checks = any(a in ("--check", "-c", "--list-different", "-l") for a in args)
    return checks and not any(_named(a, _PRETTIER_WRITES) for a in args)


def _eslint_checks(args: tuple[str, ...]) -> bool:
    """``eslint FILES`` without a fix, an output file or code named on the command line
    (its configuration cannot turn fixing on)."""
    return bool(args) and not any(_named(a, _ESLINT_WRITES) for a in args)


_JS_CHECKERS = {"tsc": _tsc_checks, "prettier": _prettier_checks, "eslint": _eslint_checks}
"""Checkers of JavaScript projects, run themselves or by a package runner."""


def _short_has(arg: str, letters: str) -> bool:
    """Whether ``arg`` is a group of short options holding one of ``letters`` (``-qo F``)."""
    return arg[:1] == "-" and arg[1:2] != "-" and any(c in arg[1:] for c in letters)


def _named(arg: str, options: tuple[str, ...]) -> bool:
    """Whether ``arg`` is one of ``options``, alone or with its ``=value``."""
    return any(arg == o or arg.startswith(f"{o}=") for o in options)
