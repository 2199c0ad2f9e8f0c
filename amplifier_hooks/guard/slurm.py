"""Whose jobs a slurm ``scancel`` cancels, and the command ``sbatch --wrap`` runs.

``scancel JOBID`` cancels the jobs named; its filters (``-u USER``, ``-A ACCOUNT``,
``-p PARTITION``, ``-w NODES``, ``-n NAME``, ``-t STATE``, ...) without job ids cancel
every job they match, anyone's unless ``-u`` names the person (``$USER``, ``--me``). On a
shared cluster other people's jobs are days of their compute: a cancel that reaches past
the person's own is marked `SLURM_OTHERS` (`slurm-cancel-others`, denied), one of all the
person's own jobs `SLURM_ALL_OWN` (asked); ``squeue ... | xargs scancel`` cancels what the
``squeue`` lists, read the same way.

``sbatch --wrap CMD`` runs CMD later, in a batch job on the cluster's nodes (which share
its file systems): CMD's pieces are judged as a command of their own, never granted.
"""

from __future__ import annotations

from collections.abc import Callable

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table.options import Read, opts, read_options

__all__ = ["SBATCH_RUNS", "SLURM_ALL_OWN", "SLURM_OTHERS", "mark_slurm", "with_wrapped_jobs"]

SLURM_OTHERS = "@slurm-others"
SLURM_ALL_OWN = "@slurm-all-own"
SBATCH_RUNS = "sbatch runs it later, in a batch job on the cluster"
_OWN = frozenset({"$USER", "${USER}", "$LOGNAME", "${LOGNAME}", "$(whoami)", "`whoami`",
                  "$(id -un)", "$(id -nu)", "$(id -u -n)"})  # fmt: skip
"""The words that name the person running the command."""

_FILTERS = ("-A,--account=:filter -M,--clusters=:filter -n,--name=:filter "
            "--jobname=:filter -p,--partition=:filter -q,--qos=:filter "
            "-R,--reservation=:filter -t,--state=:filter -w,--nodelist=:filter "
            "--wckey=:filter --sibling=:filter")  # fmt: skip
_SCANCEL = opts(
    f"-u,--user=:user --me:me {_FILTERS} -b,--batch -c,--cron -f,--full -H,--hurry "
    "-i,--interactive -Q,--quiet -s,--signal= -v,--verbose -V,--version -h,--help --usage"
)
_SQUEUE = opts(
    f"-u,--user=:user --me:me {_FILTERS} -j,--jobs=:jobs -h,--noheader -o,--format= "
    "-O,--Format= -l,--long -a,--all -r,--array -S,--sort= -i,--iterate= -v,--verbose "
    "--start -L,--licenses= --json --yaml -s,--steps=?"
)


def mark_slurm(pieces: tuple[Piece, ...], user: str) -> tuple[Piece, ...]:
    """``pieces`` with each ``scancel`` that cancels others' jobs, or all the person's
    own, marked (module doc); ``user`` is the person's name (their home folder's)."""
    own = _OWN | {user}
    out = list(pieces)
    for index, piece in enumerate(pieces):
        if piece.program != "scancel" or piece.tool != "bash":
            continue
        mark = _scope(read_options(_SCANCEL, piece.args), "xargs" in piece.wrappers, own)
        if "xargs" in piece.wrappers and mark is None:
            mark = _listed_by(pieces[:index], own)
        if mark is not None:
            out[index] = piece._replace(wrappers=(*piece.wrappers, mark))
    return tuple(out)


def _scope(read: Read, fed: bool, own_names: frozenset[str]) -> str | None:
    """The mark of a cancel read as ``read``: None when it names its jobs."""
    users = [u for value in read.values("user") for u in value.split(",") if u]
    if users and not own_names.issuperset(users):
        return SLURM_OTHERS
    own = bool(users) or read.has("me")
    if any(g.opt.does == "filter" for g in read.given) and not own:
        return SLURM_OTHERS
    if read.operands or fed:
        return None  # the jobs named (by the person, or by the command that feeds xargs)
    return SLURM_ALL_OWN if own else None


def _listed_by(before: tuple[Piece, ...], own: frozenset[str]) -> str:
    """The mark of ``xargs scancel`` fed by the ``squeue`` before it: others' jobs unless
    the listing is the person's own (or its jobs are named); all own jobs otherwise."""
    for piece in reversed(before):
        if piece.program == "squeue" and piece.pipes_to:
            read = read_options(_SQUEUE, piece.args)
            users = [u for value in read.values("user") for u in value.split(",") if u]
            if read.values("jobs"):
                return SLURM_ALL_OWN
            if (users and own.issuperset(users)) or read.has("me"):
                return SLURM_ALL_OWN
            return SLURM_OTHERS
    return SLURM_ALL_OWN


Reparse = Callable[[str], tuple[Piece, ...]]
_SBATCH_WRAP = ("--wrap", "--wrap=")


def with_wrapped_jobs(pieces: tuple[Piece, ...], reparse: Reparse) -> tuple[Piece, ...]:
    """``pieces`` with the command of each ``sbatch --wrap CMD`` read as pieces of its own
    after it, marked as run by sbatch and never granted."""
    out: list[Piece] = []
    for piece in pieces:
        out.append(piece)
        if piece.program != "sbatch":
            continue
        for command in _wrapped(piece.args):
            out.extend(p._replace(wrappers=("sbatch", *p.wrappers), doubt=p.doubt or SBATCH_RUNS)
                       for p in reparse(command))  # fmt: skip
    return tuple(out)


def _wrapped(args: tuple[str, ...]) -> list[str]:
    found: list[str] = []
    for index, arg in enumerate(args):
        if arg == _SBATCH_WRAP[0] and index + 1 < len(args):
            found.append(args[index + 1])
        elif arg.startswith(_SBATCH_WRAP[1]):
            found.append(arg[len(_SBATCH_WRAP[1]) :])
    return found
