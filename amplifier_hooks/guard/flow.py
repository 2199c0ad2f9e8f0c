"""What feeds what: each simple command told where its output flows, and whether it is
run as code there (``curl .. | sh``, ``bash <(curl ..)``, through ``tee`` and ``cat``)."""

from __future__ import annotations

from amplifier_hooks.guard.listers import lists_project_paths
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.programs import SHELLS, is_interpreter, shell_reads_input
from amplifier_hooks.guard.shellinit import prints_setup
from amplifier_hooks.guard.table.text import SEARCHES, searched
from amplifier_hooks.guard.xargspaste import PASTES

__all__ = ["CARRIERS", "NOWHERE", "assemble"]


def assemble(commands: list[tuple[int, list[Piece], int | None]],
             functions: set[str]) -> tuple[Piece, ...]:  # fmt: skip
    """The pieces of the simple commands found, in order, each told where its output
    flows (``commands``: id, the pieces the command runs, id of the command its output
    feeds)."""
    by_node = {node_id: pieces for node_id, pieces, _ in commands}
    sinks = {node_id: sink for node_id, _, sink in commands}
    result: list[Piece] = []
    for node_id, _, sink in commands:
        pieces = by_node[node_id]
        target = by_node.get(sink) if sink is not None else None
        listed = bool(target) and _listed_to_xargs(target or [], pieces)
        if listed and target and sink is not None:  # its script judges it (`xargspaste`)
            target = by_node[sink] = [p for p in target if not (p.opaque or "").startswith(PASTES)]
        if target:
            flows = _flows_to(sink, by_node, sinks)
            feeds = (_feeds_code(sink, by_node, sinks) and not _setup_for(target, pieces)
                     and not listed)  # fmt: skip
            pieces = [p._replace(pipes_to=(*p.pipes_to, *flows),
                                 feeds_code=p.feeds_code or feeds) for p in pieces]  # fmt: skip
        result.extend(pieces)
    if functions:
        result = [p._replace(function=p.program in functions) for p in result]
    return tuple(result)


def _listed_to_xargs(target: list[Piece], pieces: list[Piece]) -> bool:
    """Whether project paths (`listers`) flow into ``xargs`` running a program that is
    not itself reading them as a script (``| xargs sh``): each path is an argument."""
    head = target[0]
    if head.wrappers[-1:] != ("xargs",) or not lists_project_paths(pieces):
        return False
    return head.program not in SHELLS or (head.opaque or "").startswith(PASTES)


def _setup_for(target: list[Piece], pieces: list[Piece]) -> bool:
    """Whether output flows into an ``eval``/``source`` of a setup printer's code
    (`shellinit`) from that printer: the code is the printer's own."""
    head = target[0]
    if head.program not in ("eval", "source", ".") or len(pieces) != 1:
        return False
    piece = pieces[0]
    if piece.program is None or piece.dynamic or piece.opaque is not None or piece.env:
        return False
    if head.program == "eval" and head.doubt is None:
        return False
    return prints_setup((piece.program, *piece.args)) is not None


CARRIERS = frozenset(
    {"tee", "cat", "tac", "head", "tail", "dd", "buffer", "pv", "stdbuf", "base64", "base32",
     "basenc", "xxd", "od", "hexdump", "tr", "rev", "fold", "fmt", "cut", "sed", "sort",
     "uniq", "nl", "paste", "column", "expand", "unexpand", "iconv", "gzip", "xz", "bzip2",
     "zstd", "grep", "egrep", "fgrep", "rg", "jq", "yq", "awk", "gawk", "mawk"}
)  # fmt: skip
"""Programs whose output carries what flows into them, whole, cut or encoded: a secret
piped through ``head`` or ``base64`` still reaches the model or the network after them."""
NOWHERE = "nowhere"


def _flows_to(sink: int | None, by_node: dict[int, list[Piece]],
              sinks: dict[int, int | None]) -> tuple[str, ...]:  # fmt: skip
    """The programs output flowing into ``sink`` reaches: the command there, and on through
    programs that carry it (`CARRIERS`); ``nowhere`` when the last of those prints it for
    the model (its output goes into no command and no file)."""
    flows: list[str] = []
    at: int | None = sink
    for _ in range(len(sinks) + 1):
        target = by_node.get(at) if at is not None else None
        if not target or target[0].program is None:
            break
        head = target[0]
        flows.append(head.program or "")
        if head.program not in CARRIERS or _prints_no_line(head):
            break
        at = sinks.get(at) if at is not None else None
        if at is None:
            if not head.writes:
                flows.append(NOWHERE)
            break
    return tuple(flows)


def _prints_no_line(search: Piece) -> bool:
    """A search told, as it reads its options, to print no line of its input (``-q``,
    ``-c``, ``-l``: the table's ``silent``)."""
    program = search.program or ""
    return program in SEARCHES and searched(program, search.args)[1].has("silent")


