"""Commands that destroy a whole environment or store of data outside this machine with
no safety net left, read against `wipetable` and marked for the pack's deny
(``cloud-wipe-unconfirmed``).

The CLI's options are read as it reads them: a value given with ``=`` or as the next word
(``-n production delete``), ``--`` ending the options, a false value switching an option
off (``--all=false``, ``-auto-approve=false``, ``--dry-run=none``), Go's flags with one
dash or two (terraform), command words spelled with colons (``heroku apps:destroy``),
release-track words skipped (``gcloud beta``), and settings in the environment that the
CLI reads as options (``TF_CLI_ARGS``, ``PULUMI_SKIP_CONFIRMATIONS``,
``CLOUDSDK_CORE_DISABLE_PROMPTS``). A CLI run through a package runner (``npx cdk``,
``pnpm exec serverless``) is read as the CLI. A dry run or ``--help`` gets no mark.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.runners import RUNNERS, runner_split
from amplifier_hooks.guard.wipetable import CLIS, PROTECTION_OFF, Cli, Wipe

__all__ = ["PROGRAMS", "WIPE", "empty_made", "mark_wipes", "wipes"]

WIPE = "@cloud-wipe"
"""The mark of a command that destroys wholesale with no net left."""
PROGRAMS = frozenset(CLIS) | RUNNERS
"""Every program `mark_wipes` reads (a runner for the CLI it runs)."""

_FALSY = frozenset({"false", "0", "no", "off", "none"})
_TRUTHY = frozenset({"true", "1", "yes", "on"})
_PREVIEW = frozenset({"--dry-run", "--dryrun", "-dry-run", "--help", "-help"})
_ENV_OPTIONS = {"PULUMI_SKIP_CONFIRMATIONS": "--yes", "CLOUDSDK_CORE_DISABLE_PROMPTS": "--quiet",
                "TERRAGRUNT_NON_INTERACTIVE": "-non-interactive",
                "TG_NON_INTERACTIVE": "-non-interactive"}  # fmt: skip
"""Settings read as an option when true (each CLI reads only its own)."""
_PACKAGES = {"aws-cdk": "cdk", "cdktf-cli": "cdktf", "netlify-cli": "netlify",
             "firebase-tools": "firebase", "@render-oss/cli": "render"}  # fmt: skip
"""The packages a runner fetches the CLIs from, where the name differs."""
_COLONS = re.compile(r"^[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)+$")
_CLUSTER = re.compile(r"^-[a-zA-Z]{2,}$")
_BUCKET_ROOT = re.compile(r"^(?:(?:s3|gs|s3a|r2)://|ss:///)[^/]+/?(?:\*\*?)?$", re.I)
"""A bucket as a whole: ``s3://b``, ``s3://b/``, ``gs://b/*``, ``gs://b/**``, and
supabase's ``ss:///b``."""
_REMOTE_ROOT = re.compile(r"^[\w.-]{2,}:/?$")
"""An rclone remote's root: ``gdrive:``, ``onedrive:/``."""


