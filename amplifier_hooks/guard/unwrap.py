"""Seeing through wrappers: what actually runs in ``sudo env X=1 nice -n5 rm -rf ~``.

A wrapper runs the command in its arguments, so its options are skipped and the command
after them judged (the wrapper is remembered: a rule may care about ``sudo``). A shell's
``-c`` script and ``eval`` of literal text are parsed again, as a shell would; ``find
-exec`` runs its command on what it finds; ``find -delete`` deletes it; ``xargs`` runs its
command on input the guard cannot see.
"""

from __future__ import annotations

from amplifier_hooks.guard.awk import AWKS
from amplifier_hooks.guard.awkpieces import awk_pieces
from amplifier_hooks.guard.commandpieces import (
    Command,
    Reparse,
    doubted,
    nested_in,
    opaque,
    piece_of,
)
from amplifier_hooks.guard.envs import commands_of, doubt_of
from amplifier_hooks.guard.fedcode import as_inline_code, reads_program
from amplifier_hooks.guard.findowned import ACTS_ON_FOUND, found_owned
from amplifier_hooks.guard.findroots import found_roots
from amplifier_hooks.guard.inline import CODE_PASSED
from amplifier_hooks.guard.launchers import LAUNCHERS, launched, trap_action
from amplifier_hooks.guard.makefiles import made_from_input
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.namescripts import NAME_TAKERS, name_scripts
from amplifier_hooks.guard.phpruns import php_runs
from amplifier_hooks.guard.programs import SHELLS, is_interpreter, normalise_program
from amplifier_hooks.guard.pymodules import module_program
from amplifier_hooks.guard.remote import fed_remote
from amplifier_hooks.guard.shellinit import known_output
from amplifier_hooks.guard.table import RUNS_COMMANDS, commands_run
from amplifier_hooks.guard.table.git_submodule import EACH_SUBMODULE, in_each_submodule
from amplifier_hooks.guard.table.shells import shell_read
from amplifier_hooks.guard.table.wrapping import DESCRIBE, EXEC, REPLACE, SHELL
from amplifier_hooks.guard.tempcwd import in_temp, temp_words
from amplifier_hooks.guard.words import Word, one_char_brackets
from amplifier_hooks.guard.wrappers import (
    UNGRANTED_WHY,
    WRAPPERS,
    env_folder,
    is_assignment,
    skip_options,
    split_words,
)
from amplifier_hooks.guard.xargsfiles import arg_file_reads
from amplifier_hooks.guard.xargspaste import PASTES, pasted_script

__all__ = ["RUN_BY_PATH", "RUN_TIME", "literal_piece", "unwrap"]

_SPECIAL = frozenset({*WRAPPERS, *SHELLS, *AWKS, *LAUNCHERS, "eval", "find", "trap"})
"""Programs `unwrap` looks into: wrappers, shells, ``eval``, ``find``, awk."""
_PATTERN_CHARS = frozenset("*?[{")
RUN_BY_PATH = "@run-by-path"
"""The mark of that ``sh FILE`` piece (`earlier` drops it for a program the same command
compiled there from the project's sources: ``cc -o /tmp/t t.c && /tmp/t``)."""
_ONE_NAME = "the program's name is a pattern of one name (`[e]slint`), never granted"
MAX_UNWRAP = 32
RUN_TIME = "is only known when the shell runs it"
"""The end of the reason a program or a script is opaque because the shell computes it
(`evalpieces` judges such a piece as the shell's expansion where that is whole)."""
"""Wrappers seen through in one command (``sudo sudo sudo ...``) before it is opaque."""

_SQL_INPUT = {"psql": "-c", "mysql": "-e", "mariadb": "-e", "sqlite3": "-cmd", "duckdb": "-cmd"}
"""SQL clients' option that gives on the command line what their input gives (the rules read it)."""


