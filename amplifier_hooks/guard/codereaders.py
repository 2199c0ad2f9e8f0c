"""Which grammar reads an interpreter's inline code, and whether the interpreter runs that
code and nothing else it could load.

Python is read with `ast` (`pyreader`), JavaScript with tree-sitter-javascript (`jsreader`)
whether Node, Deno or Bun runs it, Perl with tree-sitter-perl (`perlreader`), Ruby with
tree-sitter-ruby (`rubyreader`), PHP with tree-sitter-php (`phpreader`); of AppleScript
only the statements that show or quit something (`applescript`). Perl's and
Ruby's operands after their code are files they read, and with ``-i`` rewrite
(`lineoptions`).
Quiet code loses the guard's ask only when the command line around it loads no other
code: an option that preloads a module (``node -r x.js``, ``python3 -i``), a variable set
for the interpreter (``NODE_OPTIONS``), or a word the guard does not know keeps it asked.
"""

from __future__ import annotations

from collections.abc import Callable

from amplifier_hooks.guard.applescript import quiet_osascript_options, read_applescript
from amplifier_hooks.guard.codeacts import MAX_ACTS, MAX_CODE, NOT_READ, CodeAct, CodeReading
from amplifier_hooks.guard.codecalls import code_texts
from amplifier_hooks.guard.envs import Kind, kind_of, split
from amplifier_hooks.guard.inline import is_python, quiet_python_options
from amplifier_hooks.guard.jsreader import read_javascript
from amplifier_hooks.guard.lexreader import lex_reader, quiet_lex_options
from amplifier_hooks.guard.lineoptions import read_line
from amplifier_hooks.guard.memo import resolved
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.notebooks import ipython_code
from amplifier_hooks.guard.perlreader import read_perl
from amplifier_hooks.guard.phpreader import read_php
from amplifier_hooks.guard.pyreader import read_python
from amplifier_hooks.guard.rubyreader import read_ruby

__all__ = ["code_reader", "operand_readings", "quiet_args", "quietly_run", "read_once"]

Reader = Callable[[str], CodeReading]


def _javascript(program: str) -> str | None:
    """The JavaScript runtime ``program`` is (``nodejs`` is ``node``), or None."""
    family = program.rstrip("0123456789.")
    family = "node" if family == "nodejs" else family
    return family if family in _SHAPES else None


def code_reader(program: str) -> Reader | None:
    """The reader of ``program``'s inline code; None: a language the guard has no grammar
    for (its code stays asked)."""
    if is_python(program):
        return read_python
    if _is_ipython(program):
        return read_ipython
    if program == "osascript":
        return read_applescript
    family = _line_family(program)
    if family is not None:
        return _LINE_READERS[family]
    lexed = lex_reader(program)
    if lexed is not None:
        return lexed
    return read_javascript if _javascript(program) is not None else None


def _is_ipython(program: str) -> bool:
    return program.rstrip("0123456789.") == "ipython"


def read_ipython(code: str) -> CodeReading:
    """IPython's code (``ipython -c CODE``, a heredoc): its shell lines and cells
    (``!cmd``, ``%%bash``) are commands it runs, judged as such; the rest is Python.
    Quiet only when it is plain Python that is quiet: a shell line, or any other magic
    (``%run x.py``, ``%env``), keeps it asked."""
    if len(code) > MAX_CODE:
        return NOT_READ
    parts = ipython_code(code)
    runs = [CodeAct("run", text) for language, text in parts if language == "shell"]
    readings = [read_python(text) for language, text in parts if language == "python"]
    if not all(r.parsed for r in readings):
        return NOT_READ  # (its shell lines are still read: `codecalls.shell_commands`)
    plain = parts == [("python", "\n".join(code.splitlines()))]
    acts = [*runs, *(a for r in readings for a in r.acts)][:MAX_ACTS]
    quiet = plain and all(r.quiet for r in readings)
    return CodeReading(True, quiet, tuple(acts), any(r.chdir for r in readings))


def read_once(reader: Reader, code: str) -> CodeReading:
    """``reader``'s reading of ``code``, made once per decision (`memo`): a script piped
    to an interpreter or written and run is read when its quietness is asked
    (`earlier`), and again for its acts. Readings are pure on the text, and outside a
    decision nothing is remembered."""
    memo = resolved()
    if memo is None:
        return reader(code)
    key = (_READING, reader, code)
    found: CodeReading | None = memo.get(key)
    if found is None:
        found = memo[key] = reader(code)
    return found


_READING = "code-reading"
"""Tags this module's entries in the decision's memo (paths are remembered there too)."""


