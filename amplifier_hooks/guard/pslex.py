"""PowerShell's command text split by hand, where the grammar (`pstree`) cannot say what a
piece is: statements, the commands of a pipeline, and each command's tokens (bare words,
quoted strings, ``-Parameter``s, script blocks, sub-expressions, .NET type names and member
calls, redirections). A reading split here is never a grant (`psreader`).

tree-sitter-powershell 0.26.x errs on much of PowerShell's argument mode (a variable glued
to a path, ``$HOME\\.ssh``; a list across spaces; ``--``; ``--name=value``); this lexer
reads those as PowerShell does, so the rules still judge their places. A backtick escapes
the next character (``R`e`m`o`v`e-I`t`e`m`` is ``Remove-Item``: outside quotes `` `t `` is a
``t``); PowerShell's curly quotes are quotes. Anything this lexer cannot close (an
unbalanced brace or quote) makes the text unreadable: the caller then grants nothing."""

from __future__ import annotations

from amplifier_hooks.guard.pstokens import Statement, Token, Unreadable

__all__ = ["statements"]

_SINGLE = "'\u2018\u2019\u201a\u201b"
_DOUBLE = '"\u201c\u201d\u201e'
_ENDS = frozenset(" \t\r\n;|&(){}<>")
"""A bare word ends at a space, a separator, or a redirection (`a>b` writes b)."""
_CLOSE = {"(": ")", "{": "}", "[": "]"}
_MAX_DEPTH = 20


def statements(text: str, depth: int = 0) -> list[Statement]:
    """The statements of ``text`` (``;``, a new line, ``&&`` and ``||`` end one)."""
    if depth > _MAX_DEPTH:
        raise Unreadable("nested too deep")
    return _Lexer(text).run()