def literal_piece(text: str, words: list[str], writes: tuple[str, ...], reads: tuple[str, ...],
                  cwd: str | None) -> Piece | None:  # fmt: skip
    """The piece of a command whose words are all literal (no quote, escape, expansion or
    substitution: the parser knows it from the tree) when `unwrap` would have nothing to
    see through: not an assignment, a pattern, nor a program it looks into or whose
    options make it run a command. None: the command is to be unwrapped."""
    head = words[0]
    if "=" in head or not _PATTERN_CHARS.isdisjoint(head):
        return None
    program = normalise_program(head)
    args = tuple(words[1:])
    if program == "ssh":  # `ssh host < deploy.sh`: the file's commands run there
        args = fed_remote(args, None, reads)
    if program in _SPECIAL or in_temp(head, cwd) is not None or temp_words(args, cwd):
        return None
    if program in NAME_TAKERS and name_scripts(program, args):
        return None  # `printf -v 'a[$(CMD)]' x`: CMD is judged too (`_named`)
    if program in RUNS_COMMANDS and commands_run(program, args):
        return None  # `man -P reboot ls`: what it runs is judged too (`_ran`)
    if program in ("make", "gmake") and any(a.startswith(("--eval", "-E")) for a in args):
        return None  # `make --eval='x: ; CMD' x`: its recipes are read (`makefiles`)
    if program.startswith("python") and module_program(program, args) is not None:
        return None  # `python -m mkdocs gh-deploy`: judged as mkdocs too
    if program.startswith(("php", "artisan")) and php_runs(program, tuple(map(Word, args))):
        return None  # `php vendor/bin/envoy run deploy`: judged as envoy too
    return Piece(text, program, args, "bash", (), writes, reads, (), False, cwd)


def unwrap(cmd: Command, depth: int, reparse: Reparse) -> list[Piece]:
    """The pieces ``cmd`` runs: itself with its wrappers seen through, or the commands of
    a script it runs; each told the variables set for it (and what they run is judged
    too: `envs.commands_of`) and why it may not be granted."""
    env: list[str] = []  # filled by `_unwrapped` with what it reads past
    pieces = _unwrapped(cmd, cmd.words, depth, reparse, env)
    if read := arg_file_reads(cmd, depth, reparse):  # `xargs -a FILE`: FILE is read
        pieces = [*pieces, *read]
    if not env:
        return pieces
    return _with_env(cmd, pieces, tuple(env), depth, reparse)


def _with_env(cmd: Command, pieces: list[Piece], env: tuple[str, ...], depth: int,
              reparse: Reparse) -> list[Piece]:  # fmt: skip
    """``pieces`` given ``env``, and the pieces of what ``env`` makes them run. A command
    of assignments alone is a piece only when one of them is not harmless."""
    doubt = doubt_of(env)
    if not pieces and doubt is not None:
        pieces = [Piece(cmd.text, None, cwd=cmd.cwd, env=env, doubt=doubt)]
    else:
        pieces = [p._replace(env=env + p.env, doubt=p.doubt or doubt) for p in pieces]
    for command in commands_of(env):
        pieces.extend(reparse(command, depth + 1))
    return pieces


