"""Code that arrives another way than as a command the guard reads: an interpreter's
program read from its input, a script the same command writes and then runs (an alias
defined and then used, a ``cd`` that ``CDPATH`` sends elsewhere: `shellstate`).

Such a piece is marked (a wrapper name starting with ``@``, which no program has), so
that pack rules can ask about it (``wrapped: ["@written-script"]``); what the guard can
still read of it (the text ``printf`` wrote) is judged as pieces too.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Callable, Mapping

from amplifier_hooks.guard.awk import AWKS
from amplifier_hooks.guard.checkers import checks_only
from amplifier_hooks.guard.codecalls import code_texts, shell_commands
from amplifier_hooks.guard.codepieces import code_pieces
from amplifier_hooks.guard.codereaders import (
    code_reader,
    operand_readings,
    quiet_args,
    quietly_run,
    read_once,
)
from amplifier_hooks.guard.compileroutputs import built_program
from amplifier_hooks.guard.copiedprograms import copied_program
from amplifier_hooks.guard.evalwhole import stands
from amplifier_hooks.guard.fedcode import as_inline_code, echoed_text
from amplifier_hooks.guard.inline import (
    CODE_PASSED,
    CODE_READ,
    QUIET_CODE,
    is_python,
)
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.notebookruns import executed_notebooks
from amplifier_hooks.guard.paths import locate
from amplifier_hooks.guard.pipedwrites import piped_text
from amplifier_hooks.guard.places import MODE_PROGRAMS, changed
from amplifier_hooks.guard.programs import SHELLS, is_interpreter
from amplifier_hooks.guard.pyeffects import effects_only
from amplifier_hooks.guard.sourceruns import source_run
from amplifier_hooks.guard.table.fetch import remote_names
from amplifier_hooks.guard.unwrap import RUN_BY_PATH
from amplifier_hooks.guard.venvs import made_venv
from amplifier_hooks.guard.writtenshell import script_pieces

__all__ = [
    "WRITTEN_SCRIPT",
    "WRITTEN_SETTINGS",
    "mark_written_scripts",
    "read_code_commands",
    "read_piped_scripts",
]

WRITTEN_SCRIPT = "@written-script"
WRITTEN_SETTINGS = "@written-settings"
"""An agent CLI loading a settings file the same command writes (``claude --settings F``):
settings the person never saw, which can turn its hooks and prompts off."""

Reparse = Callable[[str], tuple[Piece, ...]]


def mark_written_scripts(pieces: tuple[Piece, ...], places: Places, reparse: Reparse,
                         appends: bool = True) -> tuple[Piece, ...]:  # fmt: skip
    """Pieces that run a script an earlier piece writes, marked; the text an ``echo`` or
    ``printf`` wrote there (or ``cat``/``tee`` from a heredoc) is judged as a script of
    its own. A script written once, whole (``appends``: the command may append to a file,
    ``>>``), that the guard reads as quiet code is judged as that code instead."""
    written: dict[str, str | None] = {}
    built: set[str] = set()  # the programs a compiler or linker made (`built_program`)
    copies: dict[str, str] = {}  # a copy's path: the file copied there (`copied_program`)
    once: dict[str, int] = {}  # a path written once, whole: by the piece at that index
    out: list[Piece] = []
    last = len(pieces) - 1
    for index, piece in enumerate(pieces):
        if written and _loaded_settings(piece, places) in written:
            out.append(piece._replace(wrappers=(*piece.wrappers, WRITTEN_SETTINGS)))
            continue  # `echo '{..}' > s.json && claude --settings s.json`
        if RUN_BY_PATH in piece.wrappers and built and _made(_runs(piece, places), built, written):
            continue  # `cc -o /tmp/t t.c && /tmp/t`: the build's program (its piece stays)
        if copies and (ran := _run_copy(piece, places, copies)) is not None:
            # `cp /bin/rm /tmp/ls && /tmp/ls -rf ~`: the copy is the program copied
            out.append(piece._replace(wrappers=(*piece.wrappers, WRITTEN_SCRIPT)))
            out.extend(reparse(ran))
            continue
        run = _runs(piece, places) if written else None
        run = run if run in written else _imported(piece, written) if written else None
        if run is not None and run in written:
            text = written[run]
            at = once.get(run)
            if (
                text
                and at is not None
                and not appends
                and all(p.program in MODE_PROGRAMS for p in pieces[at + 1 : index])
            ):  # a shell's script, read whole: its commands (`writtenshell`)
                read = script_pieces(piece, run, text, pieces[at], places, reparse)
                if read is not None:
                    out.extend(read)
                    continue
            # (run right after: no piece between may have changed the file unseen)
            if text and once.get(run) == index - 1 and not appends and _quiet_script(piece, text):
                out.append(as_inline_code(piece, text) or piece)  # read whole: that code
                continue
            marked = piece._replace(wrappers=(*piece.wrappers, WRITTEN_SCRIPT))
            out.append(marked)
            code = as_inline_code(marked, text) if text else None
            if code is not None:
                out.append(code)  # `python3 x.py`: the Python written there
            elif text and _script_program(piece) is not None:  # `sed -f F`, `awk -f F`
                out.extend(p._replace(wrappers=(*p.wrappers, WRITTEN_SCRIPT))
                           for p in reparse(_inline_script(piece, text)))  # fmt: skip
            elif text and _shell_text(piece):
                out.extend(  # (a notebook's text is JSON, not a script: the mark says it)
                    p._replace(wrappers=(*p.wrappers, WRITTEN_SCRIPT)) for p in reparse(text)
                )
            continue
        out.append(piece)
        program = built_program(piece)  # a program built from the sources it is given
        program = program if program is not None else made_venv(piece)  # (its bin/)
        if program is not None and not program.startswith("$"):
            built.add(locate(program, piece.cwd, places).path)
        if (copy := copied_program(piece)) is not None:
            dest, source = copy
            for name in (dest, posixpath.join(dest, posixpath.basename(source))):
                copies[locate(name, piece.cwd, places).path] = source
        if piece.program in MODE_PROGRAMS or index == last:
            continue  # `chmod +x x.sh`: the script stays what was written; none runs later
        whole = piece.program != "tee" or not any(a[:1] == "-" for a in piece.args)
        for path in _writes(piece, places):
            if path in written or not whole:  # (`tee -a`; a second write adds to the first)
                once.pop(path, None)
            else:
                once[path] = index
            written[path] = echoed_text(piece) or piped_text(pieces, index)
            built.discard(path)
    return tuple(out)


def _shell_text(piece: Piece) -> bool:
    """The file ``piece`` runs may be a shell script (not a notebook's JSON, not a Go or
    Zig source a compiler runs: `sourceruns`)."""
    program = piece.program or ""
    return not executed_notebooks(program, piece.args) and source_run(program, piece.args) is None


def _run_copy(piece: Piece, places: Places, copies: dict[str, str]) -> str | None:
    """The command ``piece`` is when it runs, by its path, a copy of a program made
    earlier in the command: that program given its arguments (None: another piece)."""
    program = piece.program or ""
    path = _runs(piece, places) or ""
    if RUN_BY_PATH in piece.wrappers:
        args = piece.args[1:]  # (`sh /tmp/ls -rf ~`: the path, then its arguments)
    elif posixpath.basename(path) == program and not (
        program in SHELLS or program in ("source", ".") or is_interpreter(program)
    ):
        args = piece.args  # (`./tidy -rf ~`; not a file read as a script: `sed -f F`)
    else:
        return None
    source = copies.get(path)
    return None if source is None else shlex.join((source, *args))


def _bare_receiver(after: tuple[Piece, ...], interpreter: str | None, text: str) -> bool:
    """The piece ``after`` a literal ``echo`` is ``interpreter`` alone, reading its
    program from that pipe (``| python3``, ``| python3 -``), and the program is quiet."""
    if not after or after[0].program != interpreter or after[0].args not in ((), ("-",)):
        return False
    if after[0].reads:  # (`| python3 < x.py` runs x.py)
        return False
    return _quiet_script(after[0]._replace(args=("-",)), text)


def _quiet_script(piece: Piece, text: str) -> bool:
    """``piece`` runs the script the same command wrote, given nothing else (``python3
    /tmp/x.py``), and that script is code the guard reads whole and finds quiet: it is
    then judged as that code (``python3 -c TEXT``: not asked, never granted)."""
    reader = code_reader(piece.program or "")
    if reader is None or len(piece.args) != 1 or piece.env or piece.doubt is not None:
        return False
    if not _LITERAL.isdisjoint(text):
        return False  # an escape, a format or an expansion: the file may hold other text
    reading = read_once(reader, text)
    return reading.parsed and reading.quiet


def _writes(piece: Piece, places: Places) -> list[str]:
    words = list(piece.writes)
    if piece.tool == "bash" and piece.program not in ("echo", "printf", "cat"):
        content, whole = changed(piece, (), places)
        words += [*content, *whole, *remote_names(piece.program or "", piece.args)]
    return [locate(w, piece.cwd, places).path for w in [*words, *_code_writes(piece)]]


def _code_writes(piece: Piece) -> list[str]:
    """The paths ``piece``'s inline code writes by name (``df.to_csv("run.sh")``, quiet
    code): a script a later piece runs may be one it wrote, with text the guard has not
    read."""
    program = piece.program or ""
    reader = code_reader(program)
    if reader is None:
        return []
    acts = [a for code in code_texts(program, piece.args) for a in read_once(reader, code).acts]
    return [a.target for a in acts if a.does in ("write", "append") and a.target is not None]


_LITERAL = frozenset("\\%$`")
"""Characters after which the text `echoed_text` reads may differ from what ``echo``,
``printf`` or a heredoc writes (``\\x22``, ``%s``, ``$(..)``)."""
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{1,2}|0?[0-7]{1,3})")


def read_piped_scripts(pieces: tuple[Piece, ...], reparse: Reparse) -> tuple[Piece, ...]:
    """``pieces``, and the pieces of the script a literal ``echo``/``printf`` (or ``cat``
    of a heredoc) feeds a shell (``printf '\x72m -rf ~' | bash``, ``bash <(echo ...)``),
    escapes decoded: the feeding stays asked, and what the script does is judged too."""
    out = list(pieces)
    for index, piece in enumerate(pieces):
        if not piece.feeds_code:
            continue
        text = echoed_text(piece)
        if text and not set(piece.pipes_to) & _SCRIPT_READERS:
            interpreter = next((p for p in piece.pipes_to if is_interpreter(p)), None)
            code = None if interpreter is None else as_inline_code(
                piece._replace(program=interpreter, args=()), text)  # fmt: skip
            if code is not None:
                out.append(code)  # `echo 'import os; ...' | python3`
                if _bare_receiver(pieces[index + 1 : index + 2], interpreter, text):
                    # `echo 'print(3 * 7)' | python3`: judged as that code alone
                    out[index] = piece._replace(pipes_to=(), feeds_code=False)
                    out[index + 1] = pieces[index + 1]._replace(
                        wrappers=(*pieces[index + 1].wrappers, CODE_PASSED)
                    )
            continue
        if text:
            decoded = _ESCAPE.sub(lambda m: chr(int(m.group(1)[1:], 16) if m.group(1)[0] == "x"
                                                else int(m.group(1), 8)), text)  # fmt: skip
            out.extend(p._replace(wrappers=(*piece.wrappers, *p.wrappers)) for p in
                       reparse(decoded))  # fmt: skip
    return tuple(out)


_SCRIPT_READERS = SHELLS | {"at", "batch"}
"""Programs that run the shell script they read (``at`` and ``batch``: later)."""


def read_code_commands(pieces: tuple[Piece, ...], reparse: Reparse,
                       places: Places | None = None) -> tuple[Piece, ...]:  # fmt: skip
    """``pieces``, and the pieces of the commands their inline code spells out in full
    (``python3 -c 'import os; os.system("rm -rf ~")'``), judged too. Python and JavaScript
    are read with their grammars (`codereaders`, `codepieces`): what their calls do to known
    paths is judged as well, and code whose every call is quiet is marked so (not asked,
    never granted). Other languages, and code that does not parse, are read for the
    commands they spell out (`codecalls`); that code stays asked."""
    out = list(pieces)
    for index, piece in enumerate(pieces):
        program = piece.program
        if program is None or piece.opaque is not None:
            continue
        codes = code_texts(program, piece.args)
        reader = code_reader(program)
        if reader is not None and codes:
            readings = [read_once(reader, code) for code in codes] + operand_readings(piece)
            if all(r.parsed for r in readings):  # read with the language's grammar
                acts = [p for reading in readings for p in code_pieces(piece, reading, reparse)]
                out.extend(acts)
                # (Python whose loud statements are literal commands: `pyeffects`)
                quiet = [r.quiet or (is_python(program) and places is not None
                                     and effects_only(reader, code) and _lose_nothing(acts, places))
                         for r, code in zip(readings, codes, strict=False)]  # fmt: skip
                if (
                    all(quiet)
                    and all(r.quiet for r in readings[len(codes) :])
                    and (quietly_run(piece))
                ):
                    # read whole: its words are no paths (a file it reads is a piece above)
                    args = quiet_args(piece, codes)
                    out[index] = piece._replace(args=args, wrappers=(*piece.wrappers, QUIET_CODE))
                else:  # its code names its paths in the pieces above: the text is none
                    out[index] = piece._replace(wrappers=(*piece.wrappers, CODE_READ))
                continue
        for code in codes:
            for command in shell_commands(program, code):
                out.extend(p._replace(wrappers=(*piece.wrappers, program, *p.wrappers))
                           for p in reparse(command))  # fmt: skip
    return tuple(out)


def _lose_nothing(acts: list[Piece], places: Places) -> bool:
    """The pieces of inline code's acts lose no work (a delete of a tool's cache at most):
    a delete or discard by inline code is read by a person, as a computed one is. A write
    (``tee``: `pywrites`) is judged by the loss rules as the shell's ``> FILE`` is."""
    return all(p.program == "tee" or stands(p, places) for p in acts)