def mark_wipes(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each wholesale destroy marked (`WIPE`); the same tuple when none is."""
    protection_off = any(PROTECTION_OFF.intersection(p.args) for p in pieces)
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if piece.program not in PROGRAMS:
            continue
        made = empty_made(pieces, index)
        piped = _piped_answers(pieces, piece.program or "")
        if wipes(piece.program or "", piece.args, piece.env, protection_off=protection_off,
                 made=made, piped=piped):  # fmt: skip
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, WIPE))
    return pieces if out is None else tuple(out)


def wipes(program: str, args: tuple[str, ...], env: tuple[str, ...] = (), *,
          protection_off: bool = False, made: frozenset[str] = frozenset(),
          piped: frozenset[str] = frozenset()) -> bool:  # fmt: skip
    """Whether ``program args`` (run with ``env``) destroys the whole of something outside
    this machine with no question or copy left (``protection_off``: the same command
    switches a database's deletion protection off; ``made``: the empty folders it makes;
    ``piped``: the words piped into the program)."""
    if program in RUNNERS:
        program, args = _ran(program, args)
    cli = CLIS.get(program)
    if cli is None:
        return False
    words, given = _read(cli, (*args, *_env_args(program, env)))
    answered = bool(cli.answer) and cli.answer in piped
    if given.intersection(_PREVIEW | cli.preview):
        return False
    while words and words[0].lower() in cli.skip:
        words = words[1:]
    for path, row in cli.rows.items():
        for wipe in (row,) if isinstance(row, Wipe) else row:
            if _starts(path, words, wipe) and _holds(
                wipe if not answered else wipe._replace(off=None), given, words[len(path) :],
                protection_off=protection_off, made=made,
            ):  # fmt: skip
                return True
    return False


def _piped_answers(pieces: tuple[Piece, ...], program: str) -> frozenset[str]:
    """The first line each ``yes``, ``echo`` or ``printf`` piping into ``program`` writes,
    lowered (``yes`` alone writes ``y``)."""
    out: set[str] = set()
    for piece in pieces:
        if program not in piece.pipes_to:
            continue
        if piece.program == "yes":
            out.add(piece.args[0].lower() if piece.args else "y")
        elif piece.program in ("echo", "printf") and piece.args:
            words = [a for a in piece.args if not a.startswith("-")] or [""]
            text = " ".join(words).replace("\\n", "\n").split("\n")[0]
            out.add(text.strip().lower())
    return frozenset(out)


def empty_made(pieces: tuple[Piece, ...], index: int) -> frozenset[str]:
    """The folders ``mkdir`` makes in the command that no other piece than the one at
    ``index`` names (in its words or its redirections): nothing put anything in them."""
    made = {
        arg.rstrip("/")
        for piece in pieces[:index]
        if piece.program == "mkdir"
        for arg in piece.args
        if not arg.startswith("-")
    }
    for other, piece in enumerate(pieces):
        if other != index and piece.program != "mkdir" and made:
            named = (*piece.args, *piece.writes, *piece.env)
            made = {folder for folder in made if not any(folder in word for word in named)}
    return frozenset(made)


def _ran(runner: str, args: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The CLI a package runner runs and its words (`runners.runner_split`; pnpm and yarn
    also run a project's program by its name: ``yarn cdk destroy``); the runner itself
    when it runs none (``npm unpublish``)."""
    split = runner_split(runner, args)
    if split is not None:
        name, rest = split[1], split[2]
    elif runner in ("pnpm", "yarn") and args and args[0] in CLIS:
        name, rest = args[0], args[1:]
    else:
        return runner, args
    name = name[: name.index("@", 1)] if "@" in name[1:] else name  # aws-cdk@2
    return _PACKAGES.get(name, name), rest[1:] if rest[:1] == ("--",) else rest


def _env_args(program: str, env: tuple[str, ...]) -> list[str]:
    """The options ``env`` gives ``program``: terraform's ``TF_CLI_ARGS`` and
    ``TF_CLI_ARGS_<command>`` words, and the settings of `_ENV_OPTIONS` that are true."""
    out: list[str] = []
    for pair in env:
        name, _, value = pair.partition("=")
        if name.startswith("TF_CLI_ARGS") and program in ("terraform", "tofu"):
            out.extend(word for word in value.split() if word.startswith("-"))
        elif name in _ENV_OPTIONS and value.strip().lower() in _TRUTHY:
            out.append(_ENV_OPTIONS[name])
    return out


def _read(cli: Cli, args: tuple[str, ...]) -> tuple[list[str], set[str]]:
    """The command's words (command words then operands) and the options given, each by
    name (when not switched off by a false value) and as ``name=value`` (lowered)."""
    words: list[str] = []
    given: set[str] = set()
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            words.extend(args[index:])
            break
        if not arg.startswith("-") or arg == "-":
            parts = arg.split(":") if cli.colons and _COLONS.match(arg) else [arg]
            words.extend(parts)
            continue
        if cli.clusters and _CLUSTER.match(arg):
            given.update(f"-{letter}" for letter in arg[1:-1])
            arg = f"-{arg[-1]}"  # the last may take the next word as its value
        name, equals, value = arg.partition("=")
        if cli.go and name.startswith("--"):
            name = name[1:]
        if not equals and name in cli.valued and index < len(args):
            value, equals = args[index], "="
            index += 1
        if equals:
            given.add(f"{name}={value.lower()}")
            if value.lower() in _FALSY:
                continue
        given.add(name)
    return words, given


def _starts(path: tuple[str, ...], words: list[str], wipe: Wipe) -> bool:
    """Whether ``words`` start with ``path`` (``*``: a word naming one of ``wipe.kinds``,
    as kubectl names kinds: ``ns``, ``deploy,namespace``, ``namespace/prod``)."""
    if len(words) < len(path):
        return False
    for want, word in zip(path, words, strict=False):
        low = word.lower()
        if want == "*":
            if not wipe.kinds.intersection(p.split("/")[0] for p in low.split(",")):
                return False
        elif want != low:
            return False
    return True


def _holds(wipe: Wipe, given: set[str], operands: list[str], *, protection_off: bool,
           made: frozenset[str]) -> bool:  # fmt: skip
    """Whether the row's conditions hold for the options ``given`` and the ``operands``."""
    if wipe.off is not None and given.isdisjoint(wipe.off):
        return False  # the tool still asks its own question
    if not given.isdisjoint(wipe.narrow):
        return False
    if wipe.empty and not (len(operands) >= 2 and operands[0].rstrip("/") in made):
        return False
    every = False
    if wipe.root:
        seen = operands[-1:] if wipe.root == "last" else operands
        roots = [op for op in seen if _BUCKET_ROOT.match(op) or _REMOTE_ROOT.match(op)]
        if not roots:
            return False
        every = any(op.endswith("/**") for op in roots)
    waived = every or (wipe.guarded and protection_off)
    if wipe.needs and given.isdisjoint(wipe.needs) and not waived:
        return False
    return not wipe.whole or any(_whole_package(op) for op in operands)


def _whole_package(spec: str) -> bool:
    """A package named without a version (``@acme/ui``, ``left-pad``), not a path."""
    if spec.startswith((".", "/", "~")) or "://" in spec or spec.endswith(".tgz"):
        return False
    return "@" not in spec[1:] or spec.endswith("@*")
