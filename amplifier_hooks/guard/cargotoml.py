"""A ``Cargo.toml``'s sources of code: the git repositories its dependencies and patches
are fetched from.

``cargo build`` fetches a ``git = "URL"`` dependency (or a ``[patch]`` that replaces a
crate everywhere in the build) from that repository and runs its ``build.rs`` and proc
macros, as ``cargo install --git URL`` would: code from a source outside the registry, which
a person should confirm (`FETCHED_SOURCE`: ``build-fetched-source``, asked, as a pod from
a git URL is). The text is read as TOML (a whole file, or an edit's lines, which are most
often whole tables or keys); text that is not TOML is still judged by the programs it
spells out (`buildfiles`), and is never granted.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator

from amplifier_hooks.guard.mobilebuild import FETCHED_SOURCE

__all__ = ["cargo_sources"]


def cargo_sources(text: str) -> list[tuple[str, str]]:
    """(`FETCHED_SOURCE`, URL) of each git repository ``text`` fetches a crate from."""
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return []
    return [(FETCHED_SOURCE, url) for url in dict.fromkeys(_git_urls(data))]


def _git_urls(data: object) -> Iterator[str]:
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            git = node.get("git")
            if isinstance(git, str) and git:
                yield git
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
