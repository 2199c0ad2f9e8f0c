"""An edit that blinds the project's secret scanner.

The secret scanner (gitleaks, detect-secrets, trufflehog, pre-commit's
``detect-private-key``) is what stops a key from reaching a commit. A file tool's edit of
the hooks' configuration (``.pre-commit-config.yaml``, ``lefthook.yml``) that drops the
line naming a scanner's hook (an old string's line its new string no longer holds) is
marked `SCANNER_REMOVED` (asked: the project may mean to replace it). A gitleaks
configuration whose allowlist matches every path or every secret (``paths = ['''.*''']``)
makes the scanner find nothing, ever: `SCANNER_BLINDED` (denied).
"""

from __future__ import annotations

import posixpath
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import edit_pairs

__all__ = ["SCANNER_BLINDED", "SCANNER_REMOVED", "scanner_marks"]

SCANNER_REMOVED = "@scanner-removed"
SCANNER_BLINDED = "@scanner-blinded"
_HOOK_FILES = frozenset({".pre-commit-config.yaml", ".pre-commit-config.yml", "lefthook.yml",
                         ".lefthook.yml", "lefthook.yaml"})  # fmt: skip
_GITLEAKS = frozenset({".gitleaks.toml", "gitleaks.toml"})
_SCANNER = re.compile(
    r"gitleaks|detect-secrets|detect-private-key|detect-aws-credentials|trufflehog|"
    r"ggshield|talisman|secretlint|ripsecrets|noseyparker",
    re.IGNORECASE,
)
_EVERYTHING = frozenset({".*", ".+", "^.*$", "^.+$", "(.*)", "^.*", ".*$", "[\\s\\S]*", "(?s).*"})
"""Regular expressions that match every path or every text."""
_WHOLE = ("content", "contents", "file_text")


def scanner_marks(paths: Iterable[str], inputs: Mapping[str, Any]) -> tuple[str, ...]:
    """The marks of what a file tool's ``inputs`` do to the secret scanner's files."""
    names = {posixpath.basename(p) for p in paths}
    marks: list[str] = []
    if names & _HOOK_FILES and any(_drops_scanner(old, new) for old, new in edit_pairs(inputs)):
        marks.append(SCANNER_REMOVED)
    if names & _GITLEAKS and any(_allows_everything(t) for t in _written(inputs)):
        marks.append(SCANNER_BLINDED)
    return tuple(marks)


def _drops_scanner(old: str, new: str) -> bool:
    kept = {line.strip() for line in new.splitlines()}
    return any(_SCANNER.search(line) and line.strip() not in kept for line in old.splitlines())


def _allows_everything(text: str) -> bool:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    return any(value.strip() in _EVERYTHING for value in _allowlisted(data))


def _allowlisted(data: object) -> Iterator[str]:
    """The patterns of every allowlist (``[allowlist]``, ``[[allowlists]]``, a rule's)."""
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("allowlist", "allowlists"):
                    for table in value if isinstance(value, list) else [value]:
                        if isinstance(table, dict):
                            for field in ("paths", "regexes"):
                                found = table.get(field)
                                if isinstance(found, list):
                                    yield from (f for f in found if isinstance(f, str))
                else:
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)


def _written(inputs: Mapping[str, Any]) -> list[str]:
    texts = [v for k in _WHOLE if isinstance(v := inputs.get(k), str)]
    return texts + [new for _, new in edit_pairs(inputs)]
