"""awk run as a command: the program text it is given is read (`awk.read_awk`) for the
files it writes and reads, the commands it runs and the environment variables it reads
(``ENVIRON["TOKEN"]``: judged as ``printenv TOKEN``; the whole environment as ``env``),
each judged as such (`unwrap`)."""

from __future__ import annotations

from amplifier_hooks.guard.awk import RUNTIME, awk_options, read_awk
from amplifier_hooks.guard.commandpieces import Command, Reparse, nested_in, opaque, piece_of
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.programs import is_interpreter
from amplifier_hooks.guard.words import Word
from amplifier_hooks.guard.wrappers import is_assignment

__all__ = ["awk_pieces"]


def awk_pieces(cmd: Command, program: str, args: tuple[Word, ...], wrappers: tuple[str, ...],
         depth: int, reparse: Reparse, dynamic_input: bool) -> list[Piece]:  # fmt: skip
    """awk judged as the code it is given: the program text is not a path; the files it
    writes and reads and the commands it runs (`awk.read_awk`) are judged as such."""
    given = awk_options(program, tuple(w.text for w in args))
    code, inplace, why, index = list(given.code), given.inplace, given.why, given.files_at
    kept = tuple(w for i, w in enumerate(args) if i not in code)
    writes: list[str] = []
    reads: list[str] = []
    commands: list[str] = []
    feeds: list[str] = []
    shown: list[str] = []  # what `printenv` would show: the variables it reads
    dumped: list[str] = []
    for at in code:
        if at >= len(args):
            continue
        if args[at].dynamic:
            why = why or f"{program} runs a program only known when the shell runs it"
            continue
        effects = read_awk(args[at].text)
        writes += effects.writes
        reads += effects.reads
        commands += effects.commands
        feeds += effects.feeds
        why = why or effects.unknown
        shown += [f"printenv {name}" for name in effects.env if name.isidentifier()]
        if effects.env_dump:  # the whole environment, and what it may reach: a command
            # built at run time (`system("curl -d " s)`) may carry it, as `env | cmd` does
            shown.append("env")
            dumped += [c for c in effects.commands if RUNTIME in c]
    piece = piece_of(cmd, program, kept, wrappers, dynamic=dynamic_input)
    rewritten: list[Piece] = []
    if inplace:  # gawk -i inplace rewrites every file it reads: its own piece, as no
        # redirection onto its input (`owninput`) but a write of each file
        files = tuple(w.text for w in args[index:] if not is_assignment(w.text))
        rewritten.append(Piece(cmd.text, program, (), "bash", wrappers, files, cwd=cmd.cwd,
                               dynamic=any(w.dynamic for w in args[index:])))  # fmt: skip
    sinks: list[str] = []
    runs_input = False
    pieces: list[Piece] = []
    for command in commands:
        nested = reparse(command, depth + 1)
        if command in feeds and nested and nested[0].program:
            head = nested[0]
            sinks.append(head.program or "")
            runs_input = runs_input or (
                is_interpreter(head.program or "") and not [a for a in head.args if a[:1] != "-"]
            )
        pieces.extend(nested_in(nested, cmd, (*wrappers, program)))
    shown += [f"env | {command}" for command in dumped]
    for printed in dict.fromkeys(shown):  # a variable read is what `printenv` shows of it
        pieces.extend(nested_in(reparse(printed, depth + 1), cmd, (*wrappers, program)))
    piece = piece._replace(writes=piece.writes + tuple(writes), reads=piece.reads + tuple(reads),
                           pipes_to=tuple(sinks), feeds_code=runs_input)  # fmt: skip
    if why is not None:
        pieces.append(opaque(cmd, why, wrappers, program))
    return [piece, *rewritten, *pieces]
