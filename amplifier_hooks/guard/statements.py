"""Statements the walk reads apart from plain commands: ``declare``/``export``/``local``
and ``[[ ]]``, variables set on their own, and redirections (files written and read, a
heredoc or here-string given to a command)."""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from amplifier_hooks.guard.commandpieces import Command
from amplifier_hooks.guard.grammar import KIND_ROLES, Role
from amplifier_hooks.guard.heredocruns import (
    SECRET_VARIABLE,
    backtick_scripts,
    expands,
    passed_values,
)
from amplifier_hooks.guard.programs import SHELLS, is_interpreter, normalise_program
from amplifier_hooks.guard.walk import Frame, Walk, first_command, new_tuple, record
from amplifier_hooks.guard.words import ORIGINAL, Word, node_text, read_word

__all__ = ["assignment", "assignment_word", "fed_secret", "keyword_command", "redirect_paths",
           "redirected", "substitution_input"]  # fmt: skip

_WRITE_REDIRECTS = frozenset({">", ">>", "&>", "&>>", ">|", "<>", ">&"})
_text = node_text


def keyword_command(frame: Frame, walk: Walk, push: Callable[[Frame], None]) -> None:
    """``declare``/``export``/``local``, ``unset``, ``[[ ]]``: the keyword is the program,
    given the names and options that follow; what follows is walked (its substitutions
    run, and each assignment is a command of its own: `_assignment`)."""
    node, sink, scope, writes, reads, level, stdin = frame
    level += 1
    children = node.children
    keyword = children[0] if children else None
    if node.type == "compound_statement":
        if keyword is None or keyword.type != "((":  # `{ ...; }`: its statements, walked
            for child in reversed(children):
                if child.child_count:
                    push(new_tuple(Frame, (child, sink, scope, writes, reads, level, None)))
            return
        record(walk, frame, [Word("(("), *_arithmetic(node)], writes, reads, stdin)
        for child in reversed(children):  # its substitutions run (`(( $(cmd) ))`)
            if child.child_count:
                push(new_tuple(Frame, (child, sink, scope, writes, reads, level, None)))
        return
    test = node.type == "test_command"
    words = [Word("[[" if test else _text(keyword) if keyword else "")]
    if test and keyword is not None:  # (`[`'s -eq reads numbers; its -v, a name)
        words.extend(_arithmetic(node, compares=keyword.type == "[["))
    elif node.type == "unset_command" and any(_subscripted(c) for c in children[1:]):
        words.append(Word(ARITHMETIC, True))  # `unset "a[$x]"` evaluates the subscript
    for child in children[1:]:
        if not test and child.type in ("word", "variable_name"):
            words.append(Word(_text(child)))
        elif not test and child.type == "variable_assignment":
            name = child.child_by_field_name("name")
            words.append(Word(_text(name) if name is not None else ""))
        push(new_tuple(Frame, (child, node.id, scope, writes, reads, level, None)))
    record(walk, frame, words, writes, reads, stdin)


_COMPARES = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
"""``[[ ]]``'s operators that evaluate both sides as arithmetic expressions."""
_SAFE_OPERAND = re.compile(r"\$[#?$!0-9]|\$\{#\w+\}|[0-9]+|[+-]?[0-9]+")
"""An operand whose value is a number the shell makes (``$#``, ``$?``, ``${#x}``)."""
ARITHMETIC = "$((value evaluated as arithmetic))"
"""The word standing for an arithmetic context given a value known only at run time: the
shell evaluates it as an expression, and ``a[$(cmd)]`` in it runs ``cmd`` (``read n <
f; (( n > 0 ))``, ``[[ $n -gt 0 ]]``, ``[[ "$(cat f)" -eq 1 ]]``)."""


