"""One shell word expanded as bash expands it, where every part of it is certain: the
words `evaluate` passes to the command it judges.

Quotes, escapes, ``~``, ``$NAME``, ``${NAME...}`` (defaults, assignments, lengths,
substrings, pattern removal and replacement, case changes, indirection, arrays),
``$(...)`` and backticks (their output, when `evaluate` can tell it), brace lists and
splitting on ``IFS`` (`evalscope`). What only the running shell knows raises `Unknown`:
the word, and the command it is in, then stay as the guard read them before (never
granted).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.braces import expand_braces
from amplifier_hooks.guard.evalscope import (
    MAX_TEXT,
    PARAMETER,
    Scope,
    Unknown,
    parameter_text,
    parameter_values,
    split_ifs,
)
from amplifier_hooks.guard.evaltext import (
    ansi_end,
    closing_brace,
    closing_paren,
    closing_quote,
    remove_pattern,
    replace_pattern,
    split_replace,
)
from amplifier_hooks.guard.words import decode_ansi_c

__all__ = ["Segment", "brace_command", "expand_string", "expand_word"]

Segment = tuple[str, bool]
"""Text and whether it is quoted (kept literal: never split, never a pattern)."""


class _Fields:
    """The fields a word becomes, built part by part."""

    def __init__(self) -> None:
        self.done: list[list[Segment]] = []
        self.current: list[Segment] = []
        self.kept = False  # (a quoted part, even empty, makes the field)

    def add(self, text: str, quoted: bool) -> None:
        self.current.append((text, quoted))
        self.kept = self.kept or quoted

    def split(self, text: str, ifs: str) -> None:
        """Unquoted expansion: split on IFS."""
        parts = split_ifs(text, ifs, keep_edges=True)
        for index, part in enumerate(parts):
            if index:
                self.close()
            if part:
                self.add(part, False)

    def close(self) -> None:
        if self.kept or any(t for t, _ in self.current):
            self.done.append(self.current)
        self.current, self.kept = [], False

    def result(self) -> list[list[Segment]]:
        self.close()
        return self.done


def expand_word(raw: str, scope: Scope, assignment: bool = False) -> list[list[Segment]]:
    """The fields of the word written ``raw``, each as its segments."""
    words = [raw]
    if "{" in raw and not any(c in raw for c in "'\"$`\\"):
        words = expand_braces(raw)
        scope.computed = scope.computed or len(words) > 1
    fields = _Fields()
    for index, word in enumerate(words):
        if index:
            fields.close()
        _Reader(word, scope, fields, quoted=False, assignment=assignment).read()
    return fields.result()


def brace_command(text: str, scope: Scope) -> list[list[Segment]] | None:
    """The fields of a command that is one brace list of plain words (``{rm,-rf,~}``),
    which the grammar does not read and bash expands into the command's words."""
    text = text.strip()
    if not (text.startswith("{") and text.endswith("}") and "," in text):
        return None
    if any(c in text for c in " \t\n;&|<>()$`'\"\\"):
        return None
    fields = expand_word(text, scope)
    return fields if len(fields) > 1 else None


def expand_string(raw: str, scope: Scope, tilde: bool = True) -> str:
    """``raw`` expanded as one string (an assignment's value, an operator's word)."""
    fields = _Fields()
    _Reader(raw, scope, fields, quoted=False, assignment=tilde, joined=True).read()
    return " ".join("".join(t for t, _ in f) for f in fields.result())


