"""Compilers and runners that run a source file they are given (``go run main.go``,
``zig run d.zig``, ``dotnet script x.csx``, ``stack runghc w.hs``, ``swift x.swift``):
the file is code the command runs, as a script is to its interpreter.

`earlier` marks such a run when the same command wrote or downloaded the file
(``run-written-script``: asked); the guard has no reader for these languages, so the
file's text is not judged as a shell script.
"""

from __future__ import annotations

__all__ = ["SOURCE_RUNNERS", "source_run", "source_run_words"]

_RUNNERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # program: (the words that make it run a file, the file names it runs)
    "go": (("run",), (".go",)),
    "zig": (("run",), (".zig",)),
    "dotnet": (("script", "fsi", "run"), (".csx", ".fsx", ".cs")),
    "stack": (("runghc", "runhaskell", "script"), (".hs", ".lhs")),
    "cabal": (("run",), (".hs", ".lhs")),
    "runghc": ((), (".hs", ".lhs")),
    "runhaskell": ((), (".hs", ".lhs")),
    "swift": ((), (".swift",)),
    "kotlinc": (("-script",), (".kts",)),
    "kotlin": ((), (".kts", ".main.kts")),
    "java": ((), (".java",)),
    "scala": ((), (".scala", ".sc")),
    "scala-cli": (("run",), (".scala", ".sc")),
    "julia": ((), (".jl",)),
    "elixir": ((), (".exs", ".ex")),
    "escript": ((), (".erl", ".escript")),
    "crystal": (("run",), (".cr",)),
    "nim": (("r", "c", "compile"), (".nim",)),
    "dart": (("run",), (".dart",)),
    "v": (("run",), (".v",)),
    "ocaml": ((), (".ml",)),
    "rust-script": ((), (".rs",)),
    "Rscript": ((), (".R", ".r")),
    "R": (("-f", "--file"), (".R", ".r")),
    "cargo": (("script", "+nightly"), (".rs",)),
}


def source_run(program: str, args: tuple[str, ...]) -> str | None:
    """The source file ``program`` runs among ``args`` (None: it runs none)."""
    spec = _RUNNERS.get(program)
    if spec is None:
        return None
    words, suffixes = spec
    if words and not any(w in args for w in words):
        return None
    return next((a for a in args if a[:1] != "-" and a.endswith(suffixes)), None)


SOURCE_RUNNERS = frozenset(_RUNNERS)
"""The programs that run a source file they are given (for `scripts.run_words`)."""


def source_run_words(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The files ``program`` runs as code: its source file, and the program ``go run
    -exec P`` (``go test -exec P``) runs the built binary with."""
    found = [w for w in (source_run(program, args),) if w is not None]
    if program == "go" and args[:1] in (("run",), ("test",)):
        for index, arg in enumerate(args):
            if arg in ("-exec", "--exec") and index + 1 < len(args):
                found.append(args[index + 1])
            elif arg.startswith(("-exec=", "--exec=")):
                found.append(arg.partition("=")[2])
    return tuple(found)
