"""A PowerShell value read from tree-sitter-powershell's tree as the tokens `psreader`
reads (`pstokens.Token`): a string (verbatim, expandable, here-string), a variable, a
bracketed piece (script block, sub-expression, ``@(...)``, ``@{...}``, ``[Type]``), a .NET
member chain, and the operators between them. A node of a kind not known here is a gap in
what the grammar says (`GrammarGap`): the caller grants nothing.
"""

from __future__ import annotations

from tree_sitter import Node

from amplifier_hooks.guard.pstokens import GrammarGap, Token

__all__ = ["DQ_ESCAPES", "dq_literal", "expression", "text_of", "unescape"]

_WRAPPERS = frozenset({
    "logical_expression", "bitwise_expression", "comparison_expression",
    "additive_expression", "multiplicative_expression", "format_expression",
    "range_expression", "array_literal_expression", "unary_expression",
    "argument_expression", "logical_argument_expression", "bitwise_argument_expression",
    "comparison_argument_expression", "additive_argument_expression",
    "multiplicative_argument_expression", "format_argument_expression",
    "range_argument_expression", "left_assignment_expression", "pipeline_chain",
    "redirected_file_name", "command_name_expr", "cast_expression",
})  # fmt: skip
"""Nodes read as the pieces they hold, in order (an operator between them is a word)."""
_LITERALS = frozenset({"pre_increment_expression", "pre_decrement_expression",
                       "post_increment_expression", "post_decrement_expression",
                       "integer_literal", "real_literal", "generic_token", "simple_name",
                       "path_command_name", "type_identifier"})  # fmt: skip
_OPERATORS = frozenset({"comparison_operator", "assignement_operator", "format_operator",
                        "file_redirection_operator", "merging_redirection_operator"})  # fmt: skip


def text_of(node: Node) -> str:
    """A node's source text."""
    return (node.text or b"").decode()


def expression(node: Node) -> list[Token]:
    """A value's tokens, as `pslex` made them: a string, a variable, a bracketed
    piece, a .NET member chain; an operator between values is a word."""
    kind = node.type
    if kind in _WRAPPERS or kind == "pipeline":
        tokens: list[Token] = []
        for child in node.children:
            if child.type == ",":
                tokens.append(Token("op", ","))
            elif child.type == "comment":
                continue
            elif child.is_named:
                tokens.extend(expression(child))
            else:
                tokens.append(Token("word", child.type))
        return tokens
    single = _single(node)
    if single is not None:
        return [single]
    if kind in _OPERATORS:
        return [Token("word", text_of(node))]
    if kind == "expression_with_unary_operator":
        return _unary(node)
    if kind in ("member_access", "invokation_expression", "element_access"):
        return [_member_chain(node)]
    raise GrammarGap(f"a {kind}")


def _single(node: Node) -> Token | None:
    """The token of a node that is one piece (None: not one of those)."""
    kind, text = node.type, text_of(node)
    if kind == "string_literal":
        return _string(node)
    if kind == "variable":
        return Token("word", text)
    if kind in _LITERALS:
        return Token("word", unescape(text))
    if kind == "script_block_expression":
        return Token("block", text[1:-1])
    if kind == "parenthesized_expression":
        return Token("paren", text[1:-1])
    if kind == "array_expression":
        return Token("paren", text[2:-1])
    if kind == "sub_expression":
        return Token("sub", text[2:-1])
    if kind == "hash_literal_expression":
        return Token("hash", text[2:-1])
    if kind == "type_literal":
        return Token("type", text[1:-1])
    return None


def _unary(node: Node) -> list[Token]:
    """``-not $x``, ``!$x``, ``-1``: a signed number is one word, an operator a word."""
    text = text_of(node)
    operand = node.named_children[-1] if node.named_children else None
    while operand is not None and operand.type == "unary_expression" and operand.named_children:
        operand = operand.named_children[0]
    if operand is not None and operand.type in ("integer_literal", "real_literal"):
        return [Token("word", text)]
    tokens: list[Token] = []
    for child in node.children:
        if child.is_named:
            tokens.extend(expression(child))
        else:
            tokens.append(Token("word", child.type))
    return tokens