def _imported(piece: Piece, written: dict[str, str | None]) -> str | None:
    """A Python file the same command wrote, when ``piece`` runs Python code given on its
    command line or its input (``python3 -c 'import x'``): the code may import it, and so
    run what was written (an import is read as quiet: it runs what ``python -m`` would)."""
    program = piece.program or ""
    if not is_python(program) or not (code_texts(program, piece.args) or "-" in piece.args):
        return None
    return next((path for path in written if path.endswith(".py")), None)


_SETTINGS_OPTIONS = {"claude": "--settings"}
"""The option an agent CLI loads a settings file from (hooks, permissions and all)."""


def _loaded_settings(piece: Piece, places: Places) -> str | None:
    """The settings file an agent CLI ``piece`` loads, resolved (None: none given)."""
    option = _SETTINGS_OPTIONS.get(piece.program or "")
    if option is None or piece.tool != "bash":
        return None
    args = piece.args
    for index, arg in enumerate(args):
        if arg == option and index + 1 < len(args):
            return locate(args[index + 1], piece.cwd, places).path
        if arg.startswith(option + "="):
            return locate(arg[len(option) + 1 :], piece.cwd, places).path
    return None


_SCRIPTED = {"sed": "-e", "gsed": "-e", **dict.fromkeys(AWKS, "--")}
"""Programs given their script in a file with ``-f``: how the same script is given inline
(sed's ``-e``; awk's program, after ``--``)."""


