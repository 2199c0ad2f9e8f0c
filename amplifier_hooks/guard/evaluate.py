"""A partial evaluator of a shell command: the commands it amounts to where bash makes
them certain, though the words name them only through the shell.

``R=rm; $R -rf ~``, ``$(which rm) -rf ~``, ``cmd=(rm -rf ~); "${cmd[@]}"``, ``set -- rm
-rf ~; "$@"``, ``eval "$a$b"``, ``bash -c '"$@"' _ rm -rf ~``, ``f(){ rm -rf "$1"; }; f
~``, ``rm -rf "${PWD%/*}"``: the parse sees a program or a path only known when the
shell runs; this module runs the shell's part of it (variables, positional parameters,
functions, ``cd``, ``read``, ``printf -v``, ``eval``, ``sh -c``, and the output of
``echo``, ``printf``, ``which``, ``pwd``, ``dirname``...), never a program, and gives each
command whose words it computed as the words bash passes (`evalwords`). Anything it
cannot tell stops that command's evaluation (the parse's reading stays). Bounded: at most
`MAX_STEPS` commands, `MAX_DEPTH` nested scripts, `MAX_EMITTED` commands given.
"""

from __future__ import annotations

import posixpath
import re
from contextlib import suppress
from dataclasses import replace

from tree_sitter import Node

from amplifier_hooks.guard.evalassign import (
    UNSEEN,
    assignment,
    declaration,
    forget,
    joined,
    node_text,
    unknown_after,
    unseen,
)
from amplifier_hooks.guard.evalcommand import Fields, command_parts, hung_words, rendered_redirects
from amplifier_hooks.guard.evalfeeds import (
    arg_file,
    env_command,
    function_definition,
    shell_call,
    xargs_commands,
)
from amplifier_hooks.guard.evaloutput import output_of
from amplifier_hooks.guard.evalresult import Emitted, Evaluation, is_pattern, render
from amplifier_hooks.guard.evalscope import UNSET, Scope, Unknown
from amplifier_hooks.guard.evalshell import ShellState
from amplifier_hooks.guard.evalstate import STATE, change_state
from amplifier_hooks.guard.evalwords import brace_command
from amplifier_hooks.guard.lonedollars import bash_tree
from amplifier_hooks.guard.namescripts import NAME_TAKERS, name_scripts
from amplifier_hooks.guard.programs import SHELLS

__all__ = ["MAX_DEPTH", "MAX_EMITTED", "MAX_STEPS", "Emitted", "Evaluation", "evaluate",
           "render"]  # fmt: skip

MAX_STEPS = 200
MAX_DEPTH = 8
MAX_EMITTED = 32


class _Stop(Exception):
    """The budget ran out."""


def evaluate(command: str, cwd: str, home: str) -> Evaluation:
    """What ``command`` amounts to, run from ``cwd`` with the home folder ``home``."""
    shell = _Shell(Scope(home=home, cwd=cwd, substitute=lambda _: ""))
    # (what was found before a stop stays: each command is judged on its own)
    with suppress(Unknown, _Stop, RecursionError, re.error, ValueError, IndexError):
        shell.script(command, 0)
    return shell.result


