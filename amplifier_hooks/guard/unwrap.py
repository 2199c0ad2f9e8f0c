"""Seeing through wrappers: what actually runs in ``sudo env X=1 nice -n5 rm -rf ~``.

A wrapper runs the command in its arguments, so its options are skipped and the command
after them judged (the wrapper is remembered: a rule may care about ``sudo``). A shell's
``-c`` script and ``eval`` of literal text are parsed again, as a shell would; ``find
-exec`` runs its command on what it finds; ``find -delete`` deletes it; ``xargs`` runs its
command on input the guard cannot see.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import NamedTuple

from amplifier_hooks.guard.awk import AWKS, read_awk
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.programs import SHELLS, is_interpreter, normalise_program
from amplifier_hooks.guard.words import Word

__all__ = ["Command", "Reparse", "plain_piece", "remade", "unwrap"]

Reparse = Callable[[str, int], tuple[Piece, ...]]
"""Parse a script found inside a command (``sh -c``, ``eval``) at a nesting depth."""


class Command(NamedTuple):
    """One simple command as the parser found it, before its wrappers are seen through."""

    text: str
    words: tuple[Word, ...]
    writes: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()
    cwd: str | None = "."
    stdin_script: str | None = None
    """A heredoc or here-string given to the command (a script, if it is a shell)."""


@dataclass(frozen=True)
class _Wrapper:
    """A wrapper's options: those that take a value, and how many operands come before the
    wrapped command (``timeout 5 cmd``: one)."""

    valued: frozenset[str] = frozenset()
    operands: int = 0
    assignments: bool = False


_WRAPPERS: dict[str, _Wrapper] = {
    "sudo": _Wrapper(frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T",
                                "--user", "--group", "--chdir", "--host", "--prompt",
                                "--role", "--type", "--other-user", "--command-timeout",
                                "--close-from"})),
    "doas": _Wrapper(frozenset({"-u", "-C"})),
    "env": _Wrapper(frozenset({"-u", "--unset", "-C", "--chdir", "-P"}), assignments=True),
    "command": _Wrapper(),
    "builtin": _Wrapper(),
    "exec": _Wrapper(frozenset({"-a"})),
    "nice": _Wrapper(frozenset({"-n", "--adjustment"})),
    "nohup": _Wrapper(),
    "time": _Wrapper(frozenset({"-f", "--format", "-o", "--output"})),
    "timeout": _Wrapper(frozenset({"-s", "--signal", "-k", "--kill-after"}), operands=1),
    "stdbuf": _Wrapper(frozenset({"-i", "-o", "-e", "--input", "--output", "--error"})),
    "ionice": _Wrapper(frozenset({"-c", "-n", "-p", "-P", "-u", "--class", "--classdata"})),
    "setsid": _Wrapper(),
    "chrt": _Wrapper(operands=1),
    "taskset": _Wrapper(operands=1),
    "unbuffer": _Wrapper(),
    "chronic": _Wrapper(),
    "caffeinate": _Wrapper(frozenset({"-t", "-w"})),
    "watch": _Wrapper(frozenset({"-n", "--interval", "-d", "--differences"})),
    "busybox": _Wrapper(),
    "chroot": _Wrapper(frozenset({"--userspec", "--groups"}), operands=1),
    "xargs": _Wrapper(frozenset({"-I", "-i", "-n", "-P", "-d", "-E", "-e", "-L", "-l", "-s",
                                 "-a", "--max-args", "--max-procs", "--delimiter",
                                 "--arg-file", "--max-lines", "--replace", "--eof"})),
}  # fmt: skip

_SPECIAL = frozenset({*_WRAPPERS, *SHELLS, *AWKS, "eval", "find"})
"""Programs `unwrap` looks into: wrappers, shells, ``eval``, ``find``, awk."""
_ASSIGNMENT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_PATTERN_CHARS = frozenset("*?[{")
MAX_UNWRAP = 32
"""Wrappers seen through in one command (``sudo sudo sudo ...``) before it is opaque."""


def _is_assignment(text: str) -> bool:
    if "=" not in text:
        return False
    name, equals, _ = text.partition("=")
    return bool(equals and name) and not name[0].isdigit() and set(name) <= _ASSIGNMENT_CHARS


def _skip_options(words: tuple[Word, ...], spec: _Wrapper) -> tuple[Word, ...]:
    """The words after a wrapper's options, assignments and operands."""
    index = 0
    operands = spec.operands
    while index < len(words):
        text = words[index].text
        if text == "--":
            index += 1
            break
        if text.startswith("-") and len(text) > 1:
            name = text.split("=", 1)[0]
            short_valued = name[:2] in spec.valued and len(name) > 2 and not name.startswith("--")
            index += 2 if name in spec.valued and "=" not in text and not short_valued else 1
            continue
        if spec.assignments and _is_assignment(text):
            index += 1
            continue
        if operands:
            operands -= 1
            index += 1
            continue
        break
    return words[index:]


