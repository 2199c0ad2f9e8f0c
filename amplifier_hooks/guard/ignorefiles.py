"""An edit of ``.gitignore`` that lets a secret file be committed.

``.gitignore`` is what keeps ``.env`` and private keys out of every ``git add .``: an
edit that drops the line naming one (an old string's line its new string no longer
holds), or adds a negation (``!.env``), makes the next commit publish the secret. Such an
edit is marked `SECRET_UNIGNORED` and asked (``secret-unignored``). An edit that drops any
other pattern (``/Assets/Plugins/FMOD/`` under "licensed, do not commit"; what
``.npmignore`` kept out of the published package) is marked `IGNORE_DROPPED` and asked
too: what it kept out is then committed, pushed or published with the rest. An edit that
adds patterns or touches other lines is an ordinary edit. A secret file's name added to
``package.json``'s ``files`` (the list of what ``npm publish`` ships) is `SECRET_UNIGNORED`
too.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from typing import Any

from amplifier_hooks.guard.inputs import written_text
from amplifier_hooks.guard.secrets import secret_kind

__all__ = ["IGNORE_DROPPED", "SECRET_UNIGNORED", "drops_ignored", "edit_pairs",
           "unignores_secrets"]  # fmt: skip

SECRET_UNIGNORED = "@secret-unignored"
"""The mark of an edit of an ignore file that stops ignoring a secret file."""
IGNORE_DROPPED = "@ignore-entry-dropped"
"""The mark of an edit of an ignore file that drops a pattern it held."""
_IGNORE_FILES = frozenset({".gitignore", ".dockerignore", ".npmignore", "exclude"})
_PAIRS = (("old_string", "new_string"), ("oldString", "newString"), ("old_str", "new_str"),
          ("old_text", "new_text"), ("oldText", "newText"))  # fmt: skip
_WHOLE = ("content", "contents", "file_text")


def unignores_secrets(paths: Iterable[str], inputs: Mapping[str, Any]) -> bool:
    """Whether a file tool's ``inputs`` stop an ignore file among ``paths`` ignoring a
    secret file: a dropped line that names one, or a negation (``!.env``) of one."""
    names = {posixpath.basename(p) for p in paths}
    if "package.json" in names and any(map(_publishes_secret, change_pairs(inputs))):
        return True  # `"files": ["dist", ".env"]`: the next npm publish ships it
    if names.isdisjoint(_IGNORE_FILES):
        return False
    for old, new in edit_pairs(inputs):
        kept = {line.strip() for line in new.splitlines()}
        if any(_names_secret(line) and line.strip() not in kept for line in old.splitlines()):
            return True
        if _negates_secret(new):
            return True
    return any(isinstance(v := inputs.get(k), str) and _negates_secret(v) for k in _WHOLE)


def drops_ignored(paths: Iterable[str], inputs: Mapping[str, Any]) -> bool:
    """Whether a file tool's ``inputs`` drop a pattern line of an ignore file among
    ``paths`` (its old string's line, no longer in its new string)."""
    if not any(posixpath.basename(p) in _IGNORE_FILES for p in paths):
        return False
    for old, new in edit_pairs(inputs):
        kept = {line.strip() for line in new.splitlines()}
        for line in old.splitlines():
            pattern = line.strip()
            if pattern and not pattern.startswith(("#", "!")) and pattern not in kept:
                return True
    return False


def edit_pairs(inputs: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The (old, new) text of each edit a file tool's ``inputs`` make."""
    found: list[tuple[str, str]] = []
    edits = inputs.get("edits")
    listed = edits if isinstance(edits, list) else ()  # (a hostile `"edits": 1`: none)
    for each in [inputs, *(e for e in listed if isinstance(e, Mapping))]:
        for old_key, new_key in _PAIRS:
            old, new = each.get(old_key), each.get(new_key)
            if isinstance(old, str) and old:
                found.append((old, new if isinstance(new, str) else ""))
    return found


def change_pairs(inputs: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The (old, new) text of each edit ``inputs`` make, or ("", the text written) of a
    write: what a check of code added reads, whichever file tool added it."""
    return edit_pairs(inputs) or [("", written_text(inputs) or "")]


def _names_secret(line: str) -> bool:
    pattern = line.strip().lstrip("/")
    if not pattern or pattern.startswith(("#", "!")):
        return False
    return secret_kind(pattern.removeprefix("**/").rstrip("/")) is not None


_QUOTED = re.compile(r'"([^"\n]{1,200})"')


def _publishes_secret(pair: tuple[str, str]) -> bool:
    """Whether package.json's new text adds a secret file's name to what it lists (its
    ``files``: the allow-list of what ``npm publish`` ships)."""
    old, new = pair
    if '"files"' not in new and '"files"' not in old:
        return False
    added = set(_QUOTED.findall(new)) - set(_QUOTED.findall(old))
    return any(_names_secret(name) for name in added)


def _negates_secret(text: str) -> bool:
    return any(
        line.strip().startswith("!") and _names_secret(line.strip()[1:])
        for line in text.splitlines()
    )
