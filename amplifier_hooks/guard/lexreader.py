"""Inline code of languages the guard has no grammar for (R, Lua, Julia, Elixir, Erlang,
Haskell, Groovy), read by their tokens: one shape for all of them, a table per language
(`lexnames`).

The code is cut into names, strings and punctuation; each name the language's table knows
is a call whose effect becomes an act (`codeacts`) on the literal paths of its arguments,
as the grammar readers' calls do. Code is quiet only when every name in it is one the
table knows to compute or print: a name it does not know (a variable, a package's
function) keeps the code asked, and a name that runs computed code (``eval``,
``Code.eval_string``) is an ``eval`` act.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache, partial

from amplifier_hooks.guard.codeacts import MAX_ACTS, MAX_CODE, NOT_READ, CodeAct, CodeReading
from amplifier_hooks.guard.lexnames import LANGUAGES, Language

__all__ = ["lex_family", "lex_reader", "quiet_lex_options", "read_lex"]

_TOKEN = re.compile(
    r"""(?P<space>\s+)
      | (?P<string>"(?:\\.|[^"\\])*")
      | (?P<single>'(?:\\.|[^'\\\n])*')
      | (?P<tick>`[^`]*`)
      | (?P<name>[A-Za-z_][A-Za-z0-9_]*[!?]?(?:(?:\.|::?:?)[A-Za-z_][A-Za-z0-9_]*[!?]?)*)
      | (?P<number>[0-9][0-9_.eExX]*)
      | (?P<punct>.)""",
    re.VERBOSE | re.DOTALL,
)
_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = frozenset(_OPEN.values())
_ENDS = frozenset({";", "\n"})


class _Token:
    __slots__ = ("kind", "text")

    def __init__(self, kind: str, text: str) -> None:
        self.kind = kind
        self.text = text


def lex_family(program: str) -> str | None:
    """The language of ``program`` the token reader knows (``Rscript`` is R), or None."""
    family = program.rstrip("0123456789.")
    return family if family in _PROGRAMS else None


_PROGRAMS = {program for language in LANGUAGES.values() for program in language.programs}


@lru_cache(maxsize=256)
def read_lex(program: str, code: str) -> CodeReading:
    """What ``code`` given to ``program`` does, by its tokens (`NOT_READ`: too long, a
    string left open, or a language the tables do not know)."""
    language = _language(lex_family(program))
    if language is None or len(code) > MAX_CODE:
        return NOT_READ
    tokens = _tokens(code, language)
    if tokens is None:
        return NOT_READ
    walk = _Walk(language, tokens, program)
    if language.escape is not None:  # (the shell's command: judged as a command run)
        for found in language.escape.finditer(code):
            walk.add(CodeAct("run", found.group("command").strip() or None))
    return walk.reading()


def _tokens(code: str, language: Language) -> list[_Token] | None:
    out: list[_Token] = []
    text = language.comment.sub(" ", code) if language.comment is not None else code
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "punct"
        value = match.group()
        if kind == "space":
            if "\n" in value:
                out.append(_Token("punct", "\n"))
            continue
        if kind == "single":
            if not language.single_quoted:
                return None  # (a char literal or a prime: not a language read here)
            kind, value = "string", '"' + value[1:-1] + '"'
        if kind == "string":
            value = value[1:-1]
            if language.interpolation is not None and language.interpolation.search(value):
                kind = "dynamic"  # (filled in at run time: no literal path or command)
        if kind == "tick":
            if not language.ticks:
                return None  # (Haskell's infix, R's quoted names: not read here)
            kind, value = "command", value[1:-1]
        out.append(_Token(kind, value))
    return out


class _Walk:
    """One pass over the tokens: acts found, and whether every name is known quiet."""

    def __init__(self, language: Language, tokens: list[_Token], program: str) -> None:
        self.language = language
        self.tokens = tokens
        self.program = program
        self.acts: list[CodeAct] = []
        self.quiet = True
        self.shows = any(t.kind == "name" and t.text in language.prints for t in tokens)
        """Code that prints: what it reads may be what it prints (judged as shown)."""

    def reading(self) -> CodeReading:
        language = self.language
        bound = _bound(self.tokens) if language.binds else frozenset()
        for index, token in enumerate(self.tokens):
            if token.kind == "command":
                self.add(CodeAct("run", token.text))  # Julia's `cmd`, run by `run`
            if token.kind != "name":
                continue
            name = token.text
            effect = language.calls.get(name)
            after = self._next(index)
            if effect is not None:
                self._act(effect, index)
            elif name in language.file_labels and after == "=" and self._label(index):
                target = self.tokens[index + 2 : index + 3]
                path = target[0].text if target and target[0].kind == "string" else None
                self.add(CodeAct("write", path))  # (`cat(.., file = "~/.Renviron")`)
            elif name in bound or (bound and self.tokens[index - 1].text in ("$", "@")):
                continue  # a local value, or a field of one (`d$arm`)
            elif name in language.quiet or name in language.env_calls:
                if name in language.env_calls:
                    self._env(index)
            elif after in ("=", ":") and self._label(index):
                continue  # an argument's name (`recursive = TRUE`, `force: true`)
            elif language.atoms and name[:1].islower() and after != "(" and ":" not in name:
                continue  # an Erlang atom: a value
            else:
                self.quiet = False  # a name the table does not know
        return CodeReading(True, self.quiet, tuple(self.acts[:MAX_ACTS]))

    def _next(self, index: int) -> str:
        following = self.tokens[index + 1 : index + 2]
        return following[0].text if following and following[0].kind == "punct" else ""

    def _label(self, index: int) -> bool:
        """The name is followed by ``=`` (not ``==``, ``=>``) or Elixir's ``key:``."""
        rest = self.tokens[index + 2 : index + 3]
        return not rest or rest[0].text not in ("=", ">", ":")

    def add(self, act: CodeAct) -> None:
        if act.does not in ("read", "show", "env") or act.target is None:
            self.quiet = False
        if act not in self.acts:
            self.acts.append(act)

    def _env(self, index: int) -> None:
        """Each variable the call reads: its literal names (``Sys.getenv(c("A", "B"))``:
        both), or None when a name is built (``"GITHUB_TO" .. "KEN"``) or computed."""
        if (
            index > 1
            and self.tokens[index - 1].text == "("
            and self.tokens[index - 2].text in _TESTS
        ):
            return  # `nzchar(Sys.getenv("GITHUB_PAT"))`: whether it is set, not its value
        span = self._span(index)
        names = [t.text for t in span if t.kind == "string"]
        built = any(
            (t.kind == "name" and t.text not in _VECTORS)
            or (t.kind == "punct" and t.text in _OPERATORS)
            or t.kind == "dynamic"
            for t in span
        )
        for name in [None] if built or not names else names:
            self.add(CodeAct("env", name))

    def _act(self, effect: str, index: int) -> None:
        if effect == "quiet":
            return
        if effect == "install":  # a package of the registry by name: as `pip install x`
            elsewhere = [t.text for t in self._span(index) if t.kind in ("string", "dynamic")
                         and _elsewhere(t.text, self.language.registries)]  # fmt: skip
            if elsewhere:
                self.add(CodeAct("network", elsewhere[0]))
            return
        args = self._arguments(self._span(index))
        piped = self._piped(index)
        if piped:
            args = [piped, *args]  # (Elixir's `x |> f(y)` is `f(x, y)`)
        if effect == "eval":
            self.add(CodeAct("eval", None, source=self.program))
        elif effect == "run":
            span = self._span(index)
            words = [t.text for t in span if t.kind in ("string", "command")]
            known = words and all(t.kind != "dynamic" for t in span)
            self.add(CodeAct("run", " ".join(words) if known else None))
        elif effect == "network":
            self.add(CodeAct("network", _first(self._paths(args[:1]))))
        elif effect in ("copy", "move"):
            source, target = _first(self._paths(args[:1])), _first(self._paths(args[1:2]))
            self.add(CodeAct(effect, target, source))
        elif effect == "write-second":  # (R's `writeLines(text, con)`)
            if len(args) > 1:  # (with one argument it prints)
                self.add(CodeAct("write", _first(self._paths(args[1:2]))))
        elif effect == "open":  # (Lua's `io.open(p, "w")` empties p: a write)
            mode = [t.text for t in args[1][:1] if t.kind == "string"] if len(args) > 1 else ["r"]
            reads = mode and mode[0] in ("r", "rb")
            does = ("show" if self.shows else "read") if reads else "write"
            self.add(CodeAct(does, _first(self._paths(args[:1]))))
        elif effect in ("write", "append", "read", "show"):
            shown = effect == "read" and self.shows
            self.add(CodeAct("show" if shown else effect, _first(self._paths(args[:1]))))
        else:  # deletes and directories: every argument names paths
            for path in self._paths(args) or [None]:
                self.add(CodeAct(effect, path))

    def _piped(self, index: int) -> list[_Token]:
        """The value piped into the call (``System.user_home!() |> File.rm_rf()``): the
        statement before its ``|>``."""
        before = self.tokens[max(index - 2, 0) : index]
        if [t.text for t in before] != ["|", ">"] or not self.language.pipes:
            return []
        start = index - 2
        while start > 0 and self.tokens[start - 1].text not in _ENDS:
            start -= 1
        return self.tokens[start : index - 2]

    def _span(self, index: int) -> list[_Token]:
        """The tokens of the call's arguments: its parentheses, or (a call without them,
        ``File.rm_rf! "lib"``) the rest of the statement."""
        rest = self.tokens[index + 1 :]
        if rest and rest[0].text in ("(", "["):
            return _balanced(rest)
        out: list[_Token] = []
        for token, depth in _nesting(rest):
            if depth < 0 or (depth == 0 and token.kind == "punct" and token.text in _ENDS):
                break
            out.append(token)
        return out

    def _arguments(self, span: list[_Token]) -> list[list[_Token]]:
        """The span cut at its top-level commas (Julia's ``;`` starts its keywords)."""
        args: list[list[_Token]] = [[]]
        for token, depth in _nesting(span):
            if depth == 0 and token.kind == "punct" and token.text in (",", ";"):
                args.append([])
                continue
            args[-1].append(token)
        return [a for a in args if a]

    def _paths(self, args: list[list[_Token]]) -> list[str | None]:
        """Each argument's paths: its literal strings (one path when a join or the home
        folder builds it), None when none is literal."""
        out: list[str | None] = []
        for arg in args:
            literals: list[str] = []
            home = joined = operator = False
            skip = -1
            for position, token in enumerate(arg):
                if token.kind == "name" and token.text in self.language.home:
                    home = True
                elif token.kind == "name" and token.text in self.language.env_calls:
                    names = [t.text for t in _balanced(arg[position + 1 :]) if t.kind == "string"]
                    home = home or names[:1] == ["HOME"]
                    skip = position + 1 + len(_balanced(arg[position + 1 :]))
                elif token.kind == "name" and token.text in self.language.joins:
                    joined = True
                elif token.kind == "string" and position > skip:
                    literals.append(token.text)
                elif token.kind == "punct" and token.text in _OPERATORS:
                    operator = True  # (`..`, `<>`, `++`, `*`: strings put end to end)
            if any(t.kind == "dynamic" for t in arg):
                out.append(None)
            elif home and operator:
                out.append("~/" + "".join(literals).lstrip("/"))
            elif home:
                parts = [p.strip("/") for p in literals if p.strip("/")]
                out.append("/".join(["~", *parts]))
            elif not literals:
                out.append(None)
            elif operator:
                out.append("".join(literals))
            elif joined:
                out.append("/".join(p.rstrip("/") for p in literals))
            elif len(literals) == 1 or _listed(arg):
                out.extend(literals)
            else:  # (`paste0("~/.s", "sh")`, `string(a, b)`: pieces of one computed path)
                out.append(None)
        return out


def _bound(tokens: list[_Token]) -> frozenset[str]:
    """R's local names: each assigned at the start of a statement (``x <- 1``, ``x = 1``)
    and each a ``for`` loop binds. A call's value kept in one is still read as the call."""
    found: set[str] = {"."}
    for index, token in enumerate(tokens):
        if token.kind != "name" or "::" in token.text:
            continue
        before = tokens[index - 1].text if index else "\n"
        after = "".join(t.text for t in tokens[index + 1 : index + 3])
        assigned = (before in _ENDS or before == "{") and (
            after == "<-" or (after[:1] == "=" and after[1:2] != "=")
        )
        looped = before == "(" and index > 1 and tokens[index - 2].text == "for"
        if assigned or looped:
            found.add(token.text)
    return frozenset(found)


def _balanced(tokens: list[_Token]) -> list[_Token]:
    """The tokens inside the bracket ``tokens`` opens (all of them if it never closes)."""
    if not tokens or tokens[0].text not in _OPEN:
        return []
    for position, (_, depth) in enumerate(_nesting(tokens)):
        if depth == 0:
            return tokens[1:position]
    return tokens[1:]


def _nesting(tokens: list[_Token]) -> Iterator[tuple[_Token, int]]:
    """Each token with how deep in brackets it leaves the reader (an opening bracket is
    inside its own pair, a closing one outside): one count for every reader of brackets."""
    depth = 0
    for token in tokens:
        if token.kind == "punct" and token.text in _OPEN:
            depth += 1
        elif token.kind == "punct" and token.text in _CLOSE:
            depth -= 1
        yield token, depth


_OPERATORS = frozenset({".", "<", "+", "/", "*"})
"""Punctuation of the operators that put strings end to end (Lua's ``..``, Elixir's ``<>``,
Erlang's ``++``, Julia's ``*``, Groovy's ``+``)."""

_TESTS = frozenset({"nzchar", "is.na", "is.null"})
"""R's calls that tell whether a value is set, not what it is."""
_VECTORS = frozenset({"c", "list"})
"""R's calls that make a vector of their arguments (each literal is a path of its own)."""


def _listed(arg: list[_Token]) -> bool:
    """The argument is a list of literals (``c("a", "b")``, ``["a", "b"]``), each one a
    path, not pieces of one path a call builds."""
    tokens = arg[1:] if arg and arg[0].kind == "name" and arg[0].text in _VECTORS else arg
    if len(tokens) < 2 or tokens[0].text not in _OPEN or tokens[-1].text != _OPEN[tokens[0].text]:
        return False
    inner = tokens[1:-1]
    return all(
        t.kind == "string" if i % 2 == 0 else t.kind == "punct" and t.text == ","
        for i, t in enumerate(inner)
    )


def _first(paths: list[str | None]) -> str | None:
    return paths[0] if paths else None


def lex_reader(program: str) -> Callable[[str], CodeReading] | None:
    """The token reader of ``program``'s inline code, or None."""
    family = lex_family(program)
    return None if family is None else _READERS.setdefault(family, partial(read_lex, family))


_READERS: dict[str, Callable[[str], CodeReading]] = {}
"""One reader per program (readings are remembered by reader: `codereaders.read_once`)."""


def quiet_lex_options(program: str, args: tuple[str, ...], codes: list[str]) -> bool:
    """Every option of ``program`` but its code flag is one that loads no other code
    (``Rscript --vanilla -e ..``: yes; ``julia -L x.jl -e ..``: no)."""
    language = _language(lex_family(program))
    if language is None:
        return False
    code_words = set(codes)
    for index, arg in enumerate(args):
        if arg in code_words:
            continue
        if arg[:1] != "-":
            if language.operands_run:
                return False
            continue
        if arg in language.options:
            continue
        following = args[index + 1 : index + 2]
        if following and following[0] in code_words:
            continue  # the flag that gives the code
        return False
    return True


def _language(family: str | None) -> Language | None:
    return next((v for v in LANGUAGES.values() if family in v.programs), None)


def _elsewhere(word: str, registries: tuple[str, ...]) -> bool:
    """A word an install call takes packages from that is not a name in the registry: a
    URL, a path or an ``owner/repo`` (a registry's own address is not)."""
    if word.startswith(registries):
        return False
    return any(c in word for c in "/:\\$#{")
