"""GNU ``parallel``: it runs a command once for each input, through a shell, or each input
as a command when it is given none. The table says which commands it runs, for the parser
to read and judge like any other (``parallel git clean -f ::: .`` runs ``git clean -f .``);
``parallel`` itself is never granted.

The command's words are joined with blanks and given to the shell, as parallel does; an
input takes the place of ``{}``, ``{1}``, ``{.}`` and the other replacement strings (or is
added at the end when there are none), quoted as parallel quotes it. Inputs the guard
cannot see (a pipe, ``::::`` files, ``-a``) are a word known only at run time.
"""

from __future__ import annotations

import itertools
import re
import shlex

from amplifier_hooks.guard.table.acts import Act, Does, Reading
from amplifier_hooks.guard.table.entries import Entry
from amplifier_hooks.guard.table.options import opts, read_options

__all__ = ["PARALLEL"]

_OPTIONS = opts(
    "-S,--sshlogin= --slf,--sshloginfile= -j,--jobs= -P,--max-procs= -a,--arg-file=:unseen "
    "-d,--delimiter= -E,--eof= -I,--replace= -C,--colsep= -n,--max-args= -N= "
    "-L,--max-lines= --joblog= --results,--res= --tmpdir= --workdir,--wd= --timeout= "
    "--delay= --retries= --memfree= --load= --halt,--halt-on-error= --env= "
    "--tag-string,--tagstring= --basefile,--bf= --return= --transferfile,--tf= --sshdelay= "
    "--semaphorename= --id= --block,--block-size= --rpl= --sqlmaster= --sqlworker= "
    "--sqlandworker= --limit= --nice= --ssh= --termseq= -q,--quote:quote",
    permute=False,
)
"""parallel's options that take a value (Getopt::Long with bundling: ``-qj 4``,
``--jobs=4``, ``--jo 4``), and ``-q``. One it does not list is read as taking none: a
value is not the command."""
_SOURCES = frozenset({":::", ":::+", "::::", "::::+"})
_UNSEEN = "$PARALLEL_INPUT"
_REPLACEMENT = re.compile(r"\{(\d*)(?:[./#%]|//|/\.)?\}")
_MAX_RUNS = 16


def _parallel(args: tuple[str, ...]) -> Reading:
    read = read_options(_OPTIONS, args)
    quoted, unseen = read.has("quote"), bool(read.values("unseen"))
    index = len(args) - len(read.operands)
    rest = args[index:]
    cut = next((i for i, w in enumerate(rest) if w in _SOURCES), len(rest))
    command, sources = rest[:cut], _sources(rest[cut:])
    if unseen or not sources:
        sources = [*sources, [_UNSEEN]]  # inputs from a file or from its input
    runs: list[str] = []
    for values in itertools.islice(itertools.product(*sources), _MAX_RUNS):
        if not command:
            runs.extend(values)  # each input is a command
            continue
        runs.append(_filled(command, values, quoted))
    return Reading(tuple(Act(Does.RUN, run) for run in runs))


def _sources(words: tuple[str, ...]) -> list[list[str]]:
    """The input sources after ``:::`` (values) and ``::::`` (files: not seen)."""
    sources: list[list[str]] = []
    for word in words:
        if word in _SOURCES:
            sources.append([] if word.startswith(":::") and len(word.rstrip("+")) == 3 else [""])
        elif sources and sources[-1] != [""]:
            sources[-1].append(word)
    return [[_UNSEEN] if s == [""] or not s else s for s in sources]


def _filled(command: tuple[str, ...], values: tuple[str, ...], quoted: bool) -> str:
    """The command line parallel gives the shell for one input."""

    def value(match: re.Match[str]) -> str:
        number = match.group(1)
        picked = values[int(number) - 1] if number and int(number) <= len(values) else None
        text = picked if picked is not None else " ".join(values)
        return text if text == _UNSEEN else shlex.quote(text)

    words = [shlex.quote(w) if quoted else w for w in command]
    filled = [_REPLACEMENT.sub(value, w) for w in words]
    if filled == words:  # no replacement string: the inputs go at the end
        filled += [v if v == _UNSEEN else shlex.quote(v) for v in values]
    return " ".join(filled)


PARALLEL: dict[str, Entry] = {"parallel": _parallel}