def _arithmetic(node: Node, compares: bool = True) -> list[Word]:
    """`ARITHMETIC` when ``node`` (``(( ))``, ``[[ ]]`` or ``[ ]``) evaluates a value known
    only at run time as arithmetic: a variable of ``(( ))``, an expansion compared by
    ``-eq`` (``[[ ]]`` only: ``compares``), a subscript tested by ``-v`` (both tests)."""
    if node.type == "compound_statement":  # `(( n > 0 ))`: a name is a variable's value
        text = node_text(node)
        return [Word(ARITHMETIC, True)] if re.search(r"[A-Za-z_$`]", text) else []
    stack = list(node.children)
    while stack:
        child = stack.pop()
        if (
            compares
            and child.type == "binary_expression"
            and any(c.type == "test_operator" and node_text(c) in _COMPARES for c in child.children)
        ):
            sides = [c for c in child.children if c.is_named and c.type != "test_operator"]
            if any(_SAFE_OPERAND.fullmatch(node_text(c).strip('"')) is None for c in sides):
                return [Word(ARITHMETIC, True), *_quoted_names(sides)]
        if (
            child.type == "unary_expression"
            and any(node_text(c) == "-v" for c in child.children)
            and any(_subscripted(c) for c in child.children if c.is_named)
        ):
            return [Word(ARITHMETIC, True), *_quoted_names(child.children)]
        stack.extend(c for c in child.children if c.child_count)
    return []


def _quoted_names(operands: list[Node]) -> list[Word]:
    """The texts of the single-quoted operands that name an array element: the grammar
    sees no substitution in ``'a[$(CMD)]'``, but the test evaluates the subscript, so the
    text is given as a word and `namescripts` judges CMD (``[ -v 'a[$(CMD)]' ]``)."""
    return [Word(node_text(c)[1:-1]) for c in operands
            if c.type == "raw_string" and _subscripted(c)]  # fmt: skip


def _subscripted(node: Node) -> bool:
    """An array element named by a subscript known only at run time (``"a[$x]"``)."""
    text = node_text(node)
    return "[" in text and ("$" in text or "`" in text)


def assignment_word(node: Node, substitutions: list[Node]) -> Word:
    """``NAME=value`` as the shell assigns it (the value unquoted; dynamic when computed
    at run time)."""
    name = node.child_by_field_name("name")
    value = node.child_by_field_name("value")
    text = (_text(name) if name is not None else "") + "="
    if value is None:
        return Word(text)
    word = read_word(value, substitutions)
    return Word(text + word.text, word.dynamic)


def assignment(frame: Frame, walk: Walk, push: Callable[[Frame], None]) -> None:
    """A variable set on its own (``X=1``, or in ``export X=1``): a command of that
    assignment alone, which `unwrap` keeps only when the variable is not harmless; its
    substitutions run."""
    node, _, scope, writes, reads, level, _ = frame
    substitutions: list[Node] = []
    word = assignment_word(node, substitutions)
    for sub in reversed(substitutions):
        push(new_tuple(Frame, (sub, node.id, [scope[0]], (), (), level + 1, None)))
    record(walk, frame, [Word(word.text)], writes, reads, None)


