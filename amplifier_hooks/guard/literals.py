"""Variables a command sets to a literal before it uses them: ``BUILD_DIR=dist; rm -rf
"$BUILD_DIR"`` deletes ``dist``, and ``R=rm; $R -rf ~`` runs ``rm``.

A value is known only where the shell could give the variable no other: the variable is
set exactly once in the whole command, by a statement of the command's top level (run
unconditionally, before anything after it), to a literal (no expansion, substitution or
pattern); the command names it nowhere else but in plain reads after that statement
(``$X``, ``${X}``, ``${X:?}``): no ``read X``, ``for X in``, ``${X:=..}``, ``${!X}``,
``export``/``declare``/``unset``, nor a second assignment, conditional or not. A command
that names ``IFS`` knows no value (it changes how a value splits into words). Any other
read of a variable stays unknown: the guard treats it as such, never as harmless.
"""

from __future__ import annotations

import re
from contextvars import ContextVar

from tree_sitter import Node

__all__ = ["FRESH_TEMP", "INDIRECT", "KNOWN", "KNOWN_OUTPUT", "PLAIN_READ", "Known", "fresh_temp",
           "known_values", "names_known", "only_plain_reads", "sets_unseen", "substitute_known",
           "value_at"]  # fmt: skip

Known = dict[str, tuple[int, str]]
"""By name: the byte offset where the variable's one assignment ends, and its value."""

KNOWN: ContextVar[Known | None] = ContextVar("guard_known_values", default=None)
"""The known values of the command whose tree is being walked (`words.read_word` reads
them)."""

FRESH_TEMP = "/tmp/mktemp.XXXXXXXXXX"
"""The value of ``$(mktemp)``, ``$(mktemp -d)``: a new file or folder in the temporary
folder (``$TMPDIR`` or ``/tmp``), made for this command, which no one else uses."""
_MKTEMP = re.compile(
    r"\$\(\s*mktemp(?:\s+(?:-d|--directory|-q|--quiet))*"
    r"(?:\s+(?:-t|--tmpdir)\s+['\"]?[\w.-]+['\"]?)?(?:\s+(?:-d|-q))*\s*\)"
)
"""``$(mktemp ...)`` making a name in the temporary folder: no folder of its own (``-p
DIR``), no template that is a path (without ``-t`` it is one, below the current folder)."""


def fresh_temp(raw: str) -> str | None:
    """The path a word that starts with ``$(mktemp ...)`` (`_MKTEMP`) names, followed by
    nothing or by ``/``: `FRESH_TEMP` and the rest (None: any other word)."""
    close = raw.find(")") + 1 if raw.startswith("$(") else 0
    if not close or _MKTEMP.fullmatch(raw[:close]) is None:
        return None
    rest = raw[close:]
    return FRESH_TEMP + rest if not rest or rest.startswith("/") else None


_UNSEEN_SETTERS = re.compile(
    rb"(?:^|[;&|(`{\n!]|\b(?:then|do|else|while|until|if|time))\s*"
    rb"(?:(?:builtin|command|sudo|exec|nohup|env)\s+)*"
    rb"(?:(?:source|\.|declare|typeset|local|readonly|read|mapfile|readarray|getopts|let"
    rb"|unset|printf[ \t]+-v)(?=[\s;&|)]|$)|(?:export|eval)[ \t][^;&|\n]*(?:\$\(|`|<\()"
    rb"|export[ \t]+[-\w \t]*[\"']?\$)"
)
"""Commands that may set a variable the command does not name as written: a script run
in this shell, a name computed at run time (``declare "$n=x"``, ``read``, ``printf -v``),
``eval`` of computed text. Where one is, no value is known."""
KNOWN_OUTPUT = {
    "git rev-parse --git-dir": ".git",
    "git rev-parse HEAD": "0" * 40,
    "git rev-parse --short HEAD": "0" * 7,
}
"""What these commands print, as far as the guard cares: the repository's git folder (at
its top, where the agent works; elsewhere a path ending in ``.git`` too), and a commit
id, which is hex digits (``TAG=app:$(git rev-parse --short HEAD)``)."""
_SUBSTITUTED = re.compile(r"\$\(([^()]*)\)")
_NAME_CHARS = re.compile(rb"[A-Za-z0-9_]")
PLAIN_READ = re.compile(
    r"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)(?::?\?[^}]*)?\})"
)
"""A read whose value is the variable's, or an error when it is unset (``${X:?msg}``)."""
INDIRECT = re.compile(r"\$\{!([A-Za-z_][A-Za-z0-9_]*)\}")
"""``${!X}``: the value of the variable whose name is X's value."""
_READS = re.compile(r"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{!?([A-Za-z_][A-Za-z0-9_]*)(?::?\?[^}]*)?\})")
"""The reads that leave a value known: plain ones, and ``${!X}`` (X is a name)."""
_UNSAFE_VALUE = frozenset("$`\\{*?[~\n")
"""Characters that make a value's text something other than what the shell gives."""