def _member_chain(node: Node) -> Token:
    """``$x.Name``, ``(...).Call(args)``, ``[T]::Call(args)``, ``$a[0]``: the token of the
    value it starts from, with each member after it. A variable's properties (no call)
    stay one word, as PowerShell's argument mode reads ``$PROFILE.CurrentUserAllHosts``."""
    members: list[str] = []
    base = node
    while base.type in ("member_access", "invokation_expression", "element_access"):
        members.append(_member(base))
        base = base.named_children[0]
    members.reverse()
    if base.type == "variable" and all(m.startswith(".") and "(" not in m for m in members):
        return Token("word", text_of(node))
    found = expression(base)
    if len(found) != 1:
        raise GrammarGap("a member of several values")
    return found[0]._replace(members=found[0].members + tuple(members))


def _member(node: Node) -> str:
    """The member ``node`` adds to the value it starts from (``.Name``, ``::Name(args)``)."""
    first = node.named_children[0]
    rest = text_of(node)[first.end_byte - node.start_byte :].lstrip()
    if node.type == "element_access":
        return rest
    if rest.startswith("::"):
        return "::" + rest[2:].lstrip()
    return rest


def _string(node: Node) -> Token:
    """A string's token: verbatim (``'...'``, ``@'...'@``) as its text, expandable
    (``"..."``, ``@"..."@``) as its raw text with its parts (`Token.parts`)."""
    child = node.named_children[0] if node.named_children else node
    kind, raw = child.type, child.text or b""
    if kind == "verbatim_string_characters":
        return Token("sq", raw[1:-1].decode().replace("''", "'"))
    if kind == "expandable_string_literal":
        return _expandable(child, 1, len(raw) - 1)
    if kind in ("verbatim_here_string_characters", "expandable_here_string_literal"):
        start, end = _here_body(raw)
        if kind.startswith("verbatim"):
            return Token("sq", raw[start:end].decode())
        return _expandable(child, start, end)
    raise GrammarGap(f"a {kind}")


def _here_body(raw: bytes) -> tuple[int, int]:
    """Where a here-string's text is: from the line after ``@"`` to the end of the line
    before ``"@`` (a line's ``\r`` left out)."""
    start, end = 2, len(raw) - 2
    opening = raw.find(b"\n", start, end)
    start = opening + 1 if opening >= 0 else start
    closing = raw.rfind(b"\n", start, end)
    end = closing if closing >= 0 else end
    return start, end - 1 if raw[start:end].endswith(b"\r") else end


def _expandable(node: Node, start: int, end: int) -> Token:
    """An expandable string: the literal text between the variables and sub-expressions
    the grammar found in it (its escapes resolved), each of those as a part of its own."""
    raw = node.text or b""
    parts: list[tuple[str, str]] = []
    at = start
    for child in node.named_children:
        begin, finish = child.start_byte - node.start_byte, child.end_byte - node.start_byte
        if begin < start or finish > end:
            raise GrammarGap("a string's part outside its text")
        parts.append(("lit", dq_literal(raw[at:begin].decode())))
        if child.type == "variable":
            parts.append(("var", text_of(child)))
        elif child.type == "sub_expression":
            parts.append(("sub", text_of(child)[2:-1]))
        else:
            raise GrammarGap(f"a {child.type} in a string")
        at = finish
    parts.append(("lit", dq_literal(raw[at:end].decode())))
    return Token("dq", raw[start:end].decode(), parts=tuple(parts))


DQ_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "", "a": "", "b": "", "e": "", "f": "",
              "v": ""}  # fmt: skip
"""What a backtick escape in an expandable string stands for (a control character the
rules need not see is dropped); any other escaped character is itself."""


def dq_literal(text: str, dollar: str = "$") -> str:
    """Literal text of an expandable string: `` `n `` a new line, `` `$ `` ``dollar`` (a
    ``$``; `psvalues` marks it, to expand the rest later without it), ``""`` a ``"``."""
    if "`" not in text and '""' not in text:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "`" and i + 1 < len(text):
            escaped = text[i + 1]
            out.append(dollar if escaped == "$" else DQ_ESCAPES.get(escaped, escaped))
            i += 2
            continue
        if c == '"' and text[i + 1 : i + 2] == '"':
            out.append('"')
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def unescape(text: str) -> str:
    """A bare word as PowerShell takes it: a backtick makes the next character itself."""
    if "`" not in text:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "`" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        out.append(text[i])
        i += 1
    return "".join(out)
