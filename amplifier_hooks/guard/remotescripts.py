"""An edit of a project's JavaScript that loads code from another site when it runs.

``importScripts('https://cdn.example/x.js')`` in a service worker (or any web worker)
fetches that URL's script each time the worker starts and runs it with the worker's
powers: a service worker sees and can rewrite every request of the site, in every
visitor's browser. What the URL serves is neither in the project nor reviewed, and its
host can change it at any time, so adding one is asked (``remote-script-import``); a
script the project ships itself (``importScripts('/sw-helpers.js')``) is an ordinary edit,
as is every other edit of JavaScript. Only what the edit adds counts: a call already in the
old text is kept, not added.

The text is read with tree-sitter-javascript (an edit's new text is often a fragment: the
grammar's recovery still finds each whole call in it); a text it cannot read adds none.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from typing import Any

from tree_sitter import Node

from amplifier_hooks.guard.jsgrammar import javascript_parser
from amplifier_hooks.guard.jsliterals import arguments, string_text

__all__ = ["REMOTE_SCRIPT", "adds_remote_script"]

REMOTE_SCRIPT = "@remote-script"
"""The mark of a write that adds a script loaded from another site at run time."""
_SUFFIXES = frozenset({".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"})
_LOADERS = frozenset({"importScripts", "self.importScripts", "globalThis.importScripts"})
_REMOTE = ("http://", "https://", "//")
_PAIRS = (("old_string", "new_string"), ("oldString", "newString"), ("old_str", "new_str"),
          ("old_text", "new_text"))  # fmt: skip
_WHOLE = ("content", "contents", "file_text", "code_edit")
_MAX_TEXT = 256 * 1024
_MAX_NODES = 50_000


def adds_remote_script(paths: Iterable[str], inputs: Mapping[str, Any]) -> bool:
    """Whether a file tool's ``inputs`` add to a JavaScript or TypeScript file among
    ``paths`` a call that loads a script from another site (`_LOADERS`)."""
    if not any(posixpath.splitext(p.lower())[1] in _SUFFIXES for p in paths):
        return False
    for old, new in _texts(inputs):
        if "importScripts" in new and _remote_loads(new) - _remote_loads(old):
            return True
    return False


def _texts(inputs: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(old text, new text) of each change the input makes (a whole file's old text: none)."""
    found: list[tuple[str, str]] = []
    for each in [inputs, *(e for e in inputs.get("edits") or () if isinstance(e, Mapping))]:
        for old_key, new_key in _PAIRS:
            new = each.get(new_key)
            if isinstance(new, str) and new:
                old = each.get(old_key)
                found.append((old if isinstance(old, str) else "", new))
    found.extend(("", v) for k in _WHOLE if isinstance(v := inputs.get(k), str) and v)
    return found


def _remote_loads(text: str) -> set[str]:
    """The URLs of other sites ``text``'s calls of `_LOADERS` load (literal strings)."""
    if "importScripts" not in text or len(text) > _MAX_TEXT:
        return set()
    parser = javascript_parser()
    if parser is None:
        return set()
    try:
        root = parser.parse(text.encode()).root_node
    except UnicodeEncodeError:  # a lone surrogate: no browser would run it either
        return set()
    found: set[str] = set()
    stack = [root]
    for _ in range(_MAX_NODES):
        if not stack:
            break
        node = stack.pop()
        if node.type == "call_expression":
            found.update(_loaded(node))
        stack.extend(node.named_children)
    return found


def _loaded(call: Node) -> list[str]:
    function = call.child_by_field_name("function")
    name = (function.text or b"").decode("utf-8", "replace") if function is not None else ""
    if "".join(name.split()) not in _LOADERS:
        return []
    urls = [_literal(a).strip() for a in arguments(call)]
    return [u for u in urls if u.lower().startswith(_REMOTE)]


def _literal(node: Node) -> str:
    """A string's text, a template's up to its first ``${`` (where the site is named)."""
    if node.type == "string":
        return string_text(node)
    if node.type == "template_string":
        return (node.text or b"").decode("utf-8", "replace").strip("`").partition("${")[0]
    return ""