def known_values(root: Node, source: bytes) -> Known | None:
    """The variables of the command ``root`` (its text ``source``) whose value is known, by
    name (None: none)."""
    found: dict[str, tuple[int, int, str] | None] = {}
    for statement in root.named_children:
        child: Node | None = statement
        if statement.type in ("list", "redirected_statement"):
            child = _first_of_chain(statement)
        if child is None or child.type != "variable_assignment":
            continue
        name_node = child.child_by_field_name("name")
        if name_node is None or name_node.type != "variable_name":
            continue
        name = source[name_node.start_byte : name_node.end_byte].decode("utf-8", "replace")
        value = _literal(child, name_node, source)
        found[name] = (None if name in found or value is None
                       else (name_node.start_byte, child.end_byte, value))  # fmt: skip
    if not found or b"IFS" in source or sets_unseen(source):
        return None
    known: Known = {}
    for name, seen in found.items():
        if seen is not None and only_plain_reads(name, source, seen[0], seen[1]):
            known[name] = (seen[1], seen[2])
    return known or None


def _first_of_chain(chain: Node) -> Node | None:
    """The first command of ``chain``, a list joined by ``&&`` alone (``tmp=$(mktemp) &&
    jq .. > "$tmp"``): it always runs, and before the rest, as a statement of its own would
    (None: an ``||`` is in it, so a later command may run where an earlier one did not)."""
    first: Node | None = chain
    while first is not None and first.type in ("list", "redirected_statement"):
        if any(c.type == "||" for c in first.children):
            return None
        body = first.named_children[0] if first.named_children else None
        if first.type == "redirected_statement" and (body is None or body.type != "list"):
            return None  # (the grammar puts `A && B > F` as `(A && B) > F`: B's redirect)
        first = body
    return first


def _literal(assignment: Node, name: Node, source: bytes) -> str | None:
    """The value ``NAME=value`` gives, when it is a literal."""
    after = source[name.end_byte : name.end_byte + 1]
    if after != b"=":  # `X+=y`, `X[1]=y`
        return None
    value = assignment.child_by_field_name("value")
    if value is None:
        return ""
    raw = source[value.start_byte : value.end_byte].decode("utf-8", "replace")
    if value.type == "word":
        text = raw
    elif value.type == "raw_string" or (
        value.type == "string" and all(c.type == "string_content" for c in value.named_children)
    ):
        text = raw[1:-1]
    elif value.type == "command_substitution" and _MKTEMP.fullmatch(raw) is not None:
        return FRESH_TEMP
    elif value.type in ("concatenation", "command_substitution"):  # `app:$(git rev-parse ..)`
        text = _SUBSTITUTED.sub(lambda m: KNOWN_OUTPUT.get(m.group(1).strip(), "$"), raw)
        if "'" in text or '"' in text:
            return None
    else:
        return None
    if not _UNSAFE_VALUE.isdisjoint(text):
        return None
    return text


def only_plain_reads(name: str, source: bytes, assigned_at: int, assigned_end: int) -> bool:
    """Whether ``source`` names ``name`` only in its one assignment (its name at byte
    ``assigned_at``) and in plain reads after it."""
    encoded = name.encode()
    start = 0
    while True:
        at = source.find(encoded, start)
        if at < 0:
            return True
        start = at + len(encoded)
        before = source[at - 1 : at] if at else b""
        after = source[start : start + 1]
        if (before and _NAME_CHARS.fullmatch(before)) or (after and _NAME_CHARS.fullmatch(after)):
            continue  # part of a longer name or word
        if at == assigned_at:
            continue
        if at < assigned_end:
            return False
        opening = (at - 1 if before == b"$" else at - 2 if source[at - 2 : at] == b"${"
                   else at - 3 if source[at - 3 : at] == b"${!" else -1)  # fmt: skip
        if opening < 0:
            return False
        window = source[opening : start + 300].decode("utf-8", "replace")
        match = _READS.match(window)
        if match is None or (match.group(1) or match.group(2)) != name:
            return False


def value_at(name: str, offset: int) -> str | None:
    """The known value of ``name`` read at byte ``offset`` of the command being walked."""
    known = KNOWN.get()
    if known is None:
        return None
    seen = known.get(name)
    if seen is None or offset < seen[0]:
        return None
    return seen[1]


_SAFE_VALUE = re.compile(r"[\w./:@%+,=-]+")
"""A value that reads the same quoted or not, and as one word (no blank, quote or pattern)."""


def substitute_known(script: str, offset: int) -> str:
    """``script`` (an action ``trap`` runs later, written at byte ``offset``) with each plain
    read of a known variable set before it replaced by the value, where that is one word
    in any quoting."""
    if KNOWN.get() is None or "$" not in script:
        return script

    def value(match: re.Match[str]) -> str:
        found = value_at(match.group(1) or match.group(2), offset)
        return found if found is not None and _SAFE_VALUE.fullmatch(found) else match.group(0)

    return PLAIN_READ.sub(value, script)


def names_known(text: str, known: Known) -> bool:
    """Whether ``text`` reads a variable of ``known``."""
    return "$" in text and any(
        (m.group(1) or m.group(2)) in known for m in _READS.finditer(text)
    )  # fmt: skip


def sets_unseen(source: bytes) -> bool:
    """Whether ``source`` runs a command that may set a variable it does not name."""
    return _UNSEEN_SETTERS.search(source) is not None