class _Lexer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def run(self) -> list[Statement]:
        found: list[Statement] = []
        commands: list[tuple[Token, ...]] = []
        tokens: list[Token] = []
        text, n = self.text, len(self.text)
        spaced = True
        while self.i < n:
            c = text[self.i]
            if c in " \t\r":
                self.i += 1
                spaced = True
                continue
            if c == "`" and text[self.i + 1 : self.i + 2] in ("\n", "\r"):
                self.i += 2  # a line continued
                spaced = True
                continue
            if (c == "#" and spaced) or text.startswith("<#", self.i):
                self._comment()
                continue
            two = text[self.i : self.i + 2]
            if c in "\n;" or two in ("&&", "||"):
                self.i += 1 if c in "\n;" else 2
                if tokens:
                    commands.append(tuple(tokens))
                if commands:
                    found.append(Statement(tuple(commands)))
                commands, tokens, spaced = [], [], True
                continue
            if c == "|":
                self.i += 1
                if tokens:
                    commands.append(tuple(tokens))
                tokens, spaced = [], True
                continue
            token = self._token()
            if tokens and not spaced and token.kind in ("word", "sq", "dq", "sub", "paren"):
                token = token._replace(glued=True)
            tokens.append(token)
            spaced = False
        if tokens:
            commands.append(tuple(tokens))
        if commands:
            found.append(Statement(tuple(commands)))
        return found

    def _comment(self) -> None:
        text = self.text
        if text.startswith("<#", self.i):
            end = text.find("#>", self.i + 2)
            self.i = len(text) if end < 0 else end + 2
            return
        end = text.find("\n", self.i)
        self.i = len(text) if end < 0 else end

    def _token(self) -> Token:
        text, i = self.text, self.i
        c = text[i]
        two = text[i : i + 2]
        if c == "&" or (c == "." and text[i + 1 : i + 2] in (" ", "\t")):
            self.i += 1
            return Token("op", c)
        if c == "=" or c == ",":
            self.i += 1
            return Token("op", c)
        if c == ">" or (c in "12*" and text[i + 1 : i + 2] == ">"):
            j = i + (1 if c == ">" else 2)
            j += 1 if text[j : j + 1] == ">" else 0
            if text[j : j + 2] in ("&1", "&2"):
                j += 2
            self.i = j
            return Token("redir", text[i:j])
        if c in _SINGLE:
            return self._members(Token("sq", self._single()))
        if c in _DOUBLE:
            return self._members(Token("dq", self._double()))
        if c == "{":
            return self._members(Token("block", self._balanced("{")))
        if c == "(":
            return self._members(Token("paren", self._balanced("(")))
        if two in ("$(", "@("):
            self.i += 1
            return self._members(Token("sub" if c == "$" else "paren", self._balanced("(")))
        if two == "@{":
            self.i += 1
            return Token("hash", self._balanced("{"))
        if c == "[":
            return self._members(Token("type", self._balanced("[")))
        return self._members(Token("word", self._word()))

    def _single(self) -> str:
        text, i = self.text, self.i + 1
        out: list[str] = []
        while i < len(text):
            c = text[i]
            if c in _SINGLE:
                if i + 1 < len(text) and text[i + 1] in _SINGLE:  # '' is one quote
                    out.append("'")
                    i += 2
                    continue
                self.i = i + 1
                return "".join(out)
            out.append(c)
            i += 1
        raise Unreadable("an unclosed single quote")

    def _double(self) -> str:
        """The raw text inside double quotes (escapes kept: `psreader` expands it)."""
        text, i = self.text, self.i + 1
        start = i
        while i < len(text):
            c = text[i]
            if c == "`":
                i += 2
                continue
            if c == "$" and text[i + 1 : i + 2] == "(":
                self.i = i + 1
                self._balanced("(")
                i = self.i
                continue
            if c in _DOUBLE:
                if i + 1 < len(text) and text[i + 1] in _DOUBLE:
                    i += 2
                    continue
                self.i = i + 1
                return text[start:i]
            i += 1
        raise Unreadable("an unclosed double quote")

    def _balanced(self, opening: str) -> str:
        """The text between ``opening`` at the cursor and its match (quotes respected)."""
        text = self.text
        closing = _CLOSE[opening]
        depth, i = 0, self.i
        start = i + 1
        while i < len(text):
            c = text[i]
            if c == "`":
                i += 2
                continue
            if c in _SINGLE or c in _DOUBLE:
                self.i = i
                if c in _SINGLE:
                    self._single()
                else:
                    self._double()
                i = self.i
                continue
            if c == opening:
                depth += 1
            elif c == closing:
                depth -= 1
                if depth == 0:
                    self.i = i + 1
                    return text[start:i]
            i += 1
        raise Unreadable(f"an unclosed {opening!r}")

    def _word(self) -> str:
        """A bare word: backticks escape, ``$(...)`` and ``${...}`` are kept whole."""
        text, i = self.text, self.i
        start = i
        out: list[str] = []
        while i < len(text):
            c = text[i]
            if c == "`" and i + 1 < len(text):  # outside quotes: the next character as is
                out.append(text[i + 1])
                i += 2
                continue
            if c == "$" and text[i + 1 : i + 2] in ("(", "{"):
                self.i = i + 1
                opened = text[i + 1]
                inner = self._balanced(opened)
                out.append("$" + opened + inner + _CLOSE[opened])
                i = self.i
                continue
            if c in _ENDS or c in _SINGLE or c in _DOUBLE:
                break
            if c == "." and out and text[i + 1 : i + 2] == "(":
                break
            out.append(c)
            i += 1
        if i == start:  # a lone character no other rule takes
            out.append(text[i])
            i += 1
        self.i = i
        return "".join(out)

    def _members(self, token: Token) -> Token:
        """``token`` with the ``.Name``/``.Name(args)``/``::Name(args)``/``[i]`` after it."""
        text = self.text
        members: list[str] = []
        while self.i < len(text):
            i = self.i
            if text.startswith("::", i) or (
                text[i : i + 1] == "." and token.kind != "word" and text[i + 1 : i + 2].isalpha()
            ):
                j = i + (2 if text[i] == ":" else 1)
                k = j
                while k < len(text) and (text[k].isalnum() or text[k] == "_"):
                    k += 1
                name = ("::" if text[i] == ":" else ".") + text[j:k]
                self.i = k
                if text[k : k + 1] == "(":
                    name += "(" + self._balanced("(") + ")"
                members.append(name)
                continue
            if text[i : i + 1] == "[" and token.kind != "word":
                members.append("[" + self._balanced("[") + "]")
                continue
            break
        return token._replace(members=tuple(members)) if members else token
