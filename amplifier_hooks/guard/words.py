"""A shell word as the shell would pass it: quotes removed, escapes applied, ``$HOME`` known.

tree-sitter-bash gives the structure of a word (quoted parts, expansions, substitutions);
this module turns it into the text a program would receive. What only the running shell
knows (another variable, a substitution's output, arithmetic) makes the word *dynamic*:
its text keeps a ``$`` marker, and rules treat it as unknown, never as harmless.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from typing import NamedTuple

from tree_sitter import Node

from amplifier_hooks.guard.braces import BRACES
from amplifier_hooks.guard.literals import INDIRECT, KNOWN, KNOWN_OUTPUT, PLAIN_READ, value_at

__all__ = ["ORIGINAL", "Word", "decode_ansi_c", "node_text", "one_char_brackets", "read_word",
           "split_unquoted", "unescape_unquoted"]  # fmt: skip

HOME_VARIABLES = frozenset({"HOME"})
"""Variables whose value the guard knows: ``$HOME`` is the home folder (written ``~``)."""

_SUBSTITUTIONS = frozenset({"command_substitution", "process_substitution"})


class Word(NamedTuple):
    """One word's text and whether the shell would compute part of it at run time (a
    named tuple: made for every word of every command, it must be cheap)."""

    text: str
    dynamic: bool = False


_ONE_CHAR = re.compile(r"\[([^\]\[!^\\/-])\]")
"""A bracket expression of one plain character (``[e]``): it matches that character only."""


def one_char_brackets(text: str) -> str:
    """``./node_modules/.bin/[e]slint`` as the one name it can match (``eslint``): each
    bracket of one plain character is that character (no ``!``, ``^``, range or class).
    Where nothing matches, bash runs the word as written: a file of that odd name in the
    same folder, named like the program it spells."""
    return _ONE_CHAR.sub(r"\1", text) if "[" in text else text


def unescape_unquoted(raw: str) -> str:
    """An unquoted word's backslashes applied: ``\\rm`` is ``rm``, a line continuation
    disappears."""
    if "\\" not in raw:
        return raw
    return re.sub(r"\\(\n|.)", lambda m: "" if m.group(1) == "\n" else m.group(1), raw)


def _unescape_double(raw: str) -> str:
    # Inside double quotes a backslash only escapes $ ` " \ and a newline.
    return re.sub(r'\\([$`"\\\n])', lambda m: "" if m.group(1) == "\n" else m.group(1), raw)


_ANSI = re.compile(r"\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)")
_ANSI_SIMPLE = {
    "n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
    "f": "\f", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?",
}  # fmt: skip


def _ansi_escape(match: re.Match[str]) -> str:
    code = match.group(1)
    if code[0] in "xuU" and len(code) > 1:
        try:
            return chr(int(code[1:], 16))
        except (ValueError, OverflowError):
            return ""
    if code[0] in "01234567":
        return chr(int(code, 8) & 0xFF)
    if code[0] == "c" and len(code) == 2:
        return chr(ord(code[1]) & 0x1F)
    return _ANSI_SIMPLE.get(code, "\\" + code)


def decode_ansi_c(raw: str) -> str:
    """The text of a ``$'...'`` string: ``$'\\x72m'`` is ``rm``."""
    body = raw[2:-1] if raw.startswith("$'") and raw.endswith("'") else raw
    return _ANSI.sub(_ansi_escape, body)


ORIGINAL: ContextVar[bytes | None] = ContextVar("guard_original_source", default=None)
"""The command as written, while its tree is walked: node texts are sliced from it by
byte offsets (cheaper than ``Node.text``, and right when the parser was given a stand-in,
see `grammar.stand_in`)."""


def node_text(node: Node) -> str:
    """The text of ``node`` as written."""
    original = ORIGINAL.get()
    raw = node.text if original is None else original[node.start_byte : node.end_byte]
    return raw.decode("utf-8", "replace") if raw else ""


_text = node_text


def _variable(node: Node) -> Word:
    """``$NAME`` / ``${NAME}``: known for HOME, else a marker that makes the word dynamic."""
    names = [c for c in node.named_children if c.type == "variable_name"]
    plain = len(names) == 1 and len(node.named_children) == 1
    if plain and _text(names[0]) in HOME_VARIABLES:
        return Word("~")
    if names and KNOWN.get() is not None:
        text = _text(node)
        match = PLAIN_READ.fullmatch(text)
        value = value_at(_text(names[0]), node.start_byte) if match is not None else None
        if value is not None:
            return Word(value)
        value = value_at(_text(names[0]), node.start_byte) if INDIRECT.fullmatch(text) else None
        if value is not None and value.isidentifier():  # `${!v}` of `v=NAME`: `$NAME`
            return Word(f"${value}", dynamic=True)
    return Word(_text(node), dynamic=True)


def read_word(node: Node, substitutions: list[Node]) -> Word:
    """The text of an argument node; command/process substitutions found inside are
    appended to ``substitutions`` (their commands run too, and are judged)."""
    kind = node.type
    if kind == "command_name":
        parts = node.named_children
        if len(parts) == 1:  # the usual case: one part, its word is the name's
            node, kind = parts[0], parts[0].type
        elif parts:
            return _join(parts, substitutions, quoted=False)
    if kind in ("word", "number", "command_name"):
        raw = _text(node)
        return Word(
            unescape_unquoted(raw) if "\\" in raw else raw,
            "{" in raw and BRACES.search(raw) is not None,
        )
    if kind == "raw_string":
        return Word(_text(node)[1:-1])
    if kind == "ansi_c_string":
        return Word(decode_ansi_c(_text(node)))
    if kind in ("simple_expansion", "expansion"):
        for inner in node.named_children:
            _collect_substitutions(inner, substitutions)
        return _variable(node)
    if kind in _SUBSTITUTIONS:
        substitutions.append(node)
        printed = _printed_literal(node) if kind == "command_substitution" else None
        return Word(_text(node), dynamic=True) if printed is None else Word(printed)
    if kind in ("string", "translated_string"):
        parts = [c for c in node.children if c.type not in ('"', '$"')]
        return _join(parts, substitutions, quoted=True)
    if kind == "concatenation":
        word = _join(node.children, substitutions, quoted=False)
        # Brace expansion turns one word into several: {~,/} is two paths.
        if BRACES.search(_text(node)):
            return Word(word.text, dynamic=True)
        return word
    # Arithmetic, brace expansion and anything newer: computed by the shell.
    _collect_substitutions(node, substitutions)
    return Word(_text(node), dynamic=True)


def _printed_literal(node: Node) -> str | None:
    """What ``$(echo WORD)`` or ``$(printf WORD)`` prints, when WORD is a literal that
    neither reads as an option nor holds a ``%`` or ``\\`` (``$(printf rm) -rf x`` runs
    ``rm``), or a command of `literals.KNOWN_OUTPUT`; None for anything else."""
    commands = node.named_children
    if len(commands) != 1 or commands[0].type != "command":
        return None
    known = KNOWN_OUTPUT.get(_text(commands[0]))
    if known is not None:
        return known
    if _DATE_NAME.fullmatch(_text(commands[0])) is not None:
        return "0"  # `logs/run_$(date +%Y%m%d).log`: a name in `logs`, digits and letters
    parts = commands[0].named_children
    if len(parts) != 2 or _text(parts[0]) not in ("echo", "printf"):
        return None
    kind = parts[1].type
    if kind not in ("word", "raw_string"):
        return None
    text = _text(parts[1])[1:-1] if kind == "raw_string" else _text(parts[1])
    if not text or text.startswith("-") or not _LITERAL.isdisjoint(text):
        return None
    return text


_DATE_NAME = re.compile(r"date(?: -u)? \+(?:%[YmdHMSjuwVGgyCsNzFTRIpbhaAB]|[A-Za-z0-9_.:-])+")
"""``date +FORMAT`` whose output is one name: digits, letters, ``_ . : -`` (no ``/``, no
blank: ``%D``, ``%x``, ``%c``, ``%e`` and ``%n`` are left out)."""
_LITERAL = frozenset("%\\$`*?[{~\n")
"""Characters that make echo's or printf's word print something else than it shows."""


def split_unquoted(word: Word) -> list[Word]:
    """The words an unquoted read of a known value ``word`` becomes: split at blanks (a
    command that names ``IFS`` knows no value: `literals`), none when it is empty."""
    if word.text == "~":  # (``$HOME``: one word)
        return [word]
    return [Word(part) for part in word.text.split()]


def _join(parts: list[Node], substitutions: list[Node], *, quoted: bool) -> Word:
    texts: list[str] = []
    dynamic = False
    for part in parts:
        if quoted and part.type == "string_content":
            texts.append(_unescape_double(_text(part)))
            continue
        word = read_word(part, substitutions)
        texts.append(word.text)
        dynamic = dynamic or word.dynamic
        if not quoted and part.type in ("simple_expansion", "expansion") and word.text != "~":
            dynamic = dynamic or word.text != "".join(word.text.split())  # (it would split)
    return Word("".join(texts), dynamic)


def _collect_substitutions(node: Node, substitutions: list[Node]) -> None:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in _SUBSTITUTIONS:
            substitutions.append(current)
        else:
            stack.extend(current.children)