def _unwrapped(cmd: Command, words: tuple[Word, ...], depth: int, reparse: Reparse,
               env: list[str]) -> list[Piece]:  # fmt: skip
    wrappers: tuple[str, ...] = ()
    dynamic_input = False
    doubt: str | None = None
    replaces = False  # xargs -I: its input is pasted into the words that follow
    pasting: tuple[Word, ...] = ()  # (xargs's options)
    for _ in range(MAX_UNWRAP):
        while words and "=" in words[0].text and is_assignment(words[0].text):
            env.append(words[0].text)
            words = words[1:]
        if not words:
            if wrappers:
                return doubted([piece_of(cmd, wrappers[-1], (), wrappers[:-1],
                                        dynamic=dynamic_input)], doubt)  # fmt: skip
            return []
        head = words[0]
        if head.dynamic:
            return [opaque(cmd, f"the program name {head.text!r} {RUN_TIME}", wrappers)]
        plain = one_char_brackets(head.text) if not wrappers and "[" in head.text else ""
        if plain != head.text and plain and _PATTERN_CHARS.isdisjoint(plain):
            # `[e]slint` is `eslint`; under nullglob an unmatched word vanishes and the
            # next word is the program: both are judged
            found = _unwrapped(cmd, (Word(plain), *words[1:]), depth, reparse, list(env))
            found += _unwrapped(cmd, words[1:], depth, reparse, list(env))
            return doubted(found, _ONE_NAME)  # (a file of the odd name may exist: no grant)
        if not _PATTERN_CHARS.isdisjoint(head.text) and head.text not in ("[", "[["):
            return [opaque(cmd, f"the program name {head.text!r} is a pattern the shell "
                            "expands", wrappers)]  # fmt: skip
        program = normalise_program(head.text)
        args = words[1:]
        temp = in_temp(head.text, cmd.cwd)  # `/tmp/x.sh`, `cd /tmp && ./x.sh`
        if temp is not None:  # judged as `sh /tmp/x.sh` too
            as_script = piece_of(cmd, "sh", (Word(temp), *args), (*wrappers, RUN_BY_PATH),
                                 dynamic=dynamic_input)  # fmt: skip
            return doubted([piece_of(cmd, program, args, wrappers, dynamic=dynamic_input),
                            as_script], doubt)  # fmt: skip
        if program not in _SPECIAL:  # most programs: nothing to see through
            piece = piece_of(cmd, program, args, wrappers, dynamic=dynamic_input)
            absolute = temp_words(piece.args, cmd.cwd)  # `cd /tmp && go vet -vettool=./x`
            if absolute is not None:
                piece = piece._replace(args=absolute)
            module = module_program(program, piece.args) if program.startswith("python") else None
            if module is not None and cmd.stdin_script is None:  # `python -m twine upload`
                tool = piece_of(cmd, module[0], args[module[1] :], (*wrappers, program),
                                dynamic_input)  # fmt: skip
                return doubted([piece, tool], doubt)
            runs = php_runs(program, args) if program.startswith(("php", "artisan")) else None
            if runs is not None and cmd.stdin_script is None:  # `php artisan tinker --execute=`
                also = piece_of(cmd, runs[0], runs[1], (*wrappers, program), dynamic_input)
                return doubted([piece, also], doubt)
            code = (
                as_inline_code(piece, cmd.stdin_script)  # `python3 - <<EOF`
                if cmd.stdin_script is not None and is_interpreter(program)
                and reads_program(program, piece.args, cmd.reads) else None
            )  # fmt: skip
            if code is not None:  # the code is asked (or read) as `code`, once
                passed = piece._replace(wrappers=(*piece.wrappers, CODE_PASSED))
                return doubted([passed, code], doubt)
            if cmd.stdin_script is not None and program in ("cat", "tee", "git", "patch", "gh",
                                                            "glab"):  # fmt: skip
                # `cat > x.py <<EOF`, a patch, a forge API call's body (`--input -`)
                piece = piece._replace(fed=cmd.stdin_script)
            elif cmd.stdin_script is not None and program in _SQL_INPUT:
                # `psql URL <<SQL`: the statements, as the option that gives them
                piece = piece._replace(args=(*piece.args, _SQL_INPUT[program], cmd.stdin_script))
            elif program == "ssh":  # `ssh host <<EOF`: its text runs there
                piece = piece._replace(args=fed_remote(piece.args, cmd.stdin_script, cmd.reads))
            made = made_from_input(piece, cmd.stdin_script, lambda s: reparse(s, depth + 1))
            if made is not None:  # `make -f - <<EOF`: its recipes are read (`makefiles`)
                return doubted(made, doubt)
            if program in NAME_TAKERS:  # `read 'a[$(CMD)]'` runs CMD: `namescripts`
                return doubted([piece, *_named(cmd, piece, wrappers, depth, reparse)], doubt)
            if program not in RUNS_COMMANDS:
                return doubted([piece], doubt)
            ran = _ran(cmd, piece, wrappers, depth, reparse, tuple(env))
            return doubted([piece, *ran], doubt)
        spec = WRAPPERS.get(program)
        if spec is not None:
            skipped = skip_options(args, spec)
            if DESCRIBE in skipped.roles:  # `command -v rm`: names it, runs nothing
                # `command -v git reset --hard` runs nothing, but reads as what it names
                if len([w for w in skipped.rest if w.text != "--"]) > 1:
                    doubt = doubt or "command -v is given a whole command, not one name"
                return doubted([piece_of(cmd, program, args, wrappers)], doubt)
            rest = skipped.rest
            if program == "env" and len(rest) < len(args):  # `env -C DIR cmd`: cmd runs in DIR
                cmd = cmd._replace(cwd=env_folder(cmd.cwd, args[: len(args) - len(rest)]))
            env.extend(skipped.assignments)
            if skipped.unknown is not None and (doubt is None or doubt in UNGRANTED_WHY):
                # an option not read outranks "never granted under sudo" (`readsonly`)
                doubt = f"{program} {skipped.unknown} is an option the guard does not know"
            if skipped.split:
                split = split_words(skipped.split, args[: len(args) - len(rest)])
                if split is None:
                    return [opaque(cmd, "env -S splits a command line the guard does not "
                                    "read", wrappers, program)]  # fmt: skip
                doubt = doubt or "env -S splits a command line by rules of its own"
                words = (head, *split, *rest)  # its words are env's again
                continue
            if program == "xargs":
                dynamic_input = True
                replaces = replaces or REPLACE in skipped.roles
                pasting = args[: len(args) - len(rest)]
            doubt = doubt or spec.why
            if program == "watch" and rest and EXEC not in skipped.roles:
                # watch joins its arguments and gives them to `sh -c`
                joined = Word(" ".join(w.text for w in rest), any(w.dynamic for w in rest))
                return doubted(_script(cmd, joined, (*wrappers, program), depth, reparse,
                                        program), doubt)  # fmt: skip
            if not rest and SHELL in skipped.roles:  # `sudo -i <<< CMD`: root's shell,
                rest = (Word("sh", False),)  # reading CMD (or the host's input) as root
            if not rest:
                default = "echo" if program == "xargs" else program
                return doubted([piece_of(cmd, default, args, wrappers, dynamic=dynamic_input)],
                                doubt)  # fmt: skip
            wrappers += (program,)
            words = rest
            continue
        if program in SHELLS:
            shell = shell_read(tuple([a.text for a in args]))
            doubt = doubt or shell.doubt
            if shell.read.has("command"):
                if shell.command is None:
                    return [opaque(cmd, f"{program} -c without a script", wrappers, program)]
                script = args[shell.command]
                if replaces:  # (its script, read with an unknown word for each line)
                    pasted = pasted_script(pasting, script)
                    inner = () if pasted is None else reparse(pasted, depth + 1)
                    return [opaque(cmd, f"{PASTES} {program} -c runs", wrappers, program),
                            *nested_in(inner, cmd, (*wrappers, program))]  # fmt: skip
                return doubted(_script(cmd, script, (*wrappers, program), depth, reparse,
                                        program), doubt)  # fmt: skip
            if cmd.stdin_script is not None and shell.stdin:
                nested = reparse(cmd.stdin_script, depth + 1)
                return doubted([
                    piece_of(cmd, program, args, wrappers),
                    *nested_in(nested, cmd, (*wrappers, program)),
                ], doubt)  # fmt: skip
        launch = launched(program, args) if program in LAUNCHERS else None
        if launch is not None:  # `flock F CMD`, `tmux new -d 'CMD'`: `launchers`
            if launch.script is not None:
                ran = _script(cmd, launch.script, (*wrappers, program), depth, reparse, program)
                return doubted([piece_of(cmd, program, args, wrappers), *ran], launch.why)
            wrappers, doubt, words = (*wrappers, program), doubt or launch.why, launch.words
            continue
        if program == "trap":  # its action runs later, in this shell
            action = trap_action(args)
            ran = [] if action is None else _script(cmd, action, (*wrappers, program), depth,
                                                     reparse, program)  # fmt: skip
            return doubted([piece_of(cmd, program, args, wrappers), *ran], doubt)
        if program == "eval":
            if not args:
                return [piece_of(cmd, program, args, wrappers)]
            script = Word(" ".join(a.text for a in args), any(a.dynamic for a in args))
            return doubted(_script(cmd, script, (*wrappers, program), depth, reparse, program),
                            doubt)  # fmt: skip
        if program == "trap":
            return doubted(_trap(cmd, args, wrappers, depth, reparse), doubt)
        if program == "find":
            return doubted(_find(cmd, args, wrappers, depth, reparse), doubt)
        if program in AWKS:
            return doubted(awk_pieces(cmd, program, args, wrappers, depth, reparse, dynamic_input),
                            doubt)  # fmt: skip
        return doubted([piece_of(cmd, program, args, wrappers, dynamic=dynamic_input)], doubt)
    return [opaque(cmd, f"more than {MAX_UNWRAP} wrappers", wrappers)]