def redirect_paths(redirect: Node, substitutions: list[Node], writes: tuple[str, ...],
                    reads: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:  # fmt: skip
    """``writes`` and ``reads`` with the path a file redirection writes or reads added; a
    descriptor copy (``2>&1``) adds none."""
    destination = redirect.child_by_field_name("destination")
    if destination is None or destination.type == "number":
        return writes, reads
    operator = next((_text(c) for c in redirect.children if not c.is_named), "")
    if _text(destination) == "-" or (operator in (">&", "<&") and _coproc_end(destination)):
        return writes, reads
    word = read_word(destination, substitutions)
    path = word.text if not word.dynamic else "$" + word.text.lstrip("$")
    if operator in _WRITE_REDIRECTS:
        return (*writes, path), reads
    return writes, (*reads, path)


def substitution_input(frame: Frame, walk: Walk, push: Callable[[Frame], None]) -> None:
    """A redirection that is a command substitution's whole script: bash reads
    ``$(< FILE)`` as ``$(cat FILE)``, so it is recorded as that command (its output is
    the file's text, and flows where the substitution's does)."""
    node, _, scope, writes, reads, level, _ = frame
    substitutions: list[Node] = []
    writes, reads = redirect_paths(node, substitutions, writes, reads)
    for sub in reversed(substitutions):
        push(new_tuple(Frame, (sub, node.id, [scope[0]], (), (), level + 1, None)))
    parent = node.parent
    program = "cat" if parent is not None and parent.type == "command_substitution" else ":"
    record(walk, frame, [Word(program)], writes, reads, None)


_COPROC_END = re.compile(r'"?\$\{(\w+)\[[01]\]\}"?')


def _coproc_end(destination: Node) -> bool:
    """``>&"${BC[1]}"`` of a ``coproc BC { bc -l; }`` in the command: a descriptor of the
    coprocess (the name's array holds its two ends), not a file; unless the coprocess is
    a shell or an interpreter, which runs what is written to it (that stays unknown)."""
    found = _COPROC_END.fullmatch(_text(destination))
    if found is None:
        return False
    name = found.group(1)
    source = (ORIGINAL.get() or b"").decode("utf-8", "replace")
    word = r"([^\s;&|(){}]+)"
    shape = rf"coproc\s+{word}" if name == "COPROC" else rf"coproc\s+{name}\s*\{{\s*{word}"
    started = re.search(shape, source)
    if started is None:
        return False
    program = normalise_program(started.group(1))
    return program not in SHELLS and not is_interpreter(program)


def _dropped_dash(source: bytes, after: int, redirect: Node) -> bool:
    """Whether the grammar left out a ``-`` between what comes before a redirection
    (``after``: the command's end, or the last redirection's) and it: it reads ``cmd -
    <<EOF`` as ``cmd <<EOF`` and ``cmd - 2>/dev/null x`` as ``cmd 2>/dev/null x``, but the
    ``-`` is an argument (``make -f -``: the Makefile is the heredoc; ``--output -``)."""
    return source[after : redirect.start_byte].strip() == b"-"


def redirected(frame: Frame, push: Callable[[Frame], None], walk: Walk) -> None:
    """A statement with redirections: they apply to every command in its body; a heredoc
    is the body's input (a script, for a shell)."""
    node, sink, scope, writes, reads, level, _ = frame
    level += 1
    roles = KIND_ROLES
    body = whole = node.child_by_field_name("body")
    earlier: list[Node] = []
    if body is not None and body.type == "list":
        body, earlier = _input_taker(body)
    later: list[Node] = []
    body_sink = sink
    script: str | None = None
    extras: list[Node | Word] = []
    after = body.end_byte if body is not None else node.start_byte
    for child in node.children:
        if whole is not None and child.id == whole.id:
            continue
        role = roles.get(child.kind_id, Role.OTHER)
        dash = body is not None and _dropped_dash(walk.source, after, child)
        after = child.end_byte
        if role == Role.FILE_REDIRECT:
            writes, reads = redirect_paths(child, later, writes, reads)
            if dash:
                extras.append(Word("-"))
            extras.extend(child.children_by_field_name("destination")[1:])
        elif role == Role.HEREDOC:
            if dash:
                extras.append(Word("-"))
            expanded = False
            for index, part in enumerate(child.children):
                kind = roles.get(part.kind_id, Role.OTHER)
                if child.field_name_for_child(index) == "argument":
                    extras.append(part)  # `cmd <<EOF -x y`: words on the heredoc's line
                elif part.type == "heredoc_start":
                    expanded = expands(_text(part))
                elif kind == Role.HEREDOC_BODY:
                    script = _text(part)
                    later.append(part)
                    if expanded:
                        for ran in backtick_scripts(script):
                            # the grammar keeps them text; bash runs them (`heredocruns`)
                            runs = Command(_text(child), (Word("eval"), Word(ran)), (), (),
                                           scope[0])  # fmt: skip
                            walk.commands.append((part.id, runs, None))
                        fed_secret(walk, child, script, _fed(body, sink), scope[0])
                elif kind == Role.FILE_REDIRECT:  # `cat <<EOF > .env`: on the heredoc's line
                    writes, reads = redirect_paths(part, later, writes, reads)
                    extras.extend(part.children_by_field_name("destination")[1:])
                elif kind == Role.PIPELINE and part.children and roles.get(
                    part.children[0].kind_id) == Role.PIPE:  # fmt: skip
                    head = first_command(part)
                    body_sink = head.id if head is not None else sink
                    later.append(part)
                elif part.is_named and part.type not in ("heredoc_start", "heredoc_end"):
                    later.append(part)
        elif role == Role.HERESTRING:
            later.append(child)
            script = " ".join(_text(c) for c in child.named_children)
            if any(c.type != "raw_string" for c in child.named_children):
                fed_secret(walk, child, script, _fed(body, sink), scope[0])
        else:
            later.append(child)
    if extras:
        # bash gives a redirection one word; the grammar hangs the words after it on the
        # redirection, and they are the command's arguments (`rm 2>/dev/null -rf ~`)
        if body is not None and roles.get(body.kind_id) == Role.SIMPLE:
            walk.extra_args[body.id] = extras
        else:  # after a compound command they are a syntax error to bash
            walk.errors = True
    for extra in reversed(later):
        push(new_tuple(Frame, (extra, sink, scope, frame.writes, frame.reads, level, None)))
    if body is None:
        # A redirection with no command (`> ~/.bashrc`) still truncates or reads its file.
        bare = Command(_text(node), (Word(":"),), writes, reads, scope[0])
        walk.commands.append((node.id, bare, sink))
        return
    push(
        new_tuple(
            Frame,
            (
                body,
                body_sink,
                scope,
                writes,
                reads,
                level,
                script if roles.get(body.kind_id) == Role.SIMPLE else None,
            ),
        )
    )
    for part in reversed(earlier):  # walked first: `cd infra && python - <<EOF`
        push(new_tuple(Frame, (part, sink, scope, frame.writes, frame.reads, level, None)))


def _input_taker(body: Node) -> tuple[Node, list[Node]]:
    """The command the redirections on a list's line belong to, and the list's commands
    before it. The grammar hangs ``a && b <<EOF`` and ``a || b >> f`` on the whole list;
    bash gives the heredoc, the here-string and the redirections to ``b`` alone, the last
    command."""
    roles = KIND_ROLES
    parts = [c for c in body.children if c.is_named]
    if not parts or roles.get(parts[-1].kind_id) != Role.SIMPLE:
        return body, []
    return parts[-1], parts[:-1]


def _fed(body: Node | None, sink: int | None) -> Node | int | None:
    """The command a statement's heredoc feeds: its body, when that is a simple command."""
    return body if body is not None and KIND_ROLES.get(body.kind_id) == Role.SIMPLE else sink


def fed_secret(walk: Walk, node: Node, text: str, feeds: Node | int | None,
               cwd: str | None) -> None:  # fmt: skip
    """A heredoc or here-string (``node``) whose expanded ``text`` names a secret's
    variable, recorded as ``echo TEXT`` feeding the command ``feeds`` (`heredocruns`):
    ``cat <<< "$GITHUB_TOKEN"`` is judged as ``echo "$GITHUB_TOKEN" | cat``. A shell or an
    interpreter given it reads it as its script, which is judged as one already. A text
    that expands another variable is recorded as the echo of its variables alone
    (`heredocruns.passed_values`: never granted, as ``echo "$DB_PASS"`` is not)."""
    if "$" not in text:
        return
    secret = SECRET_VARIABLE.search(text) is not None
    values = None if secret else passed_values(text)
    if not secret and values is None:
        return
    if isinstance(feeds, Node):
        name = feeds.child_by_field_name("name")
        if name is None or is_interpreter(normalise_program(_text(name))):
            return
        feeds = feeds.id
    shown = Word(" ".join(text.split()) if values is None else values, True)
    walk.commands.append((node.id, Command(_text(node), (Word("echo"), shown), (), (), cwd),
                          feeds))  # fmt: skip
