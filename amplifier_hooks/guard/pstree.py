"""PowerShell's command text split by tree-sitter-powershell's grammar: statements, the
commands of each pipeline, and each command's tokens (`pstokens.Token`), read from the
syntax tree's nodes.

The grammar is loaded the first time PowerShell is read (most calls are not PowerShell),
one parser per thread. Where the grammar cannot say what a piece is, the text is not split
here (`GrammarGap`): a tree with an error or a missing node, a kind of node this reader does
not know, or a curly quote (a quote to PowerShell, a letter to the grammar). The reader
then reads the text with the `pslex` fallback and grants nothing (`psreader`).
"""

from __future__ import annotations

import threading

from tree_sitter import Language, Node, Parser

from amplifier_hooks.guard.psexpr import expression, text_of, unescape
from amplifier_hooks.guard.pstokens import GrammarGap, Statement, Token, Unreadable

__all__ = ["statements"]

_MAX_DEPTH = 20
_CURLY = frozenset("\u2018\u2019\u201a\u201b\u201c\u201d\u201e")
"""Quotes to PowerShell that the grammar reads as letters of a bare word."""
_KEYWORD_STATEMENTS = frozenset({
    "if_statement", "foreach_statement", "for_statement", "while_statement", "do_statement",
    "switch_statement", "try_statement", "trap_statement", "function_statement",
    "elseif_clauses", "elseif_clause", "else_clause", "catch_clauses", "catch_clause",
    "finally_clause", "switch_body", "switch_clauses", "switch_clause",
})  # fmt: skip
"""Statements read as their keyword, then each condition and block they hold."""
_CONDITIONS = frozenset({"switch_condition", "while_condition", "for_initializer",
                         "for_condition", "for_iterator"})  # fmt: skip
"""A statement's conditions: each pipeline in them is read as if it ran."""
_SKIPPED = frozenset({"empty_statement", "comment", ";", "\n"})
_REDIRECTS = frozenset("<>")
"""Characters that make a redirection wherever PowerShell meets them outside quotes."""
_local = threading.local()
_language: list[Language] = []


def _parser() -> Parser:
    """This thread's parser (the grammar loaded on first use)."""
    found: Parser | None = getattr(_local, "parser", None)
    if found is None:
        if not _language:  # imported here: a guard that never reads PowerShell never loads it
            import tree_sitter_powershell

            _language.append(Language(tree_sitter_powershell.language()))
        found = _local.parser = Parser(_language[0])
    return found


def statements(text: str, depth: int = 0) -> list[Statement]:
    """The statements of ``text`` (``;``, a new line, ``&&`` and ``||`` end one)."""
    if depth > _MAX_DEPTH:
        raise Unreadable("nested too deep")
    if not _CURLY.isdisjoint(text):
        raise GrammarGap("a curly quote")
    try:
        source = text.encode()
    except UnicodeEncodeError as error:
        raise Unreadable("a lone surrogate") from error
    root = _parser().parse(source).root_node
    if root.has_error:
        raise GrammarGap("the grammar does not read it")
    found: list[Statement] = []
    for node in root.named_children:
        _statement_list(node, found)
    return found


def _statement_list(node: Node, found: list[Statement]) -> None:
    if node.type == "statement_list":
        for child in node.children:
            _statement_list(child, found)
    elif node.type == "pipeline":
        _pipeline(node, found)
    elif node.type in _KEYWORD_STATEMENTS:
        found.append(Statement((tuple(_keyword(node)),)))
    elif node.type == "flow_control_statement":
        found.append(Statement((tuple(_flow(node)),)))
    elif node.type == "param_block":
        found.append(Statement((tuple(_param(node)),)))
    elif node.type not in _SKIPPED:
        raise GrammarGap(f"a {node.type}")


