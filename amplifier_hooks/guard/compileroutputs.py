"""A compiler's, linker's or archiver's output written over a source file: ``gcc -o main.c
main.o`` (a program where the source was), ``cc -c lexer.c -o include/lexer.h``, ``ar rcs
src/util.c build/*.o``, ``go build -o main.go ./cmd/server``.

These programs' options are many and not in the guard's table, so their output is found
here by the option that names it (``-o FILE``, ``-oFILE``, ``--output=FILE``, ar's archive
operand) and a source file by its suffix. A preprocess (``-E``) writes text and may
generate a source on purpose (``cpp -P config.h.in -o config.h``): only its own input
overwritten counts. The piece is marked `OUTPUT_OVER_SOURCE` (a person confirms: the file
may hold work git does not have).
"""

from __future__ import annotations

from pathlib import PurePosixPath

from amplifier_hooks.guard.model import Piece

__all__ = ["COMPILERS", "OUTPUT_OVER_SOURCE", "built_program", "mark_outputs_over_source"]

OUTPUT_OVER_SOURCE = "@output-over-source"
_CC = frozenset({"gcc", "g++", "cc", "c++", "clang", "clang++", "tcc", "icx", "icpx", "rustc"})
_LD = frozenset({"ld", "ld.lld", "ld.gold", "ld.bfd", "lld", "mold"})
_AR = frozenset({"ar", "llvm-ar", "gcc-ar"})
COMPILERS = _CC | _LD | _AR | {"go"}
_SOURCE_SUFFIXES = frozenset(
    {".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++", ".S",
     ".go", ".rs", ".java", ".kt", ".py", ".js", ".ts", ".m", ".mm", ".swift", ".zig",
     ".f90", ".cmake"}
)  # fmt: skip
"""Suffixes of hand-written source (``.S``: assembly a person writes; ``.s`` is what
``gcc -S`` emits, so it is left out)."""
_BUILD_FILES = frozenset({"Makefile", "makefile", "GNUmakefile", "CMakeLists.txt", "go.mod"})


def mark_outputs_over_source(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """Every piece of `COMPILERS` whose output is a source file (or its own input), marked."""
    out = list(pieces)
    for index, piece in enumerate(pieces):
        if piece.program in COMPILERS and not piece.dynamic and _over_source(piece):
            out[index] = piece._replace(wrappers=(*piece.wrappers, OUTPUT_OVER_SOURCE))
    return tuple(out)


def built_program(piece: Piece) -> str | None:
    """The program a compiler or linker piece builds (its ``-o``, as given; ``go build
    -o``), None: not such a piece, or its output is not known from its words."""
    if piece.program not in COMPILERS or piece.program in _AR or piece.dynamic or piece.wrappers:
        return None
    args = piece.args
    if piece.program == "go":
        if not args or args[0] not in ("build", "test"):
            return None
        return _output(args[1:], attached=False)
    return _output(args, attached=piece.program not in _LD)


def _over_source(piece: Piece) -> bool:
    args = piece.args
    if piece.program in _AR:
        output = _archive(args)
    elif piece.program == "go":
        if not args or args[0] not in ("build", "test"):
            return False
        output = _output(args[1:], attached=False)
    else:
        output = _output(args, attached=piece.program not in _LD)
    if not output or output == "-" or output.startswith("$"):
        return False
    # its own input overwritten: a file's name (a suffix), not a word standing for one
    # (a Makefile's recipe read with `$@ $<` as one placeholder)
    own = bool(PurePosixPath(output).suffix) and output in _inputs(args, output)
    if "-E" in args:  # a preprocess: text, maybe a generated source; only its input lost
        return own
    return _is_source(output) or (own and piece.program not in _AR)


def _output(args: tuple[str, ...], attached: bool) -> str | None:
    """The value of ``-o`` (``-o FILE``, ``-oFILE`` when ``attached``, ``-o=FILE`` for go)
    or ``--output``; the last one given wins, as the compilers read it."""
    found: str | None = None
    for index, arg in enumerate(args):
        if arg in ("-o", "--output") and index + 1 < len(args):
            found = args[index + 1]
        elif arg.startswith("--output="):
            found = arg.removeprefix("--output=")
        elif arg.startswith("-o="):
            found = arg[3:]
        elif attached and arg.startswith("-o") and len(arg) > 2:
            found = arg[2:]
    return found


def _inputs(args: tuple[str, ...], output: str) -> list[str]:
    """The operands besides the output: ``-o FILE``'s value is not read as an input."""
    found: list[str] = []
    for index, arg in enumerate(args):
        taken = index > 0 and args[index - 1] in ("-o", "--output")
        if not arg.startswith("-") and not taken:
            found.append(arg)
    return found


def _archive(args: tuple[str, ...]) -> str | None:
    """ar's archive: the operand after its operation letters (``rcs``, ``-rcs``)."""
    operands = [a for a in args if not a.startswith("--")]
    if len(operands) < 2:
        return None
    mode = operands[0].lstrip("-")
    if not mode or not mode.isalpha():
        return None
    return operands[1]


def _is_source(path: str) -> bool:
    name = PurePosixPath(path)
    return name.suffix in _SOURCE_SUFFIXES or name.name in _BUILD_FILES
