"""Which redirections only append: ``>>`` keeps what a file holds, ``>`` throws it away.

A piece's ``writes`` do not say which operator wrote them, and most rules need not know.
Losing work does: ``echo x >> notes.md`` loses nothing, ``> notes.md`` loses the file. The
command's tree is read once more (only for a call that writes a file that exists), and a
path counts as appended only when every redirection to it in the command as written is an
append; one written by a script inside the command (``sh -c '...'``) is not seen here,
so it counts as truncated.
"""

from __future__ import annotations

from functools import lru_cache

from tree_sitter import Node

from amplifier_hooks.guard.grammar import parser, stand_in
from amplifier_hooks.guard.words import ORIGINAL, read_word

__all__ = ["appended_only"]

_APPENDS = frozenset({">>", "&>>"})
_WRITES = frozenset({">", ">>", "&>", "&>>", ">|", "<>", ">&"})
_MAX_NODES = 20_000


@lru_cache(maxsize=256)
def appended_only(command: str) -> frozenset[str]:
    """The redirect targets (as the parser records them) that ``command`` only appends
    to. Pure: a function of the text."""
    source = command.encode("utf-8", "replace")
    tree = parser().parse(source if source.isascii() else stand_in(source))
    appended: set[str] = set()
    truncated: set[str] = set()
    token = ORIGINAL.set(source)
    try:
        stack: list[Node] = [tree.root_node]
        seen = 0
        while stack and seen < _MAX_NODES:
            node = stack.pop()
            seen += 1
            if node.type == "file_redirect":
                _note(node, appended, truncated)
            stack.extend(node.children)
    finally:
        ORIGINAL.reset(token)
    if stack:  # too large to read in full: nothing is known to be an append
        return frozenset()
    return frozenset(appended - truncated)


def _note(redirect: Node, appended: set[str], truncated: set[str]) -> None:
    destination = redirect.child_by_field_name("destination")
    if destination is None or destination.type == "number":
        return
    operator = next((c.type for c in redirect.children if not c.is_named), "")
    if operator not in _WRITES:
        return
    word = read_word(destination, [])
    path = word.text if not word.dynamic else "$" + word.text.lstrip("$")
    (appended if operator in _APPENDS else truncated).add(path)
