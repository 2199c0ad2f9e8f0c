"""Package runners read as a person reads them: ``npx [OPTIONS] PACKAGE [ARGS...]``.

``npx``, ``pnpx``, ``bunx``, ``npm exec``/``npm x``, ``pnpm dlx``/``pnpm exec``, ``yarn
dlx``/``yarn exec`` and ``bun x`` fetch (or find) one package and run its program with the
words after it. Only the package (the first operand, or ``-p``/``--package``'s values) is
a source of code; the words after it are that program's arguments: the URL in ``npx
playwright codegen http://localhost:5173`` is the page it opens, not where code comes from.

`mark_runners` marks such a call `RUNNER_ARGS` (the pack's ``install-from-url`` then leaves
its later words alone) and, when the package itself is a URL, a git source or a GitHub
``user/repo``, `FROM_URL` (``install-from-url-runner``).
"""

from __future__ import annotations

from amplifier_hooks.guard.model import Piece

__all__ = ["FROM_URL", "RUNNERS", "RUNNER_ARGS", "from_url", "mark_runners", "runner_split"]

RUNNER_ARGS = "@runner-args"
"""A package runner's call whose package is known: its later words are the program's."""
FROM_URL = "@package-from-url"
"""A package runner told to fetch its package from a URL, a git source or GitHub."""
RUNNERS = frozenset({"npx", "pnpx", "bunx", "npm", "pnpm", "yarn", "bun"})
_VERBS = {"npm": ("exec", "x"), "pnpm": ("dlx", "exec"), "yarn": ("dlx", "exec"), "bun": ("x",)}
"""The subcommand that makes a package manager a runner."""
_PACKAGE = frozenset({"-p", "--package"})
_VALUED = frozenset({"--prefix", "-w", "--workspace", "--registry", "--cache", "--userconfig",
                     "-C", "--dir", "--filter", "-F"})  # fmt: skip
"""Runner options that take the next word as their value."""
_SHELL_LINE = frozenset({"-c", "--call", "--shell-mode"})
_SOURCES = ("http://", "https://", "git+", "git:", "git@", "github:", "gitlab:", "bitbucket:",
            "gist:", "ssh://", "file://")  # fmt: skip


Split = tuple[tuple[str, ...], str, tuple[str, ...]]
"""(the packages a runner fetches, the program it runs, that program's words)."""


def runner_split(program: str, args: tuple[str, ...]) -> Split | None:
    """(the packages the runner fetches, the program it runs, that program's words); None:
    not a runner's call, or one run as a shell line (``npx -c``) or not read here."""
    index = 0
    if program in _VERBS:
        if not args or args[0] not in _VERBS[program]:
            return None
        index = 1
    elif program not in RUNNERS:
        return None
    packages: list[str] = []
    while index < len(args) and args[index].startswith("-"):
        name, equals, value = args[index].partition("=")
        index += 1
        if name == "--":
            break
        if name in _SHELL_LINE:
            return None
        if name in _PACKAGE or name in _VALUED:
            if not equals:
                value = args[index] if index < len(args) else ""
                index += 1
            if name in _PACKAGE:
                packages.append(value)
    if index >= len(args):
        return None
    ran = args[index]
    return tuple(packages or (ran,)), ran, args[index + 1 :]


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
    when its package comes from a URL); the same tuple when none is."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if piece.program not in RUNNERS:
            continue
        split = runner_split(piece.program or "", piece.args)
        if split is None:
            continue
        marks = (RUNNER_ARGS, FROM_URL) if any(from_url(p) for p in split[0]) else (RUNNER_ARGS,)
        out = out or list(pieces)
        out[index] = piece._replace(wrappers=(*piece.wrappers, *marks))
    return pieces if out is None else tuple(out)
