"""The code a program reads other than as its arguments: an interpreter given no script
reads its program from its input (``python3 - <<EOF``), and the text ``echo`` or ``cat``
writes to it; that text is judged as the interpreter's inline code when the guard can
read it. Its own module, below the guard's readers of whole commands (`earlier`,
`unwrap`, `facts`), which all ask it and are asked by the evaluation of losses."""

from __future__ import annotations

import re
from collections.abc import Iterator

from amplifier_hooks.guard.inline import code_option
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.programs import SHELLS, shell_reads_input

__all__ = ["as_inline_code", "echoed_text", "printed_text", "reads_program", "written_into"]

_NOT_READING = frozenset(
    {"-m", "--version", "-V", "-v", "-h", "--help", "-?", "--test", "--check", "-c", "-e",
     "-E", "-r", "-R", "-p", "--eval", "--print"}
)  # fmt: skip
"""Options after which an interpreter does not read its program from its input: it runs
a module or inline code (judged elsewhere), or prints its version or help."""
_ABOUT = re.compile(r"^--?(\w+-)?(version|help|info|describe)$|^-S?describe$")
"""Options that print what the interpreter is (its version, help, build), in any
language's spelling, and read no program."""
_RUN_SUBCOMMAND = frozenset({"deno", "bun"})
_VALUED = frozenset({"-W", "-X", "-Q", "-I", "-M", "-F", "--require", "-r", "--import",
                     "--loader", "--input-type", "-C", "--conditions"})  # fmt: skip


def reads_program(program: str, args: tuple[str, ...], reads: tuple[str, ...]) -> bool:
    """An interpreter given no script, so it reads its program from its input (a heredoc,
    a here-string, a pipe: ``python3 - <<EOF``, ``node <<< ..``): code the guard
    cannot read. ``python3 < app.py`` reads a file, which is judged as a path."""
    if reads:
        return False
    if program in SHELLS:
        return shell_reads_input(args)
    if program in _RUN_SUBCOMMAND and args[:1] == ("run",):  # `deno run -A -`
        script = [a for a in args[1:] if a == "-" or a[:1] != "-"][:1]
        # (a heredoc's `-` is taken off before; `bun run` alone lists the scripts)
        return script == ["-"] or (not script and program == "deno")
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg == "-":
            return True
        if arg in _NOT_READING or (program.startswith("php") and arg in ("-S", "-l")):
            return False
        if _ABOUT.search(arg):  # `erl -version`, `ghc --numeric-version`, `clojure -Sdescribe`
            return False
        if arg.startswith("-"):
            skip = arg in _VALUED
            continue
        return False  # a script (or a subcommand: `deno run x.ts`)
    return True


def as_inline_code(piece: Piece, text: str) -> Piece | None:
    """``piece``'s interpreter given ``text`` as its code on the command line (``python3
    -c TEXT``, ``node -e TEXT``): code read from a heredoc, a pipe or a script the same
    command wrote is judged by the rules on inline code. None: ``piece`` runs no
    interpreter that takes code so (a shell's script is read as commands instead)."""
    program = piece.program
    if program is None or program in SHELLS:
        return None
    option = code_option(program)
    if option is None:
        return None
    return piece._replace(args=(option, text), writes=(), reads=(), pipes_to=(),
                          feeds_code=False, dynamic=False)  # fmt: skip


def written_into(piece: Piece) -> tuple[str, ...]:
    """The files a shell command writes the text it prints into: its redirects, and
    ``tee``'s files."""
    if piece.program == "tee":
        return (*piece.writes, *(a for a in piece.args if not a.startswith("-")))
    return piece.writes


def echoed_text(piece: Piece) -> str | None:
    """What ``echo``/``printf`` with literal words, or ``cat``/``tee`` given a heredoc,
    wrote (None: unknown)."""
    if piece.fed is not None and piece.program in ("cat", "tee"):  # (a patch writes no text)
        files = [a for a in piece.args if a != "-" and not a.startswith("-")]
        return piece.fed if piece.program == "tee" or not files else None
    if piece.program not in ("echo", "printf") or piece.dynamic:
        return None
    words = [a for a in piece.args if not (piece.program == "echo" and a in ("-e", "-n", "-E"))]
    if piece.program == "printf" and words[:1] in (["%s"], ["%s\\n"]):  # each word as it is
        return "".join(w + ("\n" if words[0] != "%s" else "") for w in words[1:])
    text = " ".join(words)
    return text.replace("\\n", "\n").replace("\\t", "\t")


_DIRECTIVE = re.compile(r"%(.)")


def printed_text(piece: Piece) -> str | None:
    """What ``printf`` with literal words writes, its format applied (None: not such a
    printf). Read for a file a tool runs later (`planted`), where the bytes are the
    tool's input, not a script the shell runs next (those keep `echoed_text`'s doubt)."""
    if piece.program != "printf" or piece.dynamic:
        return None
    return _printed(list(piece.args))


def _printed(words: list[str]) -> str | None:
    """What ``printf [--] FORMAT ARGS`` prints when its format holds only ``%s`` and
    ``%%`` (the format is used again while arguments remain); None: another directive."""
    if words[:1] == ["--"]:
        words = words[1:]
    if not words or any(d not in "s%" for d in _DIRECTIVE.findall(words[0])):
        return None
    form, args = words[0].replace("\\n", "\n").replace("\\t", "\t"), words[1:]
    slots = len(_DIRECTIVE.findall(form.replace("%%", "")))
    out, at = [], 0
    while True:
        chunk = args[at : at + slots] if slots else []
        chunk += [""] * (slots - len(chunk))
        out.append(_filled(form, iter(chunk)))
        at += slots
        if not slots or at >= len(args):
            return "".join(out)


def _filled(form: str, values: Iterator[str]) -> str:
    """``form`` with each ``%s`` the next of ``values`` and each ``%%`` a ``%``."""
    return _DIRECTIVE.sub(lambda m: "%" if m.group(1) == "%" else next(values), form)
