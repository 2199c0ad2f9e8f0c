"""What an MCP tool does to a remote (a push, a merge, a delete on GitHub), as the command
that does the same there.

A service's tool (GitHub's ``push_files``, ``merge_pull_request``; a git server's
``git_push``) changes no file here, so the file rules never see it; what it changes is
shared, and the shell's ``git push`` or ``gh`` doing the same is judged by rules of their
own (a push to main asked, a force push to it denied, a delete on GitHub asked). The
pack's MCP table says which command a tool amounts to (a row's ``runs``: its words, with
``{arg}`` slots), so one rule judges both, and the tool is never granted.

What the tool sends there is read too: a file named as a secret (``.env``, ``id_rsa``)
among the files it uploads, or a credential in its text, is a secret sent to a service
(`SECRET_TO_MCP`, denied).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from amplifier_hooks.guard.mcpsecrets import sends_secret
from amplifier_hooks.guard.secrets import secret_kind

__all__ = ["REMOTE", "filled", "sends_secret_files", "slot_names", "unfillable"]

REMOTE = "an MCP server does this on a remote service, which others share"
"""Why the command a remote tool amounts to is judged but never granted."""

_SLOT = re.compile(r"\{(\w+)(\*)?(?:\|([^{}]*))?\}")
_NAMES = ("path", "file_path", "filename", "name")
"""The fields of an uploaded file (``files: [{path, content}]``, GitLab's ``file_path``)
that name it."""
_MAX_FILES = 1000


def slot_names(word: str) -> list[str]:
    """The arguments the ``{arg}`` slots of a ``runs`` word name."""
    return [m.group(1) for m in _SLOT.finditer(word)]


def filled(words: tuple[str, ...], inputs: Mapping[str, Any]) -> list[str]:
    """``words`` with each slot replaced by its argument's text (a number as its digits,
    a flag as ``true`` or ``false``: ``--privileged={privileged}``). A slot whose argument
    is not given (or empty) takes its ``|default``; without one, the word is left out, as
    the server leaves out what it is not given. A list of words fills a word with text
    around its one slot once per item (``--volume={volumes}``), and a starred slot alone
    (``{args*}``, a CLI server's words) with the items themselves; any other value the
    word cannot hold (`unfillable`) leaves it out, and the caller asks."""
    found: list[str] = []
    for word in words:
        slots = list(_SLOT.finditer(word))
        if len(slots) == 1 and _listed(word, slots[0], inputs.get(slots[0].group(1))):
            slot, items = slots[0], inputs[slots[0].group(1)]
            found.extend(word[: slot.start()] + item + word[slot.end() :] for item in items)
            continue
        missing = False

        def put(match: re.Match[str]) -> str:
            nonlocal missing
            value = inputs.get(match.group(1))
            if isinstance(value, bool):
                return "true" if value else "false"
            if isinstance(value, int):
                return str(value)
            if isinstance(value, str) and value:
                return value
            if match.group(3) is not None:
                return match.group(3)
            missing = True
            return ""

        text = _SLOT.sub(put, word)
        if not missing:
            found.append(text)
    return found


def unfillable(words: tuple[str, ...], inputs: Mapping[str, Any]) -> list[str]:
    """The arguments given a value their ``runs`` words cannot hold: an object, a list
    of other than words, or a list for a slot that is a whole word but not starred (its
    items could be options: ``"name": ["prod", "--dry-run=client"]``). What the server
    does with them is not read, so the call is asked, never judged without them."""
    found: list[str] = []
    for word in words:
        slots = list(_SLOT.finditer(word))
        for slot in slots:
            value = inputs.get(slot.group(1))
            if value is None or isinstance(value, (str, int)):
                continue
            if len(slots) == 1 and _listed(word, slot, value):
                continue
            if value != []:
                found.append(slot.group(1))
    return found


def _listed(word: str, slot: re.Match[str], value: object) -> bool:
    """Whether ``value`` is a list of words that ``word``'s one slot takes item by item:
    glued to text around it, or the whole word when starred."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return False
    return slot.group(2) is not None or word != slot.group(0)


def sends_secret_files(inputs: Mapping[str, Any]) -> bool:
    """Whether the call uploads a file named as a secret (`secrets.secret_kind`: a
    ``.env``, a private key) or text holding a credential (`mcpsecrets.sends_secret`)."""
    return any(secret_kind(name) for name in _file_names(inputs)) or sends_secret(inputs)


def _file_names(inputs: Mapping[str, Any]) -> Iterator[str]:
    """The names of the files a call uploads: its own ``path``, the keys of a ``files``
    object (a gist's), and the names of the entries of a ``files`` list (a push's)."""
    for field in _NAMES:
        value = inputs.get(field)
        if isinstance(value, str):
            yield value
    files = inputs.get("files")
    if isinstance(files, Mapping):
        yield from (k for k in list(files)[:_MAX_FILES] if isinstance(k, str))
    elif isinstance(files, list):
        for entry in files[:_MAX_FILES]:
            if isinstance(entry, str):
                yield entry
            elif isinstance(entry, Mapping):
                yield from (v for f in _NAMES if isinstance(v := entry.get(f), str))