class _Shell(ShellState):
    """The shell's own part of a script run (`ShellState`: what it holds)."""

    def __init__(self, scope: Scope) -> None:
        super().__init__(scope)
        scope.substitute = self._substitute

    # -- statements ----------------------------------------------------------------------

    def script(self, text: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise Unknown("too deep")
        root, source = bash_tree(text.encode("utf-8", "replace"))
        saved = self.depth
        self.depth = depth
        try:
            if root.has_error:
                self._braced(source)
                raise Unknown("syntax")
            self._node(root, source)
        finally:
            self.depth = saved

    def _braced(self, source: bytes) -> None:
        """``{rm,-rf,~}``: a brace list alone as a command (`evalwords.brace_command`)."""
        fields = brace_command(source.decode("utf-8", "replace"), self.scope)
        if fields is not None:
            self._run(joined(fields), fields, True, None, {})

    def _node(self, node: Node, source: bytes) -> None:
        kind = node.type
        if kind in ("program", "compound_statement", "do_group"):
            for child in node.named_children:
                self._statement(child, source)
        elif kind == "list":
            self._list(node, source)
        elif kind == "subshell":
            self._apart(node.named_children, source, None)
        elif kind == "pipeline":
            fed: str | None = None
            parts = node.named_children
            for index, child in enumerate(parts):  # (only the last part's output is the line's)
                if fed is not None and self.origin is None:  # (a known text given to it)
                    self.result.fed[node_text(child, source)] = node_text(parts[index - 1], source)
                fed = self._apart([child], source, fed, feeds=index < len(parts) - 1)
        elif kind == "redirected_statement":
            body = node.child_by_field_name("body")
            if body is None:  # `$(<FILE)`: the file's text
                raise Unknown("redirection")
            self.hung = hung_words(node)
            redirects = self.redirects
            try:  # (a target not known stops only the commands given under it: `emit`)
                own: str | None = rendered_redirects(node, source, self.scope)
            except Unknown:
                own = None
            self.redirects = (
                None if own is None or redirects is None else f"{redirects} {own}".strip()
            )
            try:
                self._node(body, source)
            finally:
                self.redirects = redirects
            if any(
                c.type != "herestring_redirect" for c in node.children_by_field_name("redirect")
            ):
                self.capture = None  # (its output may go elsewhere, or its input is unknown)
        elif kind in ("variable_assignment", "variable_assignments"):
            for each in [node] if kind == "variable_assignment" else node.named_children:
                assignment(self.scope, each, source)
        elif kind == "declaration_command":
            declaration(self.scope, node, source)
        elif kind == "unset_command":
            for child in node.named_children:
                self.scope.assign(node_text(child, source), UNSET)
        elif kind == "function_definition":
            name = node.child_by_field_name("name")
            body = node.child_by_field_name("body")
            if name is not None and body is not None:
                self.functions[node_text(name, source)] = (source, body, self.nested)
        elif kind == "command":
            self._command(node, source)
        elif kind in ("if_statement", "while_statement", "case_statement", "for_statement",
                      "c_style_for_statement", "negated_command", "elif_clause",
                      "else_clause", "case_item"):  # fmt: skip
            variable = node.child_by_field_name("variable")
            if variable is not None:  # `for NAME in ...`: each value in turn, not followed
                self.scope.assign(node_text(variable, source), None)
            self._maybe(lambda: self._children(node, source))
        elif kind in ("comment", "test_command", "heredoc_body"):
            return
        else:
            raise Unknown(kind)

    def _statement(self, node: Node, source: bytes) -> None:
        """One statement of a sequence: where it cannot be evaluated, the next ones still
        are (what it may have set is then unknown: `_forget`), but a substitution's output
        is unknown."""
        try:
            self._node(node, source)
        except Unknown:
            self.unknowns += 1
            self.capture = None  # (what it printed is not known)

    def _children(self, node: Node, source: bytes) -> None:
        for child in node.named_children:
            if child.type not in ("variable_name", "word", "string", "simple_expansion",
                                  "expansion", "concatenation", "raw_string"):  # fmt: skip
                self._node(child, source)

    def _list(self, node: Node, source: bytes) -> None:
        left, *rest = node.children
        self._statement(left, source)
        operator = ""
        for child in rest:
            if not child.is_named:
                operator = child.type
                continue
            if operator == "||":
                self._maybe(lambda c=child: self._node(c, source))
            else:
                self._statement(child, source)

    def _apart(self, nodes: list[Node], source: bytes, fed: str | None,
               script: str | None = None, feeds: bool = False) -> str | None:  # fmt: skip
        """A subshell, a pipeline's part or a substitution's ``script``, given ``fed`` on
        its input (None: unknown): its changes do not last; its output (None: unknown),
        which is this shell's too unless it ``feeds`` the next part or is substituted."""
        scope, functions, capture, stdin = (
            self.scope,
            dict(self.functions),
            self.capture,
            self.stdin,
        )
        self.scope = replace(scope, variables=dict(scope.variables))
        self.capture, self.stdin = [], fed
        output: str | None = None
        try:
            if script is not None:
                self.script(script, self.depth + 1)
            for node in nodes:
                self._statement(node, source)
            output = None if self.capture is None else "".join(self.capture)
        except Unknown:
            self.unknowns += 1
            output = None
        finally:
            scope.guessed = scope.guessed or self.scope.guessed
            self.scope, self.functions, self.capture, self.stdin = scope, functions, capture, stdin
        if self.capture is not None and script is None and not feeds:
            if output is None:
                self.capture = None
            else:
                self.capture.append(output)
        return output

    def _maybe(self, run: object) -> None:
        """Run what may or may not run: what it changes is unknown after it."""
        scope = self.scope
        before = dict(scope.variables), scope.args, scope.cwd
        self.scope = replace(scope, variables=dict(scope.variables))
        try:
            run()  # type: ignore[operator]
        except Unknown:
            self.unknowns += 1
            self.capture = None
        finally:
            unknown_after(scope, before, self.scope)
            self.scope = scope

    def _command(self, node: Node, source: bytes) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS or len(self.result.commands) >= MAX_EMITTED:
            raise _Stop
        top, before, whole = self.origin is None, self.unknowns, False
        if top:
            self.origin = node_text(node, source)
        try:
            self._simple(node, source)
            whole = True
        except Unknown:
            self.unknowns += 1
            forget(self.scope, node, source)
            raise
        finally:
            if top:  # (a command of the line: what it emitted is all it runs, or not)
                if not whole or self.unknowns != before:
                    self.result.partial.add(self.origin or "")
                self.origin = None

    def _simple(self, node: Node, source: bytes) -> None:
        self.scope.computed = False
        stdin, self.stdin = self.stdin, None  # (the first command given the input reads it)
        hung, self.hung = self.hung, []
        parts = command_parts(node, source, self.scope, hung, stdin, self._process)
        if parts.redirected:
            self.capture = None  # (where its output goes, or what it reads, is not known)
        words = joined(parts.fields)
        if words:
            self._run(words, parts.fields, self.scope.computed, parts.stdin, parts.prefix)

    def _run(self, words: list[str], fields: Fields, computed: bool, stdin: str | None,
             prefix: dict[str, str]) -> None:  # fmt: skip
        scope = self.scope
        program, args = words[0], words[1:]
        name = posixpath.basename(program)
        if computed and program in NAME_TAKERS:  # `read "$1"`, $1 `a[$(CMD)]`: runs CMD
            for script in name_scripts(program, tuple(args)):
                self._nested(script, unread=True)
        if program in self.functions:
            self._call(program, tuple(args))
        elif program in (":", "true"):
            return
        elif program in STATE and change_state(scope, program, args, stdin, prefix):
            self.moved = self.moved or (computed and program in ("cd", "pushd"))
        elif program == "eval":
            self._nested(" ".join(args), unread=computed)
        elif name in SHELLS and (call := shell_call(args)) is not None:
            self._shell(call.script, call.zero, call.args, unread=computed)
        elif name in SHELLS and stdin is not None and all(a.startswith("-") for a in args):
            self.result.scripted[self.origin or ""] = stdin
            self._nested(stdin, unread=True)  # `echo CMD | bash`: the script is its input
        elif program in (".", "source") and args and args[0] in self.fds:
            self._nested(self.fds[args[0]], unread=True)
        elif program in UNSEEN:
            unseen(scope)  # `source FILE`: a script not read, run in this shell
        elif name in SHELLS and args and args[0] in self.fds:
            self._shell(self.fds[args[0]], args[0], tuple(args[1:]), unread=True)
        elif name == "xargs" and (fed := arg_file(args, self.fds)) is not None:
            self._run(words[:1] + fed[0], fields[:1] + [[(w, True)] for w in fed[0]], computed,
                      fed[1], prefix)  # fmt: skip
        elif name == "xargs" and stdin is not None and (runs := xargs_commands(args, stdin)):
            for each in runs:
                self._run(each, [[(w, True)] for w in each], True, None, {})
        elif name == "env" and (found := env_command(args, scope)) is not None:
            exported = dict(self.exported)
            for function, text in found[1].items():
                self.exported[function] = (*function_definition(text), True)
            try:
                self._run(found[0], [[(w, True)] for w in found[0]], True, stdin, {})
            finally:
                self.exported = exported
        else:
            self._external(words, fields, computed, stdin)

    def _external(self, words: list[str], fields: Fields, computed: bool,
                  stdin: str | None) -> None:  # fmt: skip
        """A program run: its output, where it is wanted and known; itself given where
        its words were computed (or its program is a pattern)."""
        if self.capture is not None:
            text = output_of(words, self.scope, stdin)
            if text is None:
                self.capture = None
            else:
                self.capture.append(text)
        if computed or self.nested or self.moved or is_pattern(fields[0]):
            self.emit(fields)

    def _nested(self, script: str, unread: bool) -> None:
        """A script run in this shell; ``unread``: one the parse did not read (computed),
        whose every command is then given."""
        nested, self.nested = self.nested, self.nested or unread
        try:
            self.script(script, self.depth + 1)
        finally:
            self.nested = nested

    def _call(self, name: str, args: tuple[str, ...]) -> None:
        if name in self.calling:  # `:(){ :|:& };:` forks without end: nothing to work out
            raise Unknown("a function that calls itself")
        source, body, unread = self.functions[name]
        scope = self.scope
        saved, nested = scope.args, self.nested
        scope.args, self.nested = args, nested or unread
        self.calling.append(name)
        try:
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise Unknown("too deep")
            self._node(body, source)
        finally:
            self.depth -= 1
            self.calling.pop()
            scope.args, self.nested = saved, nested

    def _shell(self, script: str, zero: str, args: tuple[str, ...], unread: bool) -> None:
        """A script run by a new shell: no variable or function of this one but those
        exported (the environment's)."""
        outer = self.scope
        inner = Scope(home=outer.home, cwd=outer.cwd, substitute=self._substitute, args=args,
                      zero=zero, guessed=outer.guessed)  # fmt: skip
        functions = self.functions
        self.scope, self.functions = inner, dict(self.exported)
        try:
            self._nested(script, unread)
        finally:
            outer.guessed = self.scope.guessed
            self.scope, self.functions = outer, functions

    def _process(self, written: str) -> str:
        """``<(script)``: the name bash passes, whose content is the script's output."""
        if not written.startswith("<("):
            raise Unknown("output process")
        output = self._apart([], b"", None, written[2:-1])
        if output is None:
            raise Unknown("output")
        name = f"/dev/fd/{63 - len(self.fds)}"
        self.fds[name] = output
        self.scope.computed = True
        return name

    def _substitute(self, script: str) -> str:
        """The output of ``$(script)``: its commands run in a copy of this shell."""
        output = self._apart([], b"", None, script)
        if output is None:
            raise Unknown("output")
        return output