def _pipeline(node: Node, found: list[Statement]) -> None:
    """A pipeline's chains: ``&&`` and ``||`` end a statement, ``|`` a command."""
    commands: list[tuple[Token, ...]] = []
    for child in node.children:
        if child.type == "pipeline_chain_tail":
            if commands:
                found.append(Statement(tuple(commands)))
            commands = []
        elif child.type == "pipeline_chain":
            commands.extend(_chain(child))
        elif child.type == "assignment_expression":
            commands.extend(_assignment(child))
        elif child.type == "comment":
            continue
        else:
            commands.append(tuple(_element(child)))
    if commands:
        found.append(Statement(tuple(commands)))


def _chain(node: Node) -> list[tuple[Token, ...]]:
    """The commands of ``a | b | c``."""
    return [tuple(_element(c)) for c in node.children if c.type not in ("|", "comment")]


def _element(node: Node) -> list[Token]:
    """One command of a pipeline: a command, or a value printed into the next one."""
    if node.type == "command":
        return _command(node)
    return expression(node)


def _assignment(node: Node) -> list[tuple[Token, ...]]:
    """``$x = VALUE``: the target, ``=``, then the value's first command (the rest of its
    pipeline follows as commands of their own); another operator (``+=``) is a value."""
    target, operator, value = _three(node)
    tokens = [*expression(target)]
    if text_of(operator) != "=":
        tokens.append(Token("word", text_of(operator)))
    else:
        tokens.append(Token("op", "="))
    if value.type != "pipeline":
        return [(*tokens, *expression(value))]
    inner: list[Statement] = []
    _pipeline(value, inner)
    if len(inner) != 1:
        raise GrammarGap("a chain assigned")
    first, *rest = inner[0].commands
    return [(*tokens, *first), *rest]


def _three(node: Node) -> tuple[Node, Node, Node]:
    named = [c for c in node.children if c.type != "comment"]
    if len(named) != 3:
        raise GrammarGap("an assignment of another shape")
    return named[0], named[1], named[2]


def _command(node: Node) -> list[Token]:
    tokens: list[Token] = []
    for child in node.children:
        kind = child.type
        if kind == "command_invokation_operator":
            tokens.append(Token("op", text_of(child)))
        elif kind == "command_name":
            tokens.append(_bare(child))
        elif kind == "command_name_expr":
            tokens.extend(expression(child))
        elif kind == "command_elements":
            _elements(child, tokens)
        elif kind == "comment":
            continue
        else:
            raise GrammarGap(f"a {kind} in a command")
    return tokens


def _elements(node: Node, tokens: list[Token]) -> None:
    """A command's arguments: ``-Name:VALUE``'s value is glued to its ``-Name:``."""
    spaced = True
    for child in node.children:
        kind = child.type
        if kind == "command_argument_sep":
            if text_of(child) == ":" and tokens and tokens[-1].kind == "word":
                tokens[-1] = tokens[-1]._replace(text=tokens[-1].text + ":")
                spaced = False
            else:
                spaced = True
            continue
        if kind == "comment":
            spaced = True
            continue
        if kind == "command_parameter":
            made = [Token("word", unescape(text_of(child)))]
        elif kind == "redirection":
            made = _redirection(child)
        elif kind == "generic_token":
            made = [_bare(child)]
        else:
            made = _argument(child)
        if made and not spaced and made[0].kind in ("word", "sq", "dq", "sub", "paren"):
            if made[0].kind == "word" and tokens[-1].text.endswith(":"):  # `-Confirm:$false`
                tokens[-1] = tokens[-1]._replace(text=tokens[-1].text + made.pop(0).text)
            else:
                made[0] = made[0]._replace(glued=True)
        tokens.extend(made)
        spaced = False


def _bare(node: Node) -> Token:
    """A bare word. A quote in it starts a quoted part PowerShell reads as one word with
    the rest (``a="b c"``), and a backtick at its end escapes the space or ``;`` after it
    (``a`;b``): the grammar cuts both there, so neither is read here."""
    text = text_of(node)
    if "'" in text or '"' in text:
        raise GrammarGap("a quote inside a bare word")
    if text.endswith("`"):
        raise GrammarGap("a bare word's escaped end")
    if not _REDIRECTS.isdisjoint(text):  # `1> b`: the grammar's word, PowerShell's redirection
        raise GrammarGap("a redirection inside a bare word")
    return Token("word", unescape(text))


