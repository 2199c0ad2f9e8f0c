"""Shell code a command's output is known to be: ``eval "$(direnv hook bash)"`` runs the
setup code direnv prints for bash, and ``eval "$(printf 'export %s=%s\\n' A 1)"`` runs
``export A=1``.

A tool's own setup printer (`SETUP_PRINTERS`: a version manager's ``init``, an agent's
``-s``, a completion script) prints code of the tool's making, so running it is running
the tool: the ``eval`` is judged as that (no grant: the code is not read, but not the
unknown script a pipe into a shell is either). ``printf`` of a literal format and literal
arguments prints text the guard works out, and the ``eval`` runs that text, judged as a
script of its own. Anything else in the substitution stays an unknown script.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

from amplifier_hooks.guard.evaloutput import printf_format
from amplifier_hooks.guard.programs import normalise_program

__all__ = ["SETUP_PRINTERS", "known_output", "printf_output", "prints_setup",
           "substituted_command"]  # fmt: skip

_SHELLS = frozenset({"bash", "sh", "zsh", "fish", "posix", "ksh", "dash", "elvish", "nu"})


def _first_is(*words: str) -> Callable[[tuple[str, ...]], bool]:
    return lambda args: bool(args) and args[0] in words


def _completion(args: tuple[str, ...]) -> bool:
    """``completion bash``, ``completion -s bash``, ``completions bash``."""
    return bool(args) and args[0] in ("completion", "completions") and all(
        a in _SHELLS or a in ("-s", "--shell") or a.startswith("--shell=") for a in args[1:]
    )  # fmt: skip


def _init(args: tuple[str, ...]) -> bool:
    """``init``, ``init -``, ``init bash``, ``init - bash``, ``init --path``."""
    return bool(args) and args[0] in ("init", "virtualenv-init") and all(
        a in _SHELLS or a in ("-", "--path", "--no-rehash") for a in args[1:]
    )  # fmt: skip


def _agent(args: tuple[str, ...]) -> bool:
    """``ssh-agent``, ``ssh-agent -s``/``-c``: start an agent and print its variables."""
    return all(a in ("-s", "-c") for a in args)


SETUP_PRINTERS: dict[str, Callable[[tuple[str, ...]], bool]] = {
    "direnv": lambda a: len(a) == 2 and a[0] in ("hook", "export") and a[1] in _SHELLS,
    "pyenv": _init, "rbenv": _init, "nodenv": _init, "goenv": _init, "jenv": _init,
    "plenv": _init, "starship": _init, "zoxide": _init, "atuin": _init,
    "fnm": lambda a: bool(a) and a[0] == "env" and all(
        (a2.startswith("--") and "=" not in a2) or a2 in _SHELLS for a2 in a[1:]),
    "conda": lambda a: len(a) == 2 and a[0] in {f"shell.{s}" for s in _SHELLS} and a[1] == "hook",
    "brew": lambda a: a == ("shellenv",),
    "mise": lambda a: len(a) == 2 and a[0] == "activate" and a[1] in _SHELLS,
    "ssh-agent": _agent,
    "dircolors": lambda a: a in ((), ("-b",), ("--sh",)),
    "kubectl": _completion, "helm": _completion, "gh": _completion, "rustup": _completion,
    "poetry": _completion, "npm": lambda a: a == ("completion",), "pnpm": _completion,
    "docker": _completion, "ruff": lambda a: a[:1] == ("generate-shell-completion",) and all(
        s in _SHELLS for s in a[1:]),
    "uv": lambda a: a[:1] == ("generate-shell-completion",) and all(s in _SHELLS for s in a[1:]),
    "pip": lambda a: a in (("completion", "--bash"), ("completion", "--zsh")),
}  # fmt: skip
"""Programs that print their own setup code for a shell, and the arguments that make
them print it (and nothing else)."""

_SUBSTITUTION = re.compile(r"\$\((?P<inner>[^()`$;|&<>\n]*)\)")
"""``$(CMD)`` of one plain command: no nested substitution, variable, list or pipe."""


def substituted_command(text: str) -> tuple[str, ...] | None:
    """The words of the one plain command a word that is all ``$(CMD)`` runs (None)."""
    match = _SUBSTITUTION.fullmatch(text.strip())
    if match is None:
        return None
    try:
        words = tuple(shlex.split(match.group("inner")))
    except ValueError:
        return None
    return words or None


def prints_setup(words: tuple[str, ...]) -> str | None:
    """The program of ``words`` when it is a setup printer given arguments that make it
    print its shell code (None)."""
    program = normalise_program(words[0])
    check = SETUP_PRINTERS.get(program)
    return program if check is not None and check(words[1:]) else None


_CONVERSION = re.compile(r"%(%|s)")


def printf_output(words: tuple[str, ...]) -> str | None:
    """What ``printf FORMAT ARGS`` prints when the format has only ``%s`` and ``%%``
    and the escapes ``\\n``, ``\\t``, ``\\\\`` (None for anything else): the format is
    used again while arguments are left, as printf does (`evaloutput.printf_format`)."""
    if len(words) < 2 or words[0] != "printf" or words[1].startswith("-"):
        return None
    fmt = words[1]
    # (narrower than `evaluate` reads printf: the text an `eval` runs here is judged as a
    # script of its own, and which formats lead there is a decision, not this formatter's)
    if "%" in _CONVERSION.sub("", fmt) or re.search(r"\\(?![nt\\\"'])", fmt):
        return None
    return printf_format(fmt, list(words[2:]))


def known_output(text: str) -> tuple[str | None, str | None]:
    """Of a word that is all ``$(CMD)``: the setup printer CMD is, or else the text it
    prints, where known ((None, None): neither)."""
    words = substituted_command(text)
    if words is None:
        return None, None
    printer = prints_setup(words)
    return (printer, None) if printer is not None else (None, printf_output(words))
