"""Package runners read as a person reads them: ``npx [OPTIONS] PACKAGE [ARGS...]``.

``npx``, ``pnpx``, ``bunx``, ``npm exec``/``npm x``, ``pnpm dlx``/``pnpm exec``, ``yarn
dlx``/``yarn exec`` and ``bun x`` fetch (or find) one package and run its program with the
words after it. Only the package (the first operand, or ``-p``/``--package``'s values) is
a source of code; the words after it are that program's arguments: the URL in ``npx
playwright codegen http://localhost:5173`` is the page it opens, not where code comes from.

`mark_runners` marks such a call `RUNNER_ARGS` (the pack's ``install-from-url`` then leaves
its later words alone) and, when the package itself is a URL, a git source or a GitHub
``user/repo``, `FROM_URL` (``install-from-url-runner``). A runner that fetches its package
without asking (``npx -y``, ``npm exec --yes``, ``pnpm dlx``, ``yarn dlx``, ``bunx``,
``uvx``, ``pipx run``) a package that is not well known (`typosquats.well_known`) is
marked `UNKNOWN_RUN` (``run-unknown-package``): code nobody here has read runs at once.
``npx -c 'LINE'`` (a shell line run with the packages ``-p`` fetched) is read for those
packages too.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.marking import mark_each
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.typosquats import registry_name, well_known

__all__ = [
    "FROM_URL",
    "RUNNERS",
    "RUNNER_ARGS",
    "UNKNOWN_RUN",
    "from_url",
    "mark_runners",
    "runner_split",
]

RUNNER_ARGS = "@runner-args"
"""A package runner's call whose package is known: its later words are the program's."""
FROM_URL = "@package-from-url"
"""A package runner told to fetch its package from a URL, a git source or GitHub."""
UNKNOWN_RUN = "@unknown-package-run"
"""A runner told to fetch and run, without asking, a package that is not well known."""
RUNNERS = frozenset({"npx", "pnpx", "bunx", "npm", "pnpm", "yarn", "bun", "uvx", "pipx"})
_JS_MANAGERS = frozenset({"npm", "pnpm", "yarn", "bun"})
PIPELINE_RUNNERS = frozenset({"nextflow"})
"""Workflow runners that fetch a pipeline from a forge by its ``user/repo`` and run it
(``nextflow run someuser/fastpipe``): `FROM_URL` as ``npx github:user/repo`` is. nf-core's
pipelines, reviewed by that community, and a local ``main.nf`` are left as they are."""
_PIPELINE = re.compile(r"[\w.-]+/[\w.-]+(?:/[\w.-]+)?")
_NF_VALUED = frozenset({"-r", "-revision", "-profile", "-c", "-config", "-C", "-w", "-work-dir",
                        "-params-file", "-hub", "-user", "-name", "-entry", "-main-script",
                        "-log", "-bucket-dir", "-qs", "-queue-size"})  # fmt: skip
"""Nextflow's options (before its command or the pipeline) that take the next word."""
_VERBS = {"npm": ("exec", "x"), "pnpm": ("dlx", "exec"), "yarn": ("dlx", "exec"), "bun": ("x",)}
"""The subcommand that makes a package manager a runner."""
_PACKAGE = frozenset({"-p", "--package"})
_VALUED = frozenset({"--prefix", "-w", "--workspace", "--registry", "--cache", "--userconfig",
                     "-C", "--dir", "--filter", "-F"})  # fmt: skip
"""Runner options that take the next word as their value."""
_SHELL_LINE = frozenset({"-c", "--call", "--shell-mode"})
_YES = frozenset({"-y", "--yes", "--yes=true"})
_FETCHING = frozenset({"bunx", "pnpx", "dlx"})
"""Runners (and subcommands: pnpm's and yarn's ``dlx``) that fetch a missing package
without asking; ``pnpm exec`` and ``yarn exec`` run the project's own."""
_PY_VALUED = frozenset({"--from", "--with", "-w", "--python", "-p", "--index", "--default-index",
                        "--index-url", "-i", "--extra-index-url", "-f", "--find-links", "-c",
                        "--constraints", "--overrides", "--cache-dir", "--directory",
                        "--project", "--config-file", "--env-file", "--spec", "--pip-args",
                        "--with-requirements", "--with-editable"})  # fmt: skip
"""uvx's and ``pipx run``'s options that take the next word as their value."""
_SOURCES = ("http://", "https://", "git+", "git:", "git@", "github:", "gitlab:", "bitbucket:",
            "gist:", "ssh://", "file://")  # fmt: skip


Split = tuple[tuple[str, ...], str, tuple[str, ...]]
"""(the packages a runner fetches, the program it runs, that program's words)."""


def runner_split(program: str, args: tuple[str, ...]) -> Split | None:
    """(the packages the runner fetches, the program it runs, that program's words); None:
    not a runner's call, or one run as a shell line (``npx -c``) or not read here."""
    read = _read(program, args)
    return None if read is None or read[2] else read[0]