def _ran(cmd: Command, piece: Piece, wrappers: tuple[str, ...], depth: int,
         reparse: Reparse, env: tuple[str, ...] = ()) -> list[Piece]:  # fmt: skip
    """The pieces of the commands ``piece``'s options make it run (`table.commands_run`)."""
    if piece.program is None:
        return []
    found: list[Piece] = []
    # (what git submodule foreach runs is marked so: it runs in every submodule)
    outer = EACH_SUBMODULE if in_each_submodule(piece.program, piece.args) else piece.program
    for command in commands_run(piece.program, piece.args):
        command = _given(command, env)
        found.extend(nested_in(reparse(command, depth + 1), cmd, (*wrappers, outer)))
    return found


def _given(command: str, env: tuple[str, ...]) -> str:
    """``P='rm -rf ~' git --config-env=core.pager=P log`` runs what ``$P`` holds: the value
    the same command gives it (the last, as the shell does), where that is literal text."""
    if not (command.startswith('"$') and command.endswith('"')):
        return command
    name = command[2:-1].removeprefix("{").removesuffix("}")
    for assignment in reversed(env):
        key, _, value = assignment.partition("=")
        if key == name:
            return command if "$" in value or "`" in value else value
    return command


def _named(cmd: Command, piece: Piece, wrappers: tuple[str, ...], depth: int,
           reparse: Reparse) -> list[Piece]:  # fmt: skip
    """The pieces of what a builtin's variable names or callback run (`name_scripts`)."""
    if piece.program is None:
        return []
    found: list[Piece] = []
    for script in name_scripts(piece.program, piece.args):
        found.extend(nested_in(reparse(script, depth + 1), cmd, (*wrappers, piece.program)))
    return found


