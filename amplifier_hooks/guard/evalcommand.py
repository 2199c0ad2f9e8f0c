"""A simple command's parts as bash reads them, for `evaluate`: its words expanded
(`evalwords`), with those a redirection before them took (``cmd 2>/dev/null ARGS``), the
assignments before it (``NAME=value cmd``), the input a here-string gives it, and whether a
redirection sends its output elsewhere or reads its input from a file."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from tree_sitter import Node

from amplifier_hooks.guard.evalassign import node_text
from amplifier_hooks.guard.evalresult import render
from amplifier_hooks.guard.evalscope import Scope, Unknown
from amplifier_hooks.guard.evalwords import Segment, expand_string, expand_word

__all__ = ["CommandParts", "Fields", "command_parts", "hung_words", "rendered_redirects"]

Fields = list[list[Segment]]


class CommandParts(NamedTuple):
    fields: Fields
    stdin: str | None
    """What the command is given on its input (None: unknown)."""
    prefix: dict[str, str]
    """The assignments before it, set for it alone."""
    redirected: bool
    """A file or here-document redirection: where its output goes, or what it reads, is
    not known."""


def command_parts(node: Node, source: bytes, scope: Scope, hung: list[Node],
                  stdin: str | None, process: Callable[[str], str]) -> CommandParts:  # fmt: skip
    """The parts of the ``command`` node ``node``, given ``stdin`` (a here-string's text
    replaces it) and the words ``hung`` after an outer redirection; ``process`` gives the
    name bash passes for a ``<(...)``."""
    fields: Fields = []
    prefix: dict[str, str] = {}
    redirected = False
    for child in node.named_children:
        kind = child.type
        if kind == "variable_assignment":
            value = child.child_by_field_name("value")
            name = child.child_by_field_name("name")
            if name is not None:
                written = node_text(value, source)
                prefix[node_text(name, source)] = expand_string(written, scope)
        elif kind == "herestring_redirect":
            part = child.named_children[-1] if child.named_children else None
            stdin = expand_string(node_text(part, source), scope) + "\n" if part else None
        elif kind in ("file_redirect", "heredoc_redirect"):
            redirected = True
            for extra in child.children_by_field_name("destination")[1:]:
                fields += expand_word(node_text(extra, source), scope)  # `2>/dev/null ARG`
        elif kind == "process_substitution":
            fields.append([(process(node_text(child, source)), True)])
        else:
            fields += expand_word(node_text(child, source), scope)
    for extra in hung:
        fields += expand_word(node_text(extra, source), scope)
    return CommandParts(fields, stdin, prefix, redirected)


def hung_words(node: Node) -> list[Node]:
    """The words after a ``redirected_statement``'s targets (``cmd 2>/dev/null ARGS``):
    the command's, though the grammar hangs them on the redirection."""
    return [
        extra
        for redirect in node.children_by_field_name("redirect")
        for extra in redirect.children_by_field_name("destination")[1:]
    ]


def rendered_redirects(node: Node, source: bytes, scope: Scope) -> str:
    """The file redirections of a ``redirected_statement`` as bash would open them,
    written for the parse (``> /home/d/.claude/settings.json``): a command the evaluation
    gives keeps where its output goes (`Unknown` where the target is not one known name)."""
    out: list[str] = []
    for redirect in node.children_by_field_name("redirect"):
        if redirect.type != "file_redirect":
            continue
        targets = redirect.children_by_field_name("destination")
        if not targets:
            continue
        operator = source[redirect.start_byte : targets[0].start_byte].decode("utf-8", "replace")
        fields = expand_word(node_text(targets[0], source), scope)
        if len(fields) != 1:
            raise Unknown("redirection target")
        out.append(f"{operator.strip()} {render(fields[0])}")
    return " ".join(out)