def _line_family(program: str) -> str | None:
    """``perl``, ``ruby`` or ``php`` when ``program`` is one (``perl5.36``, ``php8.2``),
    or None."""
    family = program.rstrip("0123456789.")
    return family if family in _LINE_FAMILIES else None


_LINE_READERS: dict[str, Reader] = {"perl": read_perl, "ruby": read_ruby, "php": read_php}
_LINE_FAMILIES = frozenset(_LINE_READERS)


def operand_readings(piece: Piece) -> list[CodeReading]:
    """What a Perl or Ruby piece's operands after its code are to it: files read, and
    with ``-i`` rewritten (none for other interpreters: their operands are the code's)."""
    family = _line_family(piece.program or "")
    if family is None or family == "php":  # PHP's are its `$argv`
        return []
    return [CodeReading(parsed=True, quiet=True, acts=read_line(family, piece.args).acts)]


_NODE_QUIET = frozenset(
    {"--no-warnings", "--no-deprecation", "--trace-warnings", "--trace-deprecation",
     "--enable-source-maps", "--input-type=module", "--input-type=commonjs",
     "--throw-deprecation", "--pending-deprecation"}
)  # fmt: skip
_SHAPES: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {
    # runtime: (words before the code, the flags that give it, other options allowed)
    "node": (frozenset(), frozenset({"-e", "-p", "--eval", "--print", "-pe", "-ep"}),
             _NODE_QUIET),
    "bun": (frozenset(), frozenset({"-e", "-p", "--eval", "--print"}), frozenset({"--silent"})),
    "deno": (frozenset({"eval"}), frozenset({"eval"}),
             frozenset({"-p", "--print", "-q", "--quiet", "--ext=js", "--ext=mjs", "--ext=cjs"})),
}  # fmt: skip
"""How each runtime is given code and nothing else: Deno's ``eval`` is a subcommand whose
options come before its code."""


def quiet_args(piece: Piece, codes: list[str]) -> tuple[str, ...]:
    """The words left to ``piece`` once its code is read whole: none of them is a path.
    Perl's and Ruby's operands are judged as the reads and writes they are
    (`operand_readings`), so none is left; other interpreters keep their options and
    arguments but the code."""
    if _line_family(piece.program or "") in ("perl", "ruby"):
        return ()
    return tuple(a for a in piece.args if a not in codes)


def quiet_javascript_options(runtime: str, args: tuple[str, ...]) -> bool:
    """``args`` give ``runtime`` its code once and no option that loads, preloads or
    reads more code (``node --no-warnings -p CODE``: yes; ``node -r ./x.js -e CODE``,
    ``node -i -e CODE``: no). Words after the code are the program's own arguments."""
    heads, flags, allowed = _SHAPES[runtime]
    rest = list(args)
    if heads:
        if not rest or rest[0] not in heads:
            return False
        rest = rest[1:]
    code_seen = False
    while rest:
        arg = rest.pop(0)
        if arg in flags and not code_seen:
            if not heads:  # `-e CODE`: the next word is the code
                if not rest:
                    return False
                rest.pop(0)
            code_seen = True
        elif arg.partition("=")[0] in flags and "=" in arg and not code_seen:
            code_seen = True  # `--eval=CODE`
        elif arg in allowed:
            continue
        elif arg[:1] == "-":
            return False  # an option the guard does not know may load code
        elif heads and not code_seen:
            code_seen = True  # `deno eval CODE`: the first operand is the code
        elif not code_seen:
            return False  # a script, not inline code
        else:
            return all(a[:1] != "-" for a in rest)  # the program's own arguments
    return code_seen


def quietly_run(piece: Piece) -> bool:
    """``piece`` runs its interpreter's inline code and nothing else it could load: no
    option that reads more code, no variable set for it (``PYTHONPATH``, ``NODE_OPTIONS``)."""
    if piece.doubt is not None or piece.program is None:
        return False
    if piece.env and not all(kind_of(*split(a)) == Kind.SAFE for a in piece.env):
        return False  # (a variable that only changes how Python prints or draws: quiet)
    family = _line_family(piece.program)
    if family is not None:
        return read_line(family, piece.args).quiet
    runtime = _javascript(piece.program)
    if runtime is not None:
        return quiet_javascript_options(runtime, piece.args)
    if piece.program == "osascript":
        return quiet_osascript_options(piece.args)
    if lex_reader(piece.program) is not None:
        codes = code_texts(piece.program, piece.args)
        return bool(codes) and quiet_lex_options(piece.program, piece.args, codes)
    if _is_ipython(piece.program):
        return len(piece.args) == 2 and piece.args[0] == "-c"  # (its profile's options load code)
    return quiet_python_options(piece.args)
