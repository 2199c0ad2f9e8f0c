"""PowerShell command text read as the POSIX shell command that does the same, so the
guard's rules (places, programs, code fed from a download, git) judge it.

The text is split by tree-sitter-powershell's grammar (`pstree`); where the grammar cannot
say what a piece is, by the `pslex` fallback, and then the reading is never a grant.

Each statement's pipeline is read command by command: a cmdlet (or its alias, or one the
same text defines with ``Set-Alias``) by its table (`pscmdlets`, `psacts`), a native
program with its words, a script block run with ``&``, ``Invoke-Command`` or
``ForEach-Object`` as the statements it holds, .NET calls by `psdotnet`. What cannot be
known (``& $c``) is a program the shell computes: the guard's rules see one they cannot
read. A reading is a grant only when every command in it only reads (`Reading.reads`).
"""

from __future__ import annotations

import shlex
from typing import NamedTuple

from amplifier_hooks.guard import pslex, pstree
from amplifier_hooks.guard.cmdreader import read_cmd
from amplifier_hooks.guard.psacts import Bound, act
from amplifier_hooks.guard.psaliases import ALIASES
from amplifier_hooks.guard.pscmdlets import CMDLETS, Cmdlet, is_switch, resolve_parameter
from amplifier_hooks.guard.psdotnet import Split, dotnet_acts
from amplifier_hooks.guard.pssplats import splat_tokens, splatted
from amplifier_hooks.guard.pstokens import GrammarGap, Statement, Token, Unreadable, joined
from amplifier_hooks.guard.psvalues import Value, Values
from amplifier_hooks.guard.psvariables import VARIABLE_PRINTERS, variables_shown
from amplifier_hooks.guard.winprograms import native_command

__all__ = ["CmdShells", "Reading", "read_powershell"]

_MAX_TEXT = 20_000
_CODE_WORDS = ("scriptblock", "encodedcommand", "frombase64string")
_KEYWORDS = frozenset({"if", "elseif", "else", "foreach", "for", "while", "do", "until",
                       "switch", "try", "catch", "finally", "trap", "function", "filter",
                       "workflow", "begin", "process", "end", "param"})  # fmt: skip
_MADE = {"new-temporaryfile": "/tmp/tmpPS.tmp", "[system.io.path]::gettempfilename()":
         "/tmp/tmpPS.tmp"}  # fmt: skip
"""Commands whose output is a new path the command then uses (a temporary file's)."""


class Reading(NamedTuple):
    """PowerShell text as POSIX shell text, and whether every command in it only reads."""

    shell: str
    reads: bool


def read_powershell(text: str, home_name: str) -> Reading | None:
    """``text`` read (None: text PowerShell's grammar, as read here, cannot split)."""
    if len(text) > _MAX_TEXT:
        return None
    reader = _Reader(home_name, pstree.statements)
    try:
        shell = reader.read(text, 0)
    except GrammarGap:  # read by the fallback lexer: never a grant
        reader = _Reader(home_name, pslex.statements)
        try:
            shell = reader.read(text, 0)
        except (Unreadable, RecursionError):
            return None
        return Reading(shell or "true", False)
    except (Unreadable, RecursionError):
        return None
    return Reading(shell or "true", reader.reads)


class CmdShells(NamedTuple):
    """How cmd.exe's text is read, with the shells it starts (`winprograms.Shells`):
    ``cmd /c`` as cmd.exe's text again, ``pwsh -Command`` as PowerShell's read whole."""

    home_name: str

    def cmd(self, text: str) -> str:
        return read_cmd(text, self)

    def powershell(self, code: str) -> str:
        reading = read_powershell(code, self.home_name)
        if reading is not None:  # read whole: judged as its commands, as the tool's are
            return reading.shell
        return f"pwsh -c {shlex.quote(code)}"  # asked as inline code


