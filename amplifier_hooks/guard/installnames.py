"""The packages an install command names, read as each package manager reads its words.

``npm install -w packages/web ./packages/shared`` names one package, a folder: the
``-w`` option takes ``packages/web`` as its value, so that word is no GitHub
``user/repo``. ``pip install -r requirements.txt "pydantic>=2.9"`` names ``pydantic``;
``cargo add serde --features derive`` names ``serde``; ``go get
github.com/x/y@v1`` names the module ``github.com/x/y``. Each name comes with its
registry (`typosquats.ECOSYSTEMS`), so `mark_installs` can mark a name one slip from a
well-known one (`LOOKALIKE`, rule ``package-name-lookalike``) and a GitHub shorthand
(`GITHUB_SHORTHAND`, rule ``install-from-github-shorthand``). Folders, archives, URLs
and git sources are not names: their own rules judge them.
"""

from __future__ import annotations

from amplifier_hooks.guard.marking import mark_each
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.runners import runner_split
from amplifier_hooks.guard.typosquats import lookalike, registry_name

__all__ = ["GITHUB_SHORTHAND", "INSTALLERS", "LOOKALIKE", "install_names", "mark_installs"]

LOOKALIKE = "@package-lookalike"
"""A piece that installs or runs a package whose name is one slip from a well-known one."""
GITHUB_SHORTHAND = "@github-shorthand"
"""A piece that installs npm's ``user/repo`` (a GitHub repository)."""

_JS = frozenset({"npm", "pnpm", "yarn", "bun"})
_PY = frozenset({"pip", "pip3", "uv", "poetry", "pipenv", "pipx", "python", "python3"})
INSTALLERS = _JS | _PY | {"cargo", "gem", "bundle", "go", "npx", "pnpx", "bunx"}
"""The programs whose installs (or runs) `mark_installs` reads."""
_VERBS = {"npm": ("install",), "pnpm": ("add", "install", "i"), "yarn": ("add",),
          "bun": ("add", "install", "i", "a"), "pip": ("install",), "pip3": ("install",),
          "uv": ("add",), "poetry": ("add",), "pipenv": ("install",), "pipx": ("install",),
          "cargo": ("add", "install"), "gem": ("install",), "bundle": ("add",),
          "go": ("get", "install")}  # fmt: skip
"""The subcommand that names packages to install, for each program."""
_VALUED = {
    "js": {"-w", "--workspace", "--prefix", "--registry", "--tag", "--omit", "--include",
           "--cache", "--userconfig", "-C", "--dir", "--filter", "-F", "--save-prefix",
           "--install-strategy", "--before", "--location", "--otp", "--loglevel",
           "--cwd", "--network-concurrency", "--modules-folder", "--config"},
    "pypi": {"-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-i",
             "--index-url", "--extra-index-url", "-f", "--find-links", "--trusted-host",
             "-t", "--target", "--prefix", "--root", "--python-version", "--platform",
             "--implementation", "--abi", "--src", "--upgrade-strategy", "--progress-bar",
             "--log", "--cache-dir", "--python", "-p", "--index", "--default-index",
             "--group", "--extra", "--optional", "-C", "--config-settings", "--only-binary",
             "--no-binary", "--global-option", "--source", "--package", "--directory",
             "--project", "--suffix", "--spec", "--pip-args"},
    "crates": {"-F", "--features", "--branch", "--tag", "--rev", "--registry", "--index",
               "--rename", "-p", "--package", "--version", "--vers", "--root", "--target",
               "--target-dir", "--manifest-path", "--profile", "-j", "--jobs", "--config",
               "-Z", "--bin", "--example"},
    "gems": {"-v", "--version", "-s", "--source", "-i", "--install-dir", "-n", "--bindir",
             "--platform", "-g", "--group", "--require", "--branch", "--ref"},
    "go": {"-C", "-modfile", "-tags", "-ldflags", "-gcflags", "-o", "-p", "-pkgdir"},
}  # fmt: skip
"""Options that take the next word as their value, per kind of package manager."""
_FROM_ELSEWHERE = frozenset({"--git", "--path", "--registry", "--index", "-e", "--editable"})
"""Options that make a name the package of a repository, a folder or another registry."""