class _Reader:
    """A scan of one word's text."""

    def __init__(self, text: str, scope: Scope, fields: _Fields, quoted: bool,
                 assignment: bool = False, joined: bool = False) -> None:  # fmt: skip
        self.text, self.scope, self.fields = text, scope, fields
        self.quoted, self.assignment, self.joined = quoted, assignment, joined
        self.at = 0

    def read(self) -> None:
        text = self.text
        if not self.quoted and text.startswith("~"):
            end = text.find("/")
            head = text[1:] if end < 0 else text[1:end]
            if head:
                raise Unknown("~user")
            self.fields.add(self.scope.home, True)
            self.at = 1
        while self.at < len(text):
            char = text[self.at]
            if char == "\\":
                self._escape()
            elif char == "'" and not self.quoted:
                end = text.find("'", self.at + 1)
                if end < 0:
                    raise Unknown("quote")
                self.fields.add(text[self.at + 1 : end], True)
                self.at = end + 1
            elif char == '"' and not self.quoted:
                self._double()
            elif char == "$":
                self._dollar()
            elif char == "`":
                self._backtick()
            else:
                start = self.at
                stops = "\\$`" if self.quoted else "\\'\"$`"
                self.at += 1  # (this character is none of them, or a quote inside quotes)
                while self.at < len(text) and text[self.at] not in stops:
                    self.at += 1
                chunk = text[start : self.at]
                if self.quoted:
                    self.fields.add(chunk, True)
                elif self.assignment and ":~" in chunk:
                    self.fields.add(chunk.replace(":~", ":" + self.scope.home), False)
                else:
                    self.fields.add(chunk, False)

    def _escape(self) -> None:
        nxt = self.text[self.at + 1 : self.at + 2]
        self.at += 2
        if nxt == "\n":
            return
        if self.quoted and nxt not in ("$", "`", '"', "\\"):
            self.fields.add("\\" + nxt, True)
        else:
            self.fields.add(nxt, True)

    def _double(self) -> None:
        end = closing_quote(self.text, self.at + 1)
        inner = self.text[self.at + 1 : end]
        self.at = end + 1
        self.fields.add("", True)
        _Reader(inner, self.scope, self.fields, quoted=True, joined=self.joined).read()

    def _put(self, value: str) -> None:
        if len(value) > MAX_TEXT:
            raise Unknown("too long")
        self.scope.computed = True
        if self.quoted or self.joined:
            self.fields.add(value, True)
        else:
            self.fields.split(value, self.scope.ifs)

    def _put_list(self, values: tuple[str, ...], star: bool) -> None:
        """``$@``, ``${a[@]}`` (a field each when quoted), ``$*``, ``${a[*]}``."""
        self.scope.computed = True
        if star or self.joined:
            ifs = self.scope.ifs
            self._put((ifs[:1] if star else " ").join(values))
            return
        if not self.quoted:
            for index, value in enumerate(values):
                if index:
                    self.fields.close()
                self.fields.split(value, self.scope.ifs)
            return
        for index, value in enumerate(values):
            if index:
                self.fields.close()
            self.fields.add(value, True)
        if not values:
            self.fields.kept = False  # `"$@"` of nothing is no field

    def _dollar(self) -> None:
        text, at = self.text, self.at
        nxt = text[at + 1 : at + 2]
        if nxt == "'" and not self.quoted:
            end = ansi_end(text, at + 2)
            self.fields.add(decode_ansi_c(text[at : end + 1]), True)
            self.at = end + 1
        elif nxt == "(" and text[at + 2 : at + 3] == "(":
            raise Unknown("arithmetic")
        elif nxt == "(":
            end = closing_paren(text, at + 2)
            self.at = end + 1
            self._put(self.scope.substitute(text[at + 2 : end]).rstrip("\n"))
        elif nxt == "{":
            end = closing_brace(text, at + 2)
            self.at = end + 1
            self._parameter(text[at + 2 : end])
        else:
            found = re.match(r"[A-Za-z_]\w*|[0-9@*#?$!-]", text[at + 1 :])
            if found is None:
                self.fields.add("$", self.quoted)
                self.at += 1
                return
            self.at += 1 + found.end()
            self._name(found.group(), None)

    def _backtick(self) -> None:
        end = self.text.find("`", self.at + 1)
        while end > 0 and self.text[end - 1] == "\\":
            end = self.text.find("`", end + 1)
        if end < 0:
            raise Unknown("backtick")
        inner = re.sub(r"\\([`$\\])", r"\1", self.text[self.at + 1 : end])
        self.at = end + 1
        self._put(self.scope.substitute(inner).rstrip("\n"))

    def _name(self, name: str, index: str | None) -> None:
        """``$name``, ``${name}``, ``${name[index]}``."""
        scope = self.scope
        if name in ("@", "*") or index in ("@", "*"):
            values = parameter_values(scope, name, index)
            self._put_list(values, star="*" in (name, index))
            return
        self._put(parameter_text(scope, name, index))

    def _parameter(self, body: str) -> None:
        found = PARAMETER.match(body)
        if found is None:
            raise Unknown("parameter")
        prefix, name, index, rest = found.group("prefix", "name", "index", "rest")
        scope = self.scope
        if prefix == "#" and not rest:
            if name in ("@", "*") or index in ("@", "*"):
                self._put(str(len(parameter_values(scope, name, index))))
            else:
                self._put(str(len(parameter_text(scope, name, index))))
            return
        if prefix == "!":
            if rest or index is not None:
                raise Unknown("indirection")
            target = parameter_text(scope, name, None)
            if re.fullmatch(r"[A-Za-z_]\w*|[0-9]+", target) is None:
                raise Unknown("indirection")
            name = target
        elif prefix:
            raise Unknown("parameter")
        if not rest:
            self._name(name, index)
            return
        op = re.match(r":[-=+?]|[-=+?]|##|#|%%|%|//|/#|/%|/|\^\^|\^|,,|,|:|@", rest)
        if op is None:
            raise Unknown("operator")
        word = rest[op.end() :]
        self._operator(name, index, op.group(), word)

    def _operator(self, name: str, index: str | None, op: str, word: str) -> None:
        scope = self.scope
        if op in (":-", "-", ":=", "=", ":+", "+", ":?", "?"):
            is_set = scope.has(name) if index is None else None
            value = scope.lookup(name) if is_set else None
            if is_set and index is not None:
                raise Unknown("array operator")
            text = value if isinstance(value, str) else None
            if is_set and text is None and isinstance(value, tuple):
                text = value[0] if value else ""
            empty = text == "" if text is not None else None
            uses_word = (is_set is False) or (op.startswith(":") and empty is True)
            if is_set and text is not None and not uses_word:
                if op[-1] == "+":
                    self._put(expand_string(word, scope))
                else:
                    self._put(text)
                return
            if uses_word:
                if op[-1] in "-=":
                    text = expand_string(word, scope)
                    if op[-1] == "=":
                        scope.assign(name, text)
                    self._put(text)
                elif op[-1] == "+":
                    self._put("")
                else:
                    raise Unknown("unset")
                return
            # the variable may be set (to a value not known): its default is one it can take
            if op[-1] in "-=":
                scope.guessed = True
                text = expand_string(word, scope)
                if op[-1] == "=":
                    scope.assign(name, text)
                self._put(text)
                return
            raise Unknown("unknown variable")
        text = parameter_text(scope, name, index)
        if op == ":":
            self._put(_substring(text, word, scope))
        elif op in ("#", "##", "%", "%%"):
            self._put(remove_pattern(text, op, expand_string(word, scope, tilde=True)))
        elif op in ("/", "//", "/#", "/%"):
            pattern, _, replacement = split_replace(word)
            self._put(replace_pattern(text, op, expand_string(pattern, scope),
                               expand_string(replacement, scope)))  # fmt: skip
        elif op in ("^", "^^", ",", ",,"):
            if word:
                raise Unknown("case pattern")
            upper = op[0] == "^"
            whole = len(op) == 2
            changed = (
                (text.upper() if upper else text.lower())
                if whole
                else ((text[:1].upper() if upper else text[:1].lower()) + text[1:])
            )
            self._put(changed)
        else:
            raise Unknown("transform")


def _substring(text: str, word: str, scope: Scope) -> str:
    offset, colon, length = word.partition(":")
    try:
        start = int(expand_string(offset, scope).strip() or "0")
        count = int(expand_string(length, scope).strip()) if colon else None
    except ValueError as exc:
        raise Unknown("offset") from exc
    if start < 0:
        start = max(len(text) + start, 0)
    if count is None:
        return text[start:]
    end = start + count if count >= 0 else len(text) + count
    return text[start:end]