_PASS_THROUGH = frozenset({"tee", "cat", "head", "tail", "dd", "buffer", "pv", "stdbuf"})
"""Programs whose input flows on to their output: ``curl .. | tee f | sh`` still runs
what curl fetched."""


def _feeds_code(sink: int | None, by_node: dict[int, list[Piece]],
                sinks: dict[int, int | None]) -> bool:  # fmt: skip
    """Whether output flowing into ``sink`` is run as code, through pass-through programs."""
    for _ in range(len(sinks) + 1):
        target = by_node.get(sink) if sink is not None else None
        if not target or target[0].program is None:
            return False
        head = target[0]
        if _runs_input(head):
            return True
        if head.program not in _PASS_THROUGH:
            return False
        sink = sinks.get(sink) if sink is not None else None
    return False


_AT_NOT_INPUT = frozenset("flrdcV")
"""``at``'s options after which it reads no job from its input (a file, a listing)."""


def _runs_input(piece: Piece) -> bool:
    """Whether a command runs what flows into it as code: a shell or interpreter with no
    script of its own (``| sh``, ``| python3 -``), or one given it as an argument
    (``bash <(curl ..)``, ``python -c "$(curl ..)"``), or ``eval``/``source``, or ``at``."""
    program = piece.program or ""
    if program in ("eval", "source", "."):
        return True
    if program in ("at", "batch"):  # a job's script, from input unless -f names a file
        return not any(a[:1] == "-" and not _AT_NOT_INPUT.isdisjoint(a[1:]) for a in piece.args)
    if program == "java":  # `java -jar <(curl ..)`: the fetched jar runs
        at = piece.args.index("-jar") if "-jar" in piece.args else -1
        jar = piece.args[at + 1 : at + 2]
        return at >= 0 and (piece.dynamic or jar in (("-",), ("/dev/stdin",)))
    if program in _CODE_COMMANDS:  # `wp eval "$(curl ..)"`, `wp eval-file -`
        runs = piece.args[:1] and piece.args[0] in _CODE_COMMANDS[program]
        return bool(runs) and (piece.dynamic or "-" in piece.args[1:])
    if not is_interpreter(program):
        return False
    if program in ("deno", "bun") and piece.args[:1] == ("run",):  # `deno run -A -`
        script = [a for a in piece.args[1:] if a == "-" or not a.startswith("-")][:1]
        return script in (["-"], ["/dev/stdin"]) or (not script and program == "deno")
    if program in SHELLS and not piece.dynamic:  # `| bash -s -- ARGS`: its input, with arguments
        return shell_reads_input(piece.args) or piece.args[:1] == ("/dev/stdin",)
    if _filters_lines(piece) or not _CHECKS_ONLY.isdisjoint(f"{program} {a}" for a in piece.args):
        return False
    operands = [a for a in piece.args if not a.startswith("-")]
    return not operands or operands[0] in ("-", "/dev/stdin") or piece.dynamic


_CODE_COMMANDS = {
    "wp": frozenset({"eval", "eval-file", "shell"}),
    "drush": frozenset({"php:eval", "php-eval", "ev", "php:script", "php-script", "scr"}),
    "rails": frozenset({"runner", "r"}),
}
"""Commands of a framework's CLI that run the code they are given (WP-CLI's PHP, Drush's,
a Rails runner's Ruby), in the application with its database and secrets."""
_CHECKS_ONLY = frozenset({"php -l", "php --syntax-check", "ruby -c", "node --check", "node -c"})
"""An interpreter told to check its input's syntax and run none of it (``xargs php -l``
lints the files named; not ``perl -c``, which runs ``BEGIN`` blocks)."""
_LINE_LOOPS = frozenset({"perl", "ruby"})
_COMPUTED_CODE = ("$(", "`", "<(")


def _filters_lines(piece: Piece) -> bool:
    """``perl -pi -e 's/a/b/' $(git ls-files)``, ``cmd | perl -ne 'print if /x/'``: with
    ``-p``/``-n``/``-i`` and literal ``-e`` code, what flows in is lines of data (files
    named, or input) that code loops over, not code; the code itself is read as code
    (`perlreader`). A computed ``-e`` (``-e "$(curl ..)"``) is not literal."""
    if (piece.program or "").rstrip("0123456789.") not in _LINE_LOOPS:
        return False
    letters = "".join(a[1:] for a in piece.args if a[:1] == "-" and a[1:2] != "-")
    if not set(letters) & set("pni") or "e" not in letters:
        return False
    for index, word in enumerate(piece.args[:-1]):
        if word[:1] == "-" and word[1:2] != "-" and word.endswith("e"):
            code = piece.args[index + 1]
            return not any(mark in code for mark in _COMPUTED_CODE) and code[:1] != "$"
    return False