def _argument(node: Node) -> list[Token]:
    """An argument that is an expression; a list of bare words and numbers (``2,4``,
    ``*.cs,*.razor``) is one word, as PowerShell hands it to a program."""
    made = expression(node)
    words = [t for t in made if t.kind == "word" and not t.members]
    text = text_of(node)
    listed = len(made) > 1 and len(words) + made.count(Token("op", ",")) == len(made)
    if listed and not any(c.isspace() for c in text):
        return [Token("word", unescape(text))]
    return made


def _redirection(node: Node) -> list[Token]:
    tokens: list[Token] = []
    for child in node.children:
        if child.type in ("file_redirection_operator", "merging_redirection_operator"):
            tokens.append(Token("redir", text_of(child)))
        elif child.type == "redirected_file_name":
            for part in child.children:
                if part.type != "command_argument_sep":
                    tokens.extend(expression(part))
        else:
            raise GrammarGap(f"a {child.type} in a redirection")
    return tokens


def _keyword(node: Node) -> list[Token]:
    """``if (...) {...} else {...}``: the keyword, then each condition as a ``paren`` and
    each block as a ``block`` token (`psreader` reads each as if it ran)."""
    tokens: list[Token] = []
    for child in node.children:
        kind = child.type
        if not child.is_named:
            if kind.isalpha():
                tokens.append(Token("word", kind))
            continue
        if kind in ("pipeline", "parenthesized_expression", "param_block"):
            tokens.append(Token("paren", _inner(child, kind)))
        elif kind in _CONDITIONS:
            tokens.extend(Token("paren", text_of(c)) for c in child.named_children)
        elif kind == "switch_clause_condition":  # a block runs; a value is only compared
            text = text_of(child).strip()
            block = text.startswith("{") and text.endswith("}")
            tokens.append(Token("block", text[1:-1]) if block else Token("word", text))
        elif kind in ("statement_block", "script_block", "script_block_expression"):
            tokens.append(Token("block", _inner(child, kind)))
        elif kind in _KEYWORD_STATEMENTS:
            tokens.extend(_keyword(child))
        elif kind in ("function_name", "variable", "type_literal", "catch_type_list",
                      "switch_parameters", "switch_parameter"):  # fmt: skip
            tokens.append(Token("word", text_of(child)))
        elif kind == "comment":
            continue
        else:
            raise GrammarGap(f"a {kind} in a {node.type}")
    return tokens


def _flow(node: Node) -> list[Token]:
    """``exit 1``, ``return $x``, ``throw "x"``, ``break``: the keyword as a program, then
    its value; a value made by commands as a sub-expression, so they are read."""
    tokens: list[Token] = []
    for child in node.children:
        if not child.is_named:
            tokens.append(Token("word", child.type))
        elif child.type == "pipeline" and not _runs_commands(child):
            tokens.extend(expression(child))
        elif child.type == "pipeline":
            tokens.append(Token("sub", text_of(child)))
        elif child.type != "comment":
            tokens.append(Token("word", text_of(child)))
    return tokens


def _param(node: Node) -> list[Token]:
    """``param($x = VALUE, $y)``: ``param``, then each default value, read as if it ran."""
    tokens = [Token("word", "param")]
    stack = [node]
    while stack:
        here = stack.pop()
        if here.type == "script_parameter_default" and here.named_children:
            tokens.append(Token("paren", text_of(here.named_children[-1])))
            continue
        stack.extend(reversed(here.named_children))
    return tokens


def _runs_commands(node: Node) -> bool:
    """Whether a pipeline holds a command or an assignment (not only a value)."""
    return any(
        c.type in ("command", "assignment_expression", "pipeline_chain_tail", "|")
        or (c.type == "pipeline_chain" and _runs_commands(c))
        for c in node.children
    )


def _inner(node: Node, kind: str) -> str:
    """The text inside a node's brackets (a condition's pipeline, a block's statements)."""
    text = text_of(node)
    if kind == "statement_block" or kind == "script_block_expression":
        return text[1:-1]
    if kind == "parenthesized_expression":
        return text[1:-1]
    return text