def _shell_script(words: tuple[Word, ...]) -> tuple[bool, Word | None]:
    """(has -c, the script word) for a shell's arguments: ``bash -lc 'x'`` runs ``x``."""
    has_c = False
    index = 0
    while index < len(words):
        text = words[index].text
        if text in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            index += 2
            continue
        if text.startswith("-") and not text.startswith("--") and "c" in text[1:]:
            has_c = True
        elif not text.startswith(("-", "+")):
            return has_c, words[index] if has_c else None
        index += 1
    return has_c, None


_FIELDS = tuple(f.name for f in fields(Piece))
_GIVEN = ("text", "program", "args", "wrappers", "writes", "reads", "cwd", "dynamic", "found")
_DEFAULTS = tuple(
    (name, getattr(Piece(text="", program=None), name)) for name in _FIELDS if name not in _GIVEN
)
"""The fields `_made` is not given, with the values the dataclass gives them."""
_new = object.__new__
_set = object.__setattr__


def _made(text: str, program: str, args: tuple[str, ...], wrappers: tuple[str, ...],
          writes: tuple[str, ...], reads: tuple[str, ...], cwd: str | None, dynamic: bool,
          found: bool) -> Piece:  # fmt: skip
    # Every simple command becomes a Piece: its fields are set here directly instead of
    # through the frozen dataclass's keyword __init__ (a third less time). They are set
    # one by one, as __init__ does: an instance whose __dict__ is assigned or read keeps
    # its fields in a dict, and every rule's read of them is then about four times as
    # slow. tests/guard/test_parser.py checks these pieces equal the dataclass's.
    piece: Piece = _new(Piece)
    _set(piece, "text", text)
    _set(piece, "program", program)
    _set(piece, "args", args)
    _set(piece, "wrappers", wrappers)
    _set(piece, "writes", writes)
    _set(piece, "reads", reads)
    _set(piece, "cwd", cwd)
    _set(piece, "dynamic", dynamic)
    _set(piece, "found", found)
    for name, value in _DEFAULTS:
        _set(piece, name, value)
    return piece


def remade(piece: Piece, **changes: object) -> Piece:
    """``dataclasses.replace(piece, **changes)``, without its keyword __init__ (`_made`)."""
    if not changes.keys() <= set(_FIELDS):
        raise TypeError(f"a Piece has no field {sorted(changes.keys() - set(_FIELDS))}")
    new: Piece = _new(Piece)
    for name in _FIELDS:
        _set(new, name, changes[name] if name in changes else getattr(piece, name))
    return new


def _piece(cmd: Command, program: str, args: tuple[Word, ...], wrappers: tuple[str, ...],
           dynamic: bool = False, found: bool = False) -> Piece:  # fmt: skip
    return _made(cmd.text, program, tuple([w.text for w in args]), wrappers, cmd.writes,
                 cmd.reads, cmd.cwd, dynamic or any([w.dynamic for w in args]), found)  # fmt: skip


def plain_piece(text: str, words: list[str], writes: tuple[str, ...], reads: tuple[str, ...],
                cwd: str | None) -> Piece | None:  # fmt: skip
    """The piece of a command whose words are all plain (no quote, escape, expansion or
    substitution: the parser knows it from the tree) when `unwrap` would have nothing to
    see through: not an assignment, a pattern, nor a program it looks into. None: the
    command is to be unwrapped."""
    head = words[0]
    if "=" in head or not _PATTERN_CHARS.isdisjoint(head):
        return None
    program = normalise_program(head)
    if program in _SPECIAL:
        return None
    return _made(text, program, tuple(words[1:]), (), writes, reads, cwd, False, False)