def _script_program(piece: Piece) -> str | None:
    """The file ``sed -f F`` / ``awk -f F`` reads its script from (as written)."""
    if piece.program not in _SCRIPTED:
        return None
    args = piece.args
    return next((args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-f", "--file")), None)


def _inline_script(piece: Piece, text: str) -> str:
    """``sed -f F`` as ``sed -e TEXT``, ``awk -f F`` as ``awk -- TEXT``: the script a
    command wrote, judged as the program reads it (its other words left out)."""
    program = piece.program or "sed"
    return shlex.join((program, _SCRIPTED[program], text))


def _made(path: str | None, built: set[str], written: Mapping[str, object]) -> bool:
    """Whether ``path`` is a program an earlier piece built, or one in the ``bin/`` of an
    environment it made (`venvs`) that no later piece wrote."""
    if path is None:
        return False
    return path in built or (posixpath.dirname(path) in built and path not in written)


_BATCH_SUBMITTERS = frozenset({"sbatch", "qsub", "bsub", "condor_submit"})
_BATCH_SCRIPTS = (".sh", ".bash", ".slurm", ".sbatch", ".pbs", ".qsub", ".lsf", ".job", ".sub")
"""A batch script by its name (the scheduler's options take values, so the first operand
may be one: ``sbatch -p gpu job.slurm``)."""


def _runs(piece: Piece, places: Places) -> str | None:
    """The script file ``piece`` runs, resolved (None: it runs none it is given)."""
    program = piece.program or ""
    if piece.tool != "bash":
        return None
    scripted = _script_program(piece)
    if scripted is not None:  # `sed -f F`, `awk -f F`: F's text is the program
        return locate(scripted, piece.cwd, places).path
    if program in SHELLS and checks_only(program, piece.args):
        return None  # `bash -n F`: F is parsed, not run
    if program in SHELLS or program in ("source", ".") or is_interpreter(program):
        operands = [a for a in piece.args if not a.startswith("-")]
        return locate(operands[0], piece.cwd, places).path if operands else None
    source = source_run(program, piece.args)  # `go run /tmp/x.go`: the file's code
    if source is not None:
        return locate(source, piece.cwd, places).path
    if program == "java" and "-jar" in piece.args[:-1]:  # `java -jar x.jar`: the jar's code
        return locate(piece.args[piece.args.index("-jar") + 1], piece.cwd, places).path
    if program in _BATCH_SUBMITTERS:  # `sbatch job.sh`: a shell runs it on the cluster, later
        batch = [a for a in piece.args if a.endswith(_BATCH_SCRIPTS)]
        return locate(batch[0], piece.cwd, places).path if batch else None
    notebooks = executed_notebooks(program, piece.args)
    if notebooks:  # `jupyter nbconvert --execute x.ipynb`, `papermill x.ipynb out.ipynb`
        return locate(notebooks[0], piece.cwd, places).path
    head = next((w for w in piece.text.split() if w.rstrip(";&|").endswith(program)), None)
    if head is not None and "/" in head:
        return locate(head.strip("'\""), piece.cwd, places).path
    return None