def install_names(program: str, args: tuple[str, ...]) -> tuple[str, list[str]] | None:
    """(the registry, the names the call installs) for an install call; None: not one."""
    if program in ("python", "python3"):
        if args[:3] != ("-m", "pip", "install"):
            return None
        program, args = "pip", args[2:]
    if program == "uv" and args[:2] == ("pip", "install"):
        program, args = "pip", args[1:]
    verbs = _VERBS.get(program)
    words = [a for a in args if not a.startswith("-")]
    if verbs is None or not words or words[0] not in verbs:
        return None
    kind = _kind(program)
    operands = _operands(args[args.index(words[0]) + 1 :], _VALUED["js" if kind == "npm" else kind])
    if operands is None:
        return None
    names = [n for n in (registry_name(kind, o) for o in operands) if n]
    return kind, names


def _kind(program: str) -> str:
    if program in _JS:
        return "npm"
    if program in _PY:
        return "pypi"
    return {"cargo": "crates", "gem": "gems", "bundle": "gems"}.get(program, "go")


def _operands(args: tuple[str, ...], valued: set[str]) -> list[str] | None:
    """The call's operands, options and their values left out; None: the names come
    from a repository, a folder or another registry (``cargo install --git URL NAME``)."""
    out: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word == "--":
            out.extend(args[index:])
            break
        name, equals, _ = word.partition("=")
        if name in _FROM_ELSEWHERE:
            return None
        if word.startswith("-"):
            index += 1 if name in valued and not equals else 0
            continue
        out.append(word)
    return out


def _github_shorthand(program: str, args: tuple[str, ...]) -> bool:
    """Whether an npm-like install names npm's ``user/repo`` (GitHub)."""
    verbs = _VERBS.get(program, ())
    words = [a for a in args if not a.startswith("-")]
    if program not in _JS or not words or words[0] not in verbs:
        return False
    operands = _operands(args[args.index(words[0]) + 1 :], _VALUED["js"]) or []
    return any(_shorthand(o) for o in operands)


def _shorthand(operand: str) -> bool:
    """``user/repo`` (``#ref`` after it): npm reads it as a GitHub repository."""
    if operand.startswith(("@", ".", "/", "~", "-", "$")) or "://" in operand:
        return False
    head, slash, _ = operand.partition("/")
    return bool(slash) and ":" not in head and not operand.endswith((".tgz", ".tar.gz", ".tar"))


def mark_installs(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each install (or package runner's call) of a lookalike name marked
    `LOOKALIKE`, and each npm-like install of ``user/repo`` `GITHUB_SHORTHAND` (the same
    tuple when none is)."""
    return mark_each(pieces, INSTALLERS, _marks_at)


def _marks_at(pieces: tuple[Piece, ...], index: int) -> tuple[str, ...]:
    return _marks(pieces[index].program or "", pieces[index].args)


_OWN_BINS = frozenset({"pnpm", "yarn"})
"""``pnpm exec`` and ``yarn exec`` run a program the project has installed: they fetch
nothing, so the name is no lookalike's (``pnpm exec svelte-kit sync``)."""


def _marks(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    if program in _OWN_BINS and args[:1] == ("exec",):
        return ()
    found = install_names(program, args)
    if found is None:
        split = runner_split(program, args)
        names = [n for n in (registry_name("npm", p) for p in split[0]) if n] if split else []
        found = ("npm", names)
    kind, names = found
    marks = (LOOKALIKE,) if any(lookalike(kind, n) for n in names) else ()
    return (*marks, GITHUB_SHORTHAND) if _github_shorthand(program, args) else marks