def _opaque(cmd: Command, why: str, wrappers: tuple[str, ...], program: str | None = None) -> Piece:
    return Piece(text=cmd.text, program=program, wrappers=wrappers, cwd=cmd.cwd, opaque=why,
                 writes=cmd.writes, reads=cmd.reads, dynamic=True)  # fmt: skip


def _nested(pieces: tuple[Piece, ...], cmd: Command, wrappers: tuple[str, ...]) -> list[Piece]:
    # Redirections around `sh -c '...'` apply to what the script runs.
    return [
        remade(
            p,
            wrappers=wrappers + p.wrappers,
            writes=p.writes + cmd.writes,
            reads=p.reads + cmd.reads,
        )
        for p in pieces
    ]


def unwrap(cmd: Command, depth: int, reparse: Reparse) -> list[Piece]:
    """The pieces ``cmd`` runs: itself with its wrappers seen through, or the commands of
    a script it runs."""
    words = cmd.words
    wrappers: tuple[str, ...] = ()
    dynamic_input = False
    replaces = False  # xargs -I: its input is pasted into the words that follow
    for _ in range(MAX_UNWRAP):
        while (
            words
            and "=" in words[0].text
            and _is_assignment(words[0].text)
            and not words[0].dynamic
        ):
            words = words[1:]
        if not words:
            if wrappers:
                return [_piece(cmd, wrappers[-1], (), wrappers[:-1], dynamic=dynamic_input)]
            return []
        head = words[0]
        if head.dynamic:
            return [_opaque(cmd, f"the program name {head.text!r} is only known when the shell "
                            "runs it", wrappers)]  # fmt: skip
        if not _PATTERN_CHARS.isdisjoint(head.text) and head.text not in ("[", "[["):
            return [_opaque(cmd, f"the program name {head.text!r} is a pattern the shell "
                            "expands", wrappers)]  # fmt: skip
        program = normalise_program(head.text)
        args = words[1:]
        if program not in _SPECIAL:  # most programs: nothing to see through
            return [_piece(cmd, program, args, wrappers, dynamic=dynamic_input)]
        if program == "command" and any(a.text in ("-v", "-V") for a in args[:2]):
            return [_piece(cmd, program, args, wrappers)]
        spec = _WRAPPERS.get(program)
        if spec is not None:
            if program == "env" and any(a.text.startswith(("-S", "--split-string")) for a in args):
                return [_opaque(cmd, "env -S splits a command line the guard does not read",
                                wrappers, program)]  # fmt: skip
            if program == "xargs":
                dynamic_input = True
                replaces = replaces or any(
                    a.text.startswith(("-I", "-i", "--replace")) for a in args
                )
            rest = _skip_options(args, spec)
            if program in ("watch",) and len(rest) == 1:
                return _script(cmd, rest[0], (*wrappers, program), depth, reparse, program)
            if not rest:
                default = "echo" if program == "xargs" else program
                return [_piece(cmd, default, args, wrappers, dynamic=dynamic_input)]
            wrappers += (program,)
            words = rest
            continue
        if program in SHELLS:
            has_c, script = _shell_script(args)
            if has_c:
                if script is None:
                    return [_opaque(cmd, f"{program} -c without a script", wrappers, program)]
                if replaces:
                    return [_opaque(cmd, f"xargs pastes its input into the script {program} "
                                    "-c runs", wrappers, program)]  # fmt: skip
                return _script(cmd, script, (*wrappers, program), depth, reparse, program)
            if cmd.stdin_script is not None and not [a for a in args if not a.text.startswith("-")]:
                nested = reparse(cmd.stdin_script, depth + 1)
                return [
                    _piece(cmd, program, args, wrappers),
                    *_nested(nested, cmd, (*wrappers, program)),
                ]
        if program == "eval":
            if not args:
                return [_piece(cmd, program, args, wrappers)]
            return _script(cmd, Word(" ".join(a.text for a in args), any(a.dynamic for a in args)),
                           (*wrappers, program), depth, reparse, program)  # fmt: skip
        if program == "find":
            return _find(cmd, args, wrappers, depth, reparse)
        if program in AWKS:
            return _awk(cmd, program, args, wrappers, depth, reparse, dynamic_input)
        return [_piece(cmd, program, args, wrappers, dynamic=dynamic_input)]
    return [_opaque(cmd, f"more than {MAX_UNWRAP} wrappers", wrappers)]


