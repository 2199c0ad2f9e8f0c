"""A bundler's configuration that puts the whole environment into the client's bundle.

Vite's ``define`` (and webpack's ``DefinePlugin``) replaces a name with the text of a
value at build time, in code every visitor downloads. ``define: {'process.env':
JSON.stringify(process.env)}`` writes every variable of the build machine (its database
URL, its secret keys) into the public JavaScript. The text a write or edit puts into
``vite.config.*``, ``webpack.config.*`` or ``next.config.*`` is read with the JavaScript
grammar (an edit's fragment of an object is read as one); a ``define`` whose value is the
whole ``process.env`` (or a call given it) is marked `CLIENT_ENV`. Naming one variable
(``'process.env.API_URL': JSON.stringify(process.env.API_URL)``) is ordinary.
"""

from __future__ import annotations

import posixpath
import re

from tree_sitter import Node

from amplifier_hooks.guard.jsgrammar import javascript_parser

__all__ = ["CLIENT_ENV", "client_env_marks"]

CLIENT_ENV = "@client-env-exposed"
_CONFIGS = re.compile(r"(?:vite|vitest|webpack|next|nuxt|astro|rollup)\.config\.[cm]?[jt]s\Z")
_DEFINERS = frozenset({"define", "DefinePlugin", "EnvironmentPlugin"})
_MAX_TEXT = 64 * 1024


def client_env_marks(path: str, text: str) -> tuple[str, ...]:
    """(`CLIENT_ENV`,) when ``text`` written into ``path`` (a bundler's configuration)
    defines the whole environment for the client bundle, else ()."""
    if not _CONFIGS.search(posixpath.basename(path)) or "process.env" not in text:
        return ()
    if len(text) > _MAX_TEXT or not any(name in text for name in _DEFINERS):
        return ()
    parser = javascript_parser()
    if parser is None:
        return ()
    for source in (text, "({" + text + "\n})"):  # (an edit's members of an object)
        tree = parser.parse(source.encode())
        if not tree.root_node.has_error:
            return (CLIENT_ENV,) if _exposes(tree.root_node) else ()
    return ()


def _exposes(root: Node) -> bool:
    """A ``define: {..}`` pair, or a ``new DefinePlugin({..})``, whose object gives a value
    that is the whole ``process.env`` or a call on it."""
    stack = [root]
    seen = 0
    while stack and seen < 20000:
        node = stack.pop()
        seen += 1
        if _defines_whole_env(node):
            return True
        stack.extend(node.named_children)
    return False


def _defines_whole_env(node: Node) -> bool:
    if node.type == "pair" and _key(node) in _DEFINERS:
        value = node.child_by_field_name("value")
        return value is not None and _whole_env_inside(value)
    if node.type == "new_expression" and _constructed(node) in _DEFINERS:
        return _whole_env_inside(node)
    return False


def _whole_env_inside(node: Node) -> bool:
    """Whether ``process.env`` itself (not one of its variables) is a value under ``node``."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "member_expression" and _text(current) == "process.env":
            parent = current.parent
            if parent is None or parent.type != "member_expression":
                return True  # (process.env.NAME, process.env['NAME'] name one variable)
        if current.type == "subscript_expression":
            obj = current.child_by_field_name("object")
            if obj is not None and _text(obj) == "process.env":
                continue
        stack.extend(current.named_children)
    return False


def _constructed(node: Node) -> str:
    """The last name of what ``new X.Y(..)`` constructs (``DefinePlugin``)."""
    return _text(node.child_by_field_name("constructor")).rsplit(".", 1)[-1]


def _key(pair: Node) -> str:
    key = pair.child_by_field_name("key")
    return _text(key).strip("'\"`")


def _text(node: Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", "replace")