def _read(program: str, args: tuple[str, ...]) -> tuple[Split | None, bool, bool] | None:
    """(the split, whether the runner was told yes, whether it runs a shell line: then
    the split holds only ``-p``'s packages); None: not a runner's call."""
    index = 0
    if program in _VERBS:
        if not args or args[0] not in _VERBS[program]:
            return None
        index = 1
    elif program not in RUNNERS:
        return None
    packages: list[str] = []
    yes = line = False
    while index < len(args) and args[index].startswith("-"):
        name, equals, value = args[index].partition("=")
        index += 1
        if name == "--":
            break
        yes = yes or name in _YES
        if name in _SHELL_LINE:
            line = True
            index += 0 if equals else 1
            continue
        if name in _PACKAGE or name in _VALUED:
            if not equals:
                value = args[index] if index < len(args) else ""
                index += 1
            if name in _PACKAGE:
                packages.append(value)
    if line or index >= len(args):
        return ((tuple(packages), "", ()) if packages else None), yes, line
    ran = args[index]
    return (tuple(packages or (ran,)), ran, args[index + 1 :]), yes, line


def from_url(package: str) -> bool:
    """Whether a runner's ``package`` is fetched from a URL, a git source or GitHub's
    ``user/repo`` (npm's shorthand), not from the registry or a folder here."""
    low = package.lower()
    if low.startswith(_SOURCES) or "://" in low:
        return True
    head = low.split("/", 1)[0]
    return "/" in low and not low.startswith(("@", ".", "/", "~")) and ":" not in head


def mark_runners(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each package runner's call marked `RUNNER_ARGS` (and `FROM_URL`
    when its package comes from a URL, `UNKNOWN_RUN` when it fetches one not well
    known); the same tuple when none is."""
    return mark_each(pieces, RUNNERS | PIPELINE_RUNNERS, _marks_at)


def _marks_at(pieces: tuple[Piece, ...], index: int) -> tuple[str, ...]:
    return _marks(pieces[index].program or "", pieces[index].args)


def _marks(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    if program in PIPELINE_RUNNERS:
        return (FROM_URL,) if _fetched_pipeline(args) else ()
    if program in ("uvx", "pipx"):
        package = _python_package(program, args)
        unknown = package is not None and not from_url(package) and _unknown("pypi", package)
        return (UNKNOWN_RUN,) if unknown else ()
    read = _read(program, args)
    split = None if read is None else read[0]
    if read is None and _runs_script(program, args):
        return (RUNNER_ARGS,)  # `pnpm test-storybook --url http://localhost:6006`
    if read is None or split is None:
        return ()
    yes, line = read[1], read[2]
    remote = any(from_url(p) for p in split[0])
    marks = () if line else (RUNNER_ARGS,)
    if remote:
        return (*marks, FROM_URL)
    verb = (program, args[0])
    fetches = yes or program in _FETCHING or args[0] in _FETCHING or verb == ("bun", "x")
    if fetches and any(_unknown("npm", p) for p in split[0]):
        return (*marks, UNKNOWN_RUN)
    return marks


_SCRIPT_RUNS = frozenset({"run", "run-script"})
_NOT_SCRIPTS = frozenset({"add", "a", "install", "i", "global", "dlx", "x", "exec", "create",
                          "up", "update", "upgrade", "link", "import", "patch", "pm"})  # fmt: skip
"""pnpm's, yarn's and bun's words that are their own commands (any other first word runs
the project's script of that name)."""


def _runs_script(program: str, args: tuple[str, ...]) -> bool:
    """Whether ``program ARGS`` runs a script of the project's package.json (``npm run
    build -- --url X``, ``pnpm test-storybook --url X``): its words after the script's name
    are the script's, no package source."""
    if program not in _JS_MANAGERS or not args or args[0].startswith("-"):
        return False
    return args[0] in _SCRIPT_RUNS or (program != "npm" and args[0] not in _NOT_SCRIPTS)


def _unknown(kind: str, package: str) -> bool:
    """Whether ``package`` (a registry name, maybe with a version) is not well known; a
    folder or an archive here is no registry package."""
    name = registry_name(kind, package)
    return name is not None and not well_known(kind, name)


def _python_package(program: str, args: tuple[str, ...]) -> str | None:
    """The package ``uvx ARGS`` or ``pipx run ARGS`` fetches (``--from``'s or
    ``--spec``'s value, else the first operand); None: not such a call."""
    if program == "pipx":
        if not args or args[0] != "run":
            return None
        args = args[1:]
    index = 0
    while index < len(args) and args[index].startswith("-"):
        name, equals, value = args[index].partition("=")
        index += 1
        if name in _PY_VALUED:
            if not equals:
                value = args[index] if index < len(args) else ""
                index += 1
            if name in ("--from", "--spec"):
                return value
    return args[index] if index < len(args) else None


def _fetched_pipeline(args: tuple[str, ...]) -> bool:
    """``nextflow run someuser/fastpipe -r master`` (or a git URL): the pipeline its
    ``run`` fetches from a forge; a local script or folder (``main.nf``, ``./flows/x``)
    and nf-core's are not."""
    words = [a for i, a in enumerate(args) if not a.startswith("-")
             and (i == 0 or args[i - 1] not in _NF_VALUED)]  # fmt: skip
    if len(words) < 2 or words[0] != "run":
        return False
    pipeline = words[1]
    if "://" in pipeline or pipeline.startswith("git@"):
        return True
    return (
        _PIPELINE.fullmatch(pipeline) is not None
        and not pipeline.endswith(".nf")
        and not pipeline.startswith((".", "nf-core/"))
    )