def _trap(cmd: Command, args: tuple[Word, ...], wrappers: tuple[str, ...], depth: int,
          reparse: Reparse) -> list[Piece]:  # fmt: skip
    """``trap ACTION SIGNAL...``: the shell runs ACTION later (at exit, on an error or a
    signal), so ACTION is judged as a command of its own, beside the trap itself; ``trap -
    SIG``, ``trap -p`` and ``trap SIG`` set none."""
    words = args[1:] if args and args[0].text == "--" else args
    piece = piece_of(cmd, "trap", args, wrappers)
    if len(words) < 2 or words[0].text.startswith("-") or not words[0].text.strip():
        return [piece]
    return [piece, *_script(cmd, words[0], (*wrappers, "trap"), depth, reparse, "trap")]


def _script(cmd: Command, script: Word, wrappers: tuple[str, ...], depth: int,
            reparse: Reparse, program: str) -> list[Piece]:  # fmt: skip
    if script.dynamic and program == "eval":  # `eval "$(direnv hook bash)"`: `shellinit`
        printer, printed = known_output(script.text)
        if printer is not None:
            return [
                Piece(
                    cmd.text,
                    "eval",
                    (),
                    "bash",
                    wrappers[:-1],
                    cmd.writes,
                    cmd.reads,
                    cwd=cmd.cwd,
                    doubt=f"eval runs the setup code {printer} prints",
                )
            ]
        script = script if printed is None else Word(printed)
    if script.dynamic:
        return [opaque(cmd, f"{program} runs a script that {RUN_TIME}", wrappers[:-1], program)]
    nested = reparse(script.text, depth + 1)
    return nested_in(nested, cmd, wrappers)


_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def _find(cmd: Command, args: tuple[Word, ...], wrappers: tuple[str, ...], depth: int,
          reparse: Reparse) -> list[Piece]:  # fmt: skip
    """``find`` itself, and what its ``-exec``/``-delete`` do to what it finds."""
    found, filtered = found_roots(args)
    texts = tuple([a.text for a in args])
    owned = found_owned(texts) if filtered and not ACTS_ON_FOUND.isdisjoint(texts) else {}
    pieces = [piece_of(cmd, "find", args, wrappers)]
    index = 0
    while index < len(args):
        text = args[index].text
        roots = found + [Word(p) for p in owned.get(index, ())]  # (`findowned`)
        if text == "-delete":
            pieces.append(piece_of(cmd, "rm", (Word("-r"), *roots), wrappers, found=filtered))
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
                pieces.extend(p._replace(found=filtered, wrappers=(*wrappers, "find", *p.wrappers))
                              for p in unwrap(sub, depth + 1, reparse))  # fmt: skip
            index = end
        index += 1
    return pieces