def _script(cmd: Command, script: Word, wrappers: tuple[str, ...], depth: int,
            reparse: Reparse, program: str) -> list[Piece]:  # fmt: skip
    if script.dynamic:
        return [_opaque(cmd, f"{program} runs a script that is only known when the shell "
                        "runs it", wrappers[:-1], program)]  # fmt: skip
    nested = reparse(script.text, depth + 1)
    return _nested(nested, cmd, wrappers)


_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_FIND_FILTERS = frozenset({"-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-newer",
                           "-mtime", "-mmin", "-type", "-size", "-empty", "-user", "-perm",
                           "-wholename", "-links", "-inum", "-atime", "-ctime"})  # fmt: skip


def _find(cmd: Command, args: tuple[Word, ...], wrappers: tuple[str, ...], depth: int,
          reparse: Reparse) -> list[Piece]:  # fmt: skip
    """``find`` itself, and what its ``-exec``/``-delete`` do to what it finds."""
    start: list[Word] = []
    for w in args:
        if w.text.startswith(("-", "(", "!")):
            break
        start.append(w)
    roots = start or [Word(".")]
    filtered = any(w.text in _FIND_FILTERS for w in args)
    pieces = [_piece(cmd, "find", args, wrappers)]
    index = 0
    while index < len(args):
        text = args[index].text
        if text == "-delete":
            pieces.append(_piece(cmd, "rm", (Word("-r"), *roots), wrappers, found=filtered))
        elif text in _FIND_EXEC:
            end = index + 1
            while end < len(args) and args[end].text not in (";", "+"):
                end += 1
            inner = args[index + 1 : end]
            expanded: list[Word] = []
            for w in inner:
                expanded.extend(roots if w.text == "{}" else [w])
            if inner:
                sub = Command(cmd.text, tuple(expanded), cmd.writes, cmd.reads, cmd.cwd)
                found = [remade(p, found=filtered) for p in unwrap(sub, depth + 1, reparse)]
                pieces.extend(remade(p, wrappers=(*wrappers, "find", *p.wrappers)) for p in found)
            index = end
        index += 1
    return pieces


_AWK_VALUED = frozenset({"-f", "--file", "-e", "--source", "-i", "--include", "-l", "--load",
                         "-F", "--field-separator", "-v", "--assign"})  # fmt: skip


def _awk(cmd: Command, program: str, args: tuple[Word, ...], wrappers: tuple[str, ...],
         depth: int, reparse: Reparse, dynamic_input: bool) -> list[Piece]:  # fmt: skip
    """awk judged as the code it is given: the program text is not a path; the files it
    writes and reads and the commands it runs (`awk.read_awk`) are judged as such."""
    code: list[int] = []
    from_file = inplace = False
    why: str | None = None
    index = 0
    while index < len(args):
        text = args[index].text
        if text == "--":
            index += 1
            break
        if text in _AWK_VALUED:
            value = args[index + 1].text if index + 1 < len(args) else ""
            if text in ("-f", "--file"):
                from_file = True
            elif text in ("-e", "--source"):
                code.append(index + 1)
            elif text in ("-i", "--include") and value == "inplace":
                inplace = True
            elif text in ("-i", "--include", "-l", "--load"):
                why = f"{program} loads {value!r}, which the guard does not read"
            index += 2
            continue
        if not text.startswith("-") or text == "-":
            break
        from_file = from_file or text.startswith(("-f", "--file="))
        inplace = inplace or text in ("-iinplace", "--include=inplace")
        index += 1
    if not from_file and not code and index < len(args):
        code.append(index)
        index += 1
    kept = tuple(w for i, w in enumerate(args) if i not in code)
    writes: list[str] = []
    reads: list[str] = []
    commands: list[str] = []
    feeds: list[str] = []
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
    if inplace:  # gawk -i inplace rewrites every file it reads
        writes += [w.text for w in args[index:] if not _is_assignment(w.text)]
    piece = _piece(cmd, program, kept, wrappers, dynamic=dynamic_input)
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
        pieces.extend(_nested(nested, cmd, (*wrappers, program)))
    piece = remade(piece, writes=piece.writes + tuple(writes), reads=piece.reads + tuple(reads),
                    pipes_to=tuple(sinks), feeds_code=runs_input)  # fmt: skip
    if why is not None:
        pieces.append(_opaque(cmd, why, wrappers, program))
    return [piece, *pieces]
