"""Module and bundle sources given as git URIs, fetched into a cache keyed by commit.

Amplifier bundles name their modules and includes as
``git+https://host/org/repo@ref#subdirectory=path``. `fetch_git_source` resolves the ref to
a commit (``git ls-remote``), fetches that one commit into
``<cache>/<repository hash>/<commit>/`` unless it is already there, and returns the
subdirectory's path. A tag, once resolved, is reused without asking the network again; a
branch is re-resolved on each load, and when the network is unreachable the commit it
last resolved to is used (with a warning). A full commit hash never needs the network
once cached. ``git+file://`` works the same way, which is how the tests build sources.

The cache is ``$AMPLIFIER_HOOKS_CACHE_DIR``, else ``$XDG_CACHE_HOME/amplifier-hooks/git``
(``~/.cache`` when unset). ``AMPLIFIER_HOOKS_OFFLINE=1`` never contacts a remote.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from amplifier_hooks.logs import get_logger
from amplifier_hooks.private import make_dirs

logger = get_logger()

CACHE_ENV = "AMPLIFIER_HOOKS_CACHE_DIR"
OFFLINE_ENV = "AMPLIFIER_HOOKS_OFFLINE"
GIT_TIMEOUT = 120.0
"""Seconds one git command may take (a clone of one commit, usually far less)."""

_SCHEMES = ("https", "http", "ssh", "git", "file")
_COMMIT = re.compile(r"[0-9a-f]{40}")
_REF = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/+-]*")


class GitSourceError(Exception):
    """A git source could not be parsed, resolved or fetched; the message says why."""


@dataclass(frozen=True)
class GitSource:
    """A parsed ``git+<url>[@<ref>][#subdirectory=<path>]``."""

    url: str
    ref: str | None
    subdirectory: str | None

    @property
    def key(self) -> str:
        """The cache directory name of the repository."""
        return hashlib.sha256(self.url.encode()).hexdigest()[:20]


def is_git_source(text: str) -> bool:
    """True for ``git+...`` URIs."""
    return text.startswith("git+")


def parse_git_source(text: str) -> GitSource:
    """Split a ``git+`` URI into repository URL, ref and subdirectory (validated)."""
    if not is_git_source(text):
        raise GitSourceError(f"not a git source (expected git+<url>): {text!r}")
    url, _, fragment = text[len("git+") :].partition("#")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (validates the port: a bad one raises here, not in git)
    except ValueError as exc:
        raise GitSourceError(f"malformed URL in {text!r}: {exc}") from None
    if parts.scheme not in _SCHEMES:
        raise GitSourceError(
            f"unsupported git transport {parts.scheme or '(none)'!r} in {text!r} "
            f"(expected one of {', '.join(_SCHEMES)})"
        )
    path, ref = parts.path, None
    if "@" in path:
        path, ref = path.rsplit("@", 1)
        if not _REF.fullmatch(ref) or ".." in ref:
            raise GitSourceError(f"invalid git ref {ref!r} in {text!r}")
    if not path or path == "/":
        raise GitSourceError(f"no repository path in {text!r}")
    repo = parts._replace(path=path, fragment="").geturl()
    subdirectory = None
    for item in filter(None, fragment.split("&")):
        name, _, value = item.partition("=")
        if name != "subdirectory":
            raise GitSourceError(f"unknown fragment {name!r} in {text!r} (expected subdirectory)")
        subdirectory = _safe_subdirectory(unquote(value), text)
    return GitSource(repo, ref, subdirectory)


def _safe_subdirectory(value: str, text: str) -> str:
    path = PurePosixPath(value)
    if not value or path.is_absolute() or ".." in path.parts:
        raise GitSourceError(f"subdirectory must be a relative path in the repository: {text!r}")
    return str(path)


def cache_root() -> Path:
    """Where fetched sources live (see the module docstring)."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "amplifier-hooks" / "git"


def fetch_git_source(text: str, *, root: Path | None = None) -> Path:
    """The local path of ``text``'s subdirectory at its commit, fetched if needed."""
    source = parse_git_source(text)
    base = (root or cache_root()) / source.key
    commit = _resolve_commit(source, base)
    tree = base / commit
    if not tree.is_dir():
        _fetch(source, commit, tree)
    target = tree / source.subdirectory if source.subdirectory else tree
    resolved = target.resolve()
    if not resolved.is_relative_to(tree.resolve()):  # a symlink leading out of the checkout
        raise GitSourceError(f"subdirectory of {text!r} leads outside the repository")
    if not resolved.exists():
        raise GitSourceError(
            f"{text!r}: the repository at {commit[:12]} has no {source.subdirectory!r}"
        )
    return resolved


# -- resolving a ref -----------------------------------------------------------------------


def _resolve_commit(source: GitSource, base: Path) -> str:
    ref = source.ref
    if ref is not None and _COMMIT.fullmatch(ref) and (base / ref).is_dir():
        return ref
    known = _read_refs(base)
    remembered = known.get(ref or "HEAD")
    if (
        remembered is not None
        and remembered.get("kind") == "tag"
        and (base / remembered["commit"]).is_dir()
    ):
        return str(remembered["commit"])  # tags do not move: no need to ask again
    offline = os.environ.get(OFFLINE_ENV, "").strip().lower() in ("1", "true", "yes")
    if not offline:
        try:
            commit, kind = _ls_remote(source)
        except GitSourceError as exc:
            if remembered is None or not (base / remembered["commit"]).is_dir():
                raise
            logger.warning(
                "git source unreachable; using the commit it resolved to last time",
                url=source.url,
                ref=ref,
                commit=remembered["commit"],
                error=str(exc),
            )
            return str(remembered["commit"])
        known[ref or "HEAD"] = {"commit": commit, "kind": kind}
        _write_refs(base, known)
        return commit
    if remembered is not None and (base / remembered["commit"]).is_dir():
        return str(remembered["commit"])
    if ref is not None and _COMMIT.fullmatch(ref):
        raise GitSourceError(f"offline, and commit {ref} of {source.url} is not in the cache")
    raise GitSourceError(f"offline, and {source.url}@{ref or 'HEAD'} was never fetched")


def _ls_remote(source: GitSource) -> tuple[str, str]:
    """(commit, "tag" | "branch" | "commit" | "head") for the source's ref."""
    ref = source.ref
    if ref is not None and _COMMIT.fullmatch(ref):
        return ref, "commit"
    out = _git("ls-remote", source.url, *([ref, f"{ref}^{{}}"] if ref else ["HEAD"]))
    found: dict[str, str] = {}
    for line in out.splitlines():
        commit, _, name = line.partition("\t")
        found[name] = commit
    if ref is None:
        if "HEAD" in found:
            return found["HEAD"], "head"
        raise GitSourceError(f"{source.url} has no HEAD")
    for name in (f"refs/tags/{ref}^{{}}", f"refs/tags/{ref}"):  # a peeled annotated tag first
        if name in found:
            return found[name], "tag"
    for name in (f"refs/heads/{ref}", ref):
        if name in found:
            return found[name], "branch"
    raise GitSourceError(f"{source.url} has no branch or tag {ref!r}")


def _read_refs(base: Path) -> dict[str, dict[str, str]]:
    try:
        data = json.loads((base / "refs.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_refs(base: Path, refs: dict[str, dict[str, str]]) -> None:
    make_dirs(base)
    temporary = base / f".refs.{os.getpid()}.json"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(json.dumps(refs, indent=2, sort_keys=True))
        temporary.replace(base / "refs.json")
    except BaseException:  # a full disk, an interrupt: no half-written file stays behind
        temporary.unlink(missing_ok=True)
        raise


# -- fetching one commit ---------------------------------------------------------------------


def _fetch(source: GitSource, commit: str, tree: Path) -> None:
    make_dirs(tree.parent)
    work = Path(tempfile.mkdtemp(prefix=".fetch-", dir=tree.parent))
    try:
        _git("init", "--quiet", str(work))
        wanted = source.ref if source.ref and not _COMMIT.fullmatch(source.ref) else commit
        _git("-C", str(work), "fetch", "--quiet", "--depth", "1", source.url, wanted)
        _git("-C", str(work), "checkout", "--quiet", "--detach", "FETCH_HEAD")
        got = _git("-C", str(work), "rev-parse", "HEAD").strip()
        if got != commit:
            raise GitSourceError(
                f"{source.url}@{source.ref} moved while fetching (expected {commit[:12]}, "
                f"got {got[:12]}); try again"
            )
        shutil.rmtree(work / ".git")
        try:
            work.rename(tree)  # all or nothing: a half-fetched tree is never used
        except OSError:
            if not tree.is_dir():
                raise
        logger.info("git source fetched", url=source.url, ref=source.ref, commit=commit)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)


def _git(*args: str) -> str:
    env = {
        **os.environ,
        "GIT_TERMINAL_PROMPT": "0",  # never hang on a password prompt
        "GIT_ALLOW_PROTOCOL": "https:http:ssh:git:file",  # no ext:: or other transports
    }
    try:
        done = subprocess.run(
            ["git", *args],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT,
            env=env,
            check=False,
        )
    except FileNotFoundError:
        raise GitSourceError("git is not installed; it is needed for git+ sources") from None
    except subprocess.TimeoutExpired:
        raise GitSourceError(f"git {args[0]} did not finish within {GIT_TIMEOUT:g}s") from None
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise GitSourceError(f"git {_command(args)} failed: {detail[-1] if detail else 'error'}")
    return done.stdout


def _command(args: tuple[str, ...]) -> str:
    shown = [a for a in args if a not in ("--quiet",)]
    if shown and shown[0] == "-C":
        shown = shown[2:]
    return " ".join(shown[:3])