class _Reader:
    def __init__(self, home_name: str, split: Split) -> None:
        self.home_name = home_name
        self.split = split
        """How text is split: the grammar's (`pstree`) or, where it fails, `pslex`'s."""
        self.values = Values(home_name, self._sub, self._only)
        self.aliases: dict[str, str] = {}
        self.splats: dict[str, tuple[Token, ...] | None] = {}
        """The hashtables variables are set to, as the parameters ``@name`` gives."""
        self.drives: dict[str, str] = {}
        self.location: str | None = None
        self.piped: list[str] = []
        """The paths the last listing names, for a command piped after it."""
        self.found: list[str] = []
        """The last listing as ``find`` expressions, when it names items by a pattern."""
        self.reads = True
        self.depth = 0

    def _only(self, inner: str) -> Token | None:
        """The one variable or string a sub-expression holds, when it holds nothing else."""
        try:
            found = self.split(inner, self.depth + 1)
        except GrammarGap:
            raise
        except Unreadable:
            return None
        if len(found) != 1 or len(found[0].commands) != 1 or len(found[0].commands[0]) != 1:
            return None
        (token,) = found[0].commands[0]
        plain = token.kind in ("sq", "dq") or (token.kind == "word" and token.text[:1] == "$")
        return token if plain and not token.members else None

    def _sub(self, inner: str) -> str:
        """A sub-expression's commands, as POSIX text (its output is a value)."""
        return self.read(inner, self.depth + 1) or "true"

    def read(self, text: str, depth: int) -> str:
        if depth > 12:
            raise Unreadable("nested too deep")
        saved, self.depth = self.depth, depth
        try:
            said = [self._statement(s) for s in self.split(text, depth)]
        finally:
            self.depth = saved
        extra = dotnet_acts(text, self.values, self.split)
        if extra:
            self.reads = False
        return "; ".join([s for s in said if s] + extra)

    def _statement(self, statement: Statement) -> str:
        commands = list(statement.commands)
        first = commands[0]
        if len(first) >= 2 and first[1] == Token("op", "=") and first[0].kind == "word":
            return self._assignment(first[0].text, first[2:], commands[1:])
        return " | ".join(self._command(tokens, n > 0) for n, tokens in enumerate(commands))

    def _assignment(self, name: str, value: tuple[Token, ...],
                    rest: list[tuple[Token, ...]]) -> str:  # fmt: skip
        self.reads = False
        target = name.lstrip("$")
        lowered = target.lower()
        if len(value) == 1 and value[0].kind == "hash" and not rest:  # `$p = @{...}`
            self.splats[lowered] = splat_tokens(value[0].text, self.split, self.depth + 1)
        single = len(value) == 1 and not rest and value[0].kind in ("sq", "dq", "word")
        if (
            single
            and not value[0].text.startswith(("-",))
            and (value[0].kind != "word" or value[0].text.startswith("$"))
        ):  # a value: `$u = "https://..."`, `$t = $env:NPM_TOKEN`
            if lowered.startswith("env:"):
                return f"export {target[4:]}={self.values.of(value[0]).shell}"
            self.values.assign(lowered, value[0])
            return ""
        said = self._statement(Statement((value, *rest))) if value else ""
        made = _MADE.get(value[0].text.lower()) if value else None
        if made is not None:  # `$t = New-TemporaryFile`: a path of its own
            self.values.assign(lowered, Token("sq", made))
        if lowered.startswith("env:"):
            return f'{said}; export {target[4:]}="$({said})"'
        return said

    def _command(self, tokens: tuple[Token, ...], piped: bool) -> str:
        head = tokens[0]
        if head.kind == "op" and head.text in "&." and len(tokens) > 1:
            called = tokens[1]
            if called.kind == "block":
                self.reads = False
                return self.read(called.text, self.depth + 1) or "true"
            if called.kind in ("sq", "dq", "word"):
                return self._named(called, tokens[2:], piped)
            self.reads = False
            inner = self.values.of(called)
            return f"{inner.shell} " + " ".join(self._word(t) for t in tokens[2:])
        if head.kind == "word" and head.text.lower() in _KEYWORDS:
            return self._keyword(tokens)
        if (
            head.kind == "word"
            and not head.text.startswith(("$", "-"))
            and not (head.text[:1].isdigit())
        ):
            return self._named(head, tokens[1:], piped)
        return self._expression(tokens)

    def _keyword(self, tokens: tuple[Token, ...]) -> str:
        """``if (...) {...} else {...}``, ``foreach (...) {...}``, ``try {...}``: the
        commands of each condition and block, as if each ran."""
        if tokens[0].text.lower() in ("function", "filter", "workflow"):
            self.reads = False
        said = [self.read(t.text, self.depth + 1) for t in tokens if t.kind in ("paren", "block")]
        return "; ".join(s for s in said if s) or "true"

    def _expression(self, tokens: tuple[Token, ...]) -> str:
        """A value in a pipeline (``"text" | git credential fill``): printed into the next
        command; any command or .NET call inside it is read too."""
        words = [self.values.of(t) for t in tokens if t.kind not in ("op", "redir")]
        if any(t.members or t.kind in ("type", "hash", "block") for t in tokens):
            self.reads = False
        if any(t.kind == "block" for t in tokens):
            inner = [self.read(t.text, self.depth + 1) for t in tokens if t.kind == "block"]
            return "; ".join([*inner, "printf '%s\\n' " + " ".join(w.shell for w in words)])
        return "printf '%s\\n' " + " ".join(w.shell for w in words) if words else "true"

    def _named(self, head: Token, rest: tuple[Token, ...], piped: bool) -> str:
        rest = joined(rest)
        if any(t.kind == "word" and t.text[:1] == "@" for t in rest):  # `Remove-Item @p`
            spread = splatted(rest, self.splats)
            if spread is None:
                self.reads = False
                return "'@splat-unknown' " + self.values.of(head).shell
            rest = spread
        name = self.values.of(head).plain
        if name is None:
            self.reads = False
            return self.values.of(head).shell + " " + " ".join(self._word(t) for t in rest)
        lowered = name.lower()
        lowered = self.aliases.get(lowered, lowered)
        lowered = ALIASES.get(lowered, lowered)
        if lowered in VARIABLE_PRINTERS:  # `Get-Variable`: the session's variables printed
            self.reads = False
            return variables_shown(rest)
        cmdlet = CMDLETS.get(lowered)
        if cmdlet is None:
            if "-" in lowered and "/" not in lowered and "\\" not in lowered and "." not in lowered:
                self.reads = False  # a cmdlet or function not in the table: its own name
                return " ".join([lowered, *(self._word(t) for t in rest)])
            return self._native(name, rest)
        bound = self._bind(cmdlet, rest)
        if not cmdlet.reads or bound.unknown:
            self.reads = False
        if cmdlet.act == "alias":
            new, old = bound.first("name"), bound.first("value")
            if new is not None and old is not None:
                self.aliases[new.lower()] = old.lower()
            return "true"
        if cmdlet.act == "drive":
            drive, root = bound.first("name"), bound.first("root", path=True)
            if drive is not None and root is not None:
                self.drives[drive.lower().rstrip(":")] = root
            return "true"
        return act(cmdlet.act, lowered, bound, piped, self)

    def _bind(self, cmdlet: Cmdlet, rest: tuple[Token, ...]) -> Bound:
        named: dict[str, list[Token]] = {}
        switches: set[str] = set()
        positional: list[Token] = []
        redirects: list[tuple[str, Token | None]] = []
        unknown: list[str] = []
        i = 0
        while i < len(rest):
            token = rest[i]
            i += 1
            if token.kind == "redir":
                target = (
                    rest[i] if i < len(rest) and not token.text.endswith(("&1", "&2")) else None
                )
                i += 1 if target is not None else 0
                redirects.append((token.text, target))
                continue
            if token.kind == "op":
                continue
            if token.kind == "word" and token.text[:1] == "-" and token.text[1:2].isalpha():
                written, colon, after = token.text[1:].partition(":")
                name = resolve_parameter(cmdlet, written.lower())
                if name is None:
                    unknown.append(written)
                    name = written.lower()
                if colon:
                    glued = rest[i] if after == "" and i < len(rest) and rest[i].glued else None
                    if glued is not None:
                        i += 1
                    value = glued or Token("word", after)
                    if name in cmdlet.switches or name in ("confirm", "whatif", "verbose"):
                        switches.add(name) if self.values.of(value).plain != "$false" else None
                    else:
                        named.setdefault(name, []).append(value)
                    continue
                if is_switch(cmdlet, name) or i >= len(rest):
                    switches.add(name)
                    continue
                named.setdefault(name, []).append(rest[i])
                i += 1
                continue
            positional.append(token)
        free = [p for p in cmdlet.positional if p not in named]
        for param, token in zip(free, positional, strict=False):
            named[param] = [token]
        extra = positional[len(free) :]
        return Bound(named, frozenset(switches), tuple(extra), tuple(redirects),
                     tuple(unknown), self)  # fmt: skip

    def word(self, token: Token, path: bool = False) -> Value:
        """``token``'s value; a path with a drive the command mapped (``New-PSDrive``) put
        as that drive's root."""
        got = self.values.of(token, path=path)
        if path and got.plain is not None and got.plain[1:2] == ":":
            root = self.drives.get(got.plain[0].lower())
            if root is not None:
                rest = got.plain[2:].lstrip("/")
                return self.values.of(Token("sq", f"{root}/{rest}" if rest else root), path=True)
        return got

    def _word(self, token: Token) -> str:
        if token.kind == "redir":
            return token.text.replace("$null", "/dev/null")
        if token.kind == "block":
            self.reads = False
            return self.values.of(Token("sub", token.text)).shell
        path = "\\" in token.text or token.text.startswith(("~", "$"))
        return self.word(token, path=path).shell

    def _native(self, name: str, rest: tuple[Token, ...]) -> str:
        """A program run by its name: judged with its words as the POSIX shell would pass
        them (``cmd /c``, ``pwsh -Command``, ``wsl`` by their own readers: `winprograms`)."""
        self.reads = False
        words = [self._native_word(t) for t in rest]
        plain = [self.values.of(t).plain for t in rest]
        if any(w in name.lower() for w in _CODE_WORDS):
            words.append("'@code'")
        return native_command(name.replace("\\", "/"), words, plain, self)

    def _native_word(self, token: Token) -> str:
        if token.kind == "redir":
            return token.text.replace("$null", "/dev/null")
        if token.kind == "word" and token.text.startswith("-"):
            return self.values.of(token).shell
        return self._word(token)

    def cmd(self, text: str) -> str:
        """``cmd /c TEXT`` a command here starts, read as cmd.exe's text."""
        return read_cmd(text, CmdShells(self.home_name))

    def powershell(self, code: str) -> str:
        """``pwsh -Command CODE`` a command here starts (text PowerShell cannot split
        fails the whole reading)."""
        return self.read_nested(code)

    def read_nested(self, text: str) -> str:
        """Another PowerShell's command text (``pwsh -Command TEXT``), read as this one."""
        self.reads = False
        return self.read(text, self.depth + 1) or "true"
