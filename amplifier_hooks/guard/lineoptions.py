"""Perl's, Ruby's and PHP's command lines around their inline code: whether the options
load or run nothing else, and what the operands after the code are to them.

``perl -lne CODE`` and ``ruby -ryaml -e CODE`` run their code and nothing else;
``perl -MSome::Module``, ``perl -I dir``, ``ruby -r ./x`` or any option the guard does not
know may load more code. The operands after the code are files the code reads line by
line (``-n``, ``-p``, ``<>``, Ruby's ``ARGF``) and, with ``-i``, rewrites in place: each
is judged as a read, and with ``-i`` as a write, like the same path given to ``sed -i``.
"""

from __future__ import annotations

from typing import NamedTuple

from amplifier_hooks.guard.codeacts import CodeAct
from amplifier_hooks.guard.perlnames import QUIET_MODULES

__all__ = ["CommandLine", "read_line", "read_php_line", "ruby_library"]

_PERL_PLAIN = frozenset("anpswWXTtU")
"""Perl's switches that take no value and load nothing."""
_RUBY_PLAIN = frozenset("anplswvWU")
_RUBY_QUIET_LIBRARIES = frozenset(
    {"yaml", "json", "set", "date", "time", "pp", "securerandom", "digest", "base64", "csv",
     "fileutils", "pathname", "uri", "open3", "shellwords", "optparse", "ostruct",
     "bigdecimal", "English", "benchmark", "tempfile", "tmpdir", "stringio", "zlib",
     "psych", "digest/md5", "digest/sha1", "digest/sha2", "rbconfig"}
)  # fmt: skip
_RUBY_NETWORK = frozenset({"net/http", "net/https", "open-uri", "socket", "net/ftp",
                           "net/smtp", "openssl", "resolv"})  # fmt: skip


class CommandLine(NamedTuple):
    """What an interpreter's words around its inline code say."""

    quiet: bool
    """Every option is known to load and run nothing but the code."""
    acts: tuple[CodeAct, ...]
    """The operands read (and, with ``-i``, written), a network library loaded."""


def ruby_library(name: str) -> str:
    """``quiet``, ``network`` or ``unknown``: what requiring library ``name`` does."""
    if name in _RUBY_NETWORK:
        return "network"
    return "quiet" if name in _RUBY_QUIET_LIBRARIES else "unknown"


_PHP_SETTINGS = frozenset({"display_errors", "error_reporting", "memory_limit",
                           "date.timezone", "precision", "html_errors", "log_errors"})  # fmt: skip
"""``php -d NAME=VALUE`` settings that load nothing (``auto_prepend_file`` would)."""


def read_php_line(args: tuple[str, ...]) -> CommandLine:
    """``php -r CODE`` with options that load nothing else (``-n``, ``-q``, ``-d
    display_errors=1``); the words after the code are its own (``$argv``), not files."""
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg in ("-r", "-R"):
            return CommandLine(bool(rest), ())
        if arg.startswith(("-r", "-R")) and len(arg) > 2:
            return CommandLine(True, ())  # `-rCODE`
        if arg == "-d" and rest:
            arg = "-d" + rest.pop(0)
        if arg.startswith("-d") and arg[2:].partition("=")[0] in _PHP_SETTINGS:
            continue
        if arg not in ("-n", "-q", "-H", "-e"):
            break  # -c, -f, -B, -E, -d auto_prepend_file=...: more code, elsewhere
    return CommandLine(False, ())


def read_line(family: str, args: tuple[str, ...]) -> CommandLine:
    """``args`` of ``perl``, ``ruby`` or ``php`` read as the interpreter reads them."""
    if family == "php":
        return read_php_line(args)
    quiet, code_seen, in_place = True, False, False
    acts: list[CodeAct] = []
    rest = list(args)
    while rest and rest[0][:1] == "-" and rest[0] != "-":
        arg = rest.pop(0)
        if arg == "--":
            break
        if arg.startswith("--"):
            quiet = quiet and arg in ("--disable-gems", "--disable=gems")
            continue
        letters = arg[1:]
        while letters:
            letter, letters = letters[0], letters[1:]
            if letter in ("e", "E") and (family == "perl" or letter == "e"):
                if not letters:  # the code is the next word
                    if not rest:
                        return CommandLine(False, ())
                    rest.pop(0)
                code_seen, letters = True, ""
            elif letter == "i":
                in_place, letters = True, ""  # the rest is a backup suffix
            elif letter == "0" and letters[:1] in ("x", "X"):
                letters = letters[1:].lstrip("0123456789abcdefABCDEF")  # -0x1F: hex
            elif letter in ("0", "l") or letter == ("C" if family == "perl" else "W"):
                letters = letters.lstrip("0123456789")
            elif letter == "F":
                letters = ""  # the rest is the split pattern
            elif letter in ("M", "m") and family == "perl":
                name = letters or (rest.pop(0) if rest else "")
                quiet = quiet and name.lstrip("-").partition("=")[0] in QUIET_MODULES
                letters = ""
            elif letter == "r" and family == "ruby":
                name = letters or (rest.pop(0) if rest else "")
                kind = ruby_library(name)
                quiet = quiet and kind != "unknown"
                if kind == "network":
                    acts.append(CodeAct("network", None))
                letters = ""
            elif letter == "E" and family == "ruby":
                if not letters and rest:
                    rest.pop(0)  # the encoding
                letters = ""
            elif letter not in (_PERL_PLAIN if family == "perl" else _RUBY_PLAIN):
                quiet = False  # -M, -m, -I, -d, -x, -S, -C dir, ...: more code, elsewhere
                letters = ""
    if not code_seen:
        return CommandLine(False, tuple(acts))
    for operand in rest[:16]:
        if operand != "-":
            acts.append(CodeAct("read", operand))
            if in_place:
                acts.append(CodeAct("write", operand))
    return CommandLine(quiet and len(rest) <= 16, tuple(acts))
