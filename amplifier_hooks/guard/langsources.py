"""Where the other ecosystems' dependency files fetch code from: a git repository, a fork,
another registry or mirror, written into the file that names the project's dependencies.

Each build tool fetches a dependency named so at its next build and runs its code (a
Haskell package's ``Setup.hs``, an Elixir dependency's ``mix.exs``, a Swift package's
manifest and plugins, a crate's ``build.rs``) as the project's own: a source outside the
ecosystem's registry is one a person should confirm (`supplytexts.SOURCE_CHANGE`, asked).
Read from the text a write or an edit puts into the file, by the file's name:
``cabal.project``'s ``source-repository-package`` or ``repository``; ``stack.yaml``'s
``extra-deps`` from ``git:``, ``github:`` or a ``url:``; ``Package.swift``'s package on a
``branch:`` or ``revision:``, or one an edit moves to another owner or host (a fork);
``mix.exs``'s ``git:``, ``github:`` or another ``repo:``; ``rebar.config``'s ``{git, ...}``;
``pubspec.yaml``'s ``git:`` or ``hosted:``; ``go.mod``'s and ``go.work``'s ``replace`` by
another module (not a local folder, not the same module at another version);
``composer.json``'s ``repositories``; ``pom.xml``'s ``<repository>``; an ``.sbt`` file's
``resolvers``; ``deps.edn``'s ``:git/url`` or ``:mvn/repos``; ``flake.nix``'s input an edit
moves to another owner or host; ``DESCRIPTION``'s ``Remotes:``; ``build.zig.zon``'s
``.url``; ``Project.toml``'s ``[sources]``; an ``.opam`` file's ``pin-depends``;
``.cargo/config.toml``'s source replacement or registries.

A local folder built into the project from outside it counts too (`_LOCAL_PATHS`: a
``replace`` to ``/tmp/x`` or ``../../x``, a ``path:``/``file:`` dependency in the home or
a temporary folder); one of the project's own, or a neighbouring checkout (``../lib``),
does not.

Everyday edits (a dependency added from the registry, a version bumped) carry no mark.
The formats are not grammars the guard has: keys are found by their shapes, and each of
these files is never granted either way (`laterfiles`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

__all__ = ["lang_source_changed"]

_CABAL = re.compile(
    r"^\s*(?:source-repository-package\b|repository\s+\S|location\s*:)"
    r"|^(?!\s*--).*?https?://",  # (`packages: https://x/y-1.0.tar.gz`: a package's tarball)
    re.M,
)
_STACK = re.compile(r"^\s*-?\s*(?:git|github|url|location|archive)\s*:|^\s*-\s*https?://", re.M)
_SWIFT_MOVING = re.compile(r"\.package\s*\([^)]*\b(?:branch|revision)\s*:", re.S)
_MIX = re.compile(
    r"\b(?:git|github)\s*:\s*(?:\"|~[A-Za-z])|\brepo\s*:\s*(?:\"(?!hexpm\")|~[A-Za-z])"
    r"|\{\s*:(?:git|github|repo)\s*,"  # (a sigil, `~s(..)`; a tuple, `{:git, ".."}`)
)
_REBAR = re.compile(r"\{\s*(?:git|hg|git_subdir)\s*,\s*\"")
_PUBSPEC = re.compile(r"^\s*(?:git|hosted)\s*:|^\s*url\s*:\s*\S", re.M)
_GO_REPLACE = re.compile(r"^\s*(?:replace\s+)?\(?\s*(\S+)(?:\s+v\S+)?\s*=>\s*(\S+)", re.M)
_COMPOSER = re.compile(r"\"repositories\"\s*:|\"type\"\s*:\s*\"(?:vcs|git|github|package)\"")
_POM = re.compile(r"<(?:\w+:)?(?:plugin)?[Rr]epository[\s>]")
_SBT = re.compile(r"[Rr]esolvers\s*(?:\+\+?=|:=)")  # (`externalResolvers :=` too)
_DEPS_EDN = re.compile(r":git/(?:url|sha|tag)|:mvn/repos")  # (io.github.x/y: its url)
_DESCRIPTION = re.compile(r"^Remotes\s*:", re.M)
_ZON = re.compile(r"\.url\s*=\s*\"")
_JULIA = re.compile(r"^\s*\[sources\b|\burl\s*=\s*\"", re.M)
_OPAM = re.compile(r"\bpin-depends\s*:")
_GLEAM = re.compile(r"\{[^}\n]*\b(?:git|url)\s*=\s*\"")
_CARGO_CONFIG = re.compile(r"^\s*(?:replace-with\s*=|\[source\.|\[registries\.)", re.M)
_LOCAL_PATHS: dict[str, re.Pattern[str]] = {
    "go.mod": re.compile(r"=>\s*(\S+)"),  # (a `replace`'s target, an edit's alone too)
    "go.work": re.compile(r"=>\s*(\S+)"),
    "mix.exs": re.compile(r"\bpath\s*:\s*\"([^\"]+)\""),
    "pubspec.yaml": re.compile(r"^\s*path\s*:\s*[\"']?([^\"'\s#]+)", re.M),
    "pubspec_overrides.yaml": re.compile(r"^\s*path\s*:\s*[\"']?([^\"'\s#]+)", re.M),
    "Cargo.toml": re.compile(r"\bpath\s*=\s*[\"']([^\"']+)"),
    "package.json": re.compile(r"\"(?:file|link|portal):([^\"]+)\""),
    "Package.swift": re.compile(r"\bpath\s*:\s*\"([^\"]+)\""),
}
"""A local folder a dependency (or a crate's, a package's own part) is built from."""
_TEMP = ("/tmp", "/var/tmp", "/private/tmp", "/dev/shm")
_REPOSITORY_URL = re.compile(
    r"(?:https?://|git@|ssh://git@)([\w.-]+)[/:]([\w.-]+)/([\w.-]+?)(?:\.git)?(?=[\"'/#?\s]|$)"
    r"|\b(github|gitlab|sourcehut):([\w.-]+)/([\w.-]+)"
)
"""A repository's host, owner and name, in a URL or a flake's ``github:OWNER/NAME``."""
_UNICODE_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


def _pattern(pattern: re.Pattern[str]) -> Callable[[str, str | None], bool]:
    return lambda new, old: pattern.search(new) is not None


def _swift(new: str, old: str | None) -> bool:
    return _SWIFT_MOVING.search(new) is not None or _forked(new, old)


_BY_NAME: dict[str, Callable[[str, str | None], bool]] = {
    "cabal.project": _pattern(_CABAL),
    "cabal.project.local": _pattern(_CABAL),
    "stack.yaml": _pattern(_STACK),
    "Package.swift": _swift,
    "mix.exs": _pattern(_MIX),
    "rebar.config": _pattern(_REBAR),
    "pubspec.yaml": _pattern(_PUBSPEC),
    "pubspec_overrides.yaml": _pattern(_PUBSPEC),
    "go.mod": lambda new, old: _go_replaced(new),
    "go.work": lambda new, old: _go_replaced(new),
    "composer.json": _pattern(_COMPOSER),
    "pom.xml": _pattern(_POM),
    "deps.edn": _pattern(_DEPS_EDN),
    "flake.nix": lambda new, old: _forked(new, old),
    "DESCRIPTION": _pattern(_DESCRIPTION),
    "build.zig.zon": _pattern(_ZON),
    "Project.toml": _pattern(_JULIA),
    "gleam.toml": _pattern(_GLEAM),
}
"""Each file's test of the text written into it (``old``: an edit's replaced text)."""


def lang_source_changed(path: str, new: str, old: str | None, workspace: str | None = None) -> bool:
    """Writing ``new`` into the file at ``path`` (``old``: the text an edit replaces;
    None: a whole file) makes its build tool fetch code from another source, or build a
    folder outside ``workspace`` (the project) into it."""
    folder, name = posixpath.split(path)
    if name.endswith(".json"):  # (`"reposit\u006fries"` is the key "repositories")
        new = _UNICODE_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), new)
    local = _LOCAL_PATHS.get(name)
    if local is not None:
        targets = [m.group(1) for m in local.finditer(new)]
        if name.startswith("go."):  # (go's local folders start so; others are modules)
            targets = [t for t in targets if t.startswith((".", "/"))]
        if any(_outside(t, folder, workspace) for t in targets):
            return True
    test = _BY_NAME.get(name)
    if test is not None:
        return test(new, old)
    if name.endswith(".sbt"):
        return _SBT.search(new) is not None
    if name.endswith(".opam"):
        return _OPAM.search(new) is not None
    if name in ("config.toml", "config") and posixpath.basename(folder) == ".cargo":
        return _CARGO_CONFIG.search(new) is not None
    return False


def _go_replaced(text: str) -> bool:
    """A ``replace`` that fetches a module from another module's path (a fork): not a
    local folder (``=> ../lib``), not the same module at another version."""
    if "=>" not in text:
        return False
    for match in _GO_REPLACE.finditer(text):
        module, target = match.group(1), match.group(2)
        if not target.startswith((".", "/")) and target != module:
            return True
    return False


def _outside(target: str, folder: str, workspace: str | None) -> bool:
    """Whether the local folder ``target`` (relative to the manifest's ``folder``) is
    outside the project: in the home folder by name, in a shared temporary folder, an
    absolute path not below ``workspace``, a relative one above its neighbours (unknown
    workspace: an absolute path counts as outside)."""
    if target.startswith(("~", "$HOME", "${HOME}")):
        return True
    if "://" in target:
        return False
    where = posixpath.normpath(posixpath.join(folder, target))
    if any(where == t or where.startswith(t + "/") for t in _TEMP):
        return True
    if workspace is None or not posixpath.isabs(where):
        return target.startswith("/")
    # a relative path to a neighbouring checkout (`../fastcodec`) is an everyday local
    # dependency; one that climbs further (`../../x`), or an absolute path, is not
    within = workspace if target.startswith("/") else posixpath.dirname(workspace.rstrip("/"))
    return not (where == within or where.startswith(within.rstrip("/") + "/"))


def _forked(new: str, old: str | None) -> bool:
    """An edit that moves a repository it names to another owner or host: the same
    repository's name, fetched from someone else (``apple/swift-nio`` to
    ``nio-perf/swift-nio``, ``NixOS/nixpkgs`` to ``someone/nixpkgs``)."""
    if not old:
        return False
    before = {(name.lower(), (host.lower(), owner.lower())) for host, owner, name in _repos(old)}
    owners: dict[str, set[tuple[str, str]]] = {}
    for name, where in before:
        owners.setdefault(name, set()).add(where)
    for host, owner, name in _repos(new):
        known = owners.get(name.lower())
        if known is not None and (host.lower(), owner.lower()) not in known:
            return True
    return False


def _repos(text: str) -> list[tuple[str, str, str]]:
    found: list[tuple[str, str, str]] = []
    for match in _REPOSITORY_URL.finditer(text):
        if match.group(1) is not None:
            found.append((match.group(1), match.group(2), match.group(3)))
        else:
            found.append((match.group(4), match.group(5), match.group(6)))
    return found
