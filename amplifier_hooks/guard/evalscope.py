"""The state a shell word is expanded in, as `evaluate` follows it: variables (text,
arrays, references, unknown), the positional parameters, ``$0``, the folders, and how a
substitution's output is found; what a parameter (``${x}``, ``${x[1]}``, ``$@``) stands
for in it; and splitting on ``IFS``.

A name the command does not set is the environment's: unknown, but for ``$HOME``, ``$PWD``
(the folder the command runs in), ``$IFS`` (bash's default) and ``$BASH``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["DEFAULT_IFS", "MAX_TEXT", "PARAMETER", "UNSET", "Ref", "Scope", "Unknown", "Value",
           "parameter_text", "parameter_values", "split_ifs"]  # fmt: skip

MAX_TEXT = 4096
"""A value longer than this is not followed (bounded work)."""
DEFAULT_IFS = " \t\n"
_NAME = re.compile(r"[A-Za-z_]\w*")


class Unknown(Exception):
    """A part of the word only the running shell knows."""


@dataclass(frozen=True)
class Ref:
    """``declare -n t=HOME``: t is another name for HOME."""

    name: str


UNSET = Ref("")
"""The value of a variable ``unset`` (known to be unset)."""

Value = str | tuple[str, ...] | Ref | None
"""A variable's value: text, an array, a reference to another name, or None: unknown."""


@dataclass
class Scope:
    """What the expansion of a word reads and sets: variables, the positional parameters,
    the folders, and how a substitution's output is found (`evaluate.Shell`)."""

    home: str
    cwd: str
    substitute: Callable[[str], str]
    variables: dict[str, Value] = field(default_factory=dict)
    args: tuple[str, ...] | None = None
    zero: str | None = None
    guessed: bool = False
    """A value was taken from a default the variable may not use: a possible value, not
    the certain one."""
    computed: bool = False
    """Something in the word was computed (an expansion, a substitution, a brace list)."""

    def lookup(self, name: str) -> str | tuple[str, ...] | None:
        """The value of ``name`` (None: unknown)."""
        seen = 0
        while True:
            if name in self.variables:
                value = self.variables[name]
                if value is UNSET:
                    return ""
                if isinstance(value, Ref) and seen < 8:
                    name, seen = value.name, seen + 1
                    continue
                return None if isinstance(value, Ref) else value
            return self._environment(name)

    def _environment(self, name: str) -> str | None:
        if name == "HOME":
            return self.home
        if name == "PWD":
            return self.cwd
        if name == "IFS":
            return DEFAULT_IFS
        if name == "BASH":
            return "bash"
        if name.isdigit():
            index = int(name)
            if index == 0:
                return self.zero
            if self.args is None:
                return None
            return self.args[index - 1] if index <= len(self.args) else ""
        return None

    def has(self, name: str) -> bool | None:
        """Whether ``name`` is set (None: unknown)."""
        if name in self.variables:
            value = self.variables[name]
            if value is UNSET:
                return False
            if isinstance(value, Ref):
                return self.has(value.name) if value.name != name else None
            return None if value is None else True
        if name in ("HOME", "PWD", "IFS", "BASH"):
            return True
        if name.isdigit():
            if int(name) == 0:
                return True if self.zero is not None else None
            return None if self.args is None else int(name) <= len(self.args)
        return None

    def assign(self, name: str, value: Value) -> None:
        target = name
        current = self.variables.get(name)
        if current == Ref(name):  # `declare -n v; v=NAME`: v's first value is what it names
            self.variables[name] = Ref(value) if isinstance(value, str) and _NAME.fullmatch(
                value) else None  # fmt: skip
            return
        if isinstance(current, Ref):
            target = current.name
        self.variables[target] = value

    @property
    def ifs(self) -> str:
        value = self.lookup("IFS")
        if not isinstance(value, str):
            raise Unknown("IFS")
        return value


def split_ifs(text: str, ifs: str, keep_edges: bool = False) -> list[str]:
    """``text`` split as bash splits an unquoted expansion. With ``keep_edges``, a
    leading or trailing separator gives an empty first or last part (the expansion then
    ends the field it joins)."""
    if not ifs:
        return [text]
    white = "".join(c for c in ifs if c in " \t\n")
    other = "".join(c for c in ifs if c not in " \t\n")
    w = f"[{re.escape(white)}]*" if white else ""
    if not other:
        sep = f"[{re.escape(white)}]+"
    elif white:
        sep = f"{w}[{re.escape(other)}]{w}|[{re.escape(white)}]+"
    else:
        sep = f"[{re.escape(other)}]"
    parts = re.split(sep, text)
    if not keep_edges:
        if parts and parts[0] == "" and white and text[:1] in white:
            parts = parts[1:]
        if parts and parts[-1] == "" and (not text or text[-1] in white):
            parts = parts[:-1]
    return parts


PARAMETER = re.compile(
    r"(?P<prefix>[#!]?)(?P<name>[A-Za-z_]\w*|[0-9]+|[@*#?$!-])(?:\[(?P<index>[^\]]*)\])?"
    r"(?P<rest>.*)\Z",
    re.S,
)
"""A parameter's expansion inside ``${...}``: ``#``/``!`` before it, its name, an index, the
rest (an operator and its word)."""


def parameter_values(scope: Scope, name: str, index: str | None) -> tuple[str, ...]:
    """What ``${name[@]}`` (``$@``, ``$*``) expands to, every element (`Unknown`: not known)."""
    if name in ("@", "*"):
        if scope.args is None:
            raise Unknown("positional parameters")
        return scope.args
    value = scope.lookup(name)
    if value is None:
        raise Unknown(name)
    return value if isinstance(value, tuple) else (value,)


def parameter_text(scope: Scope, name: str, index: str | None) -> str:
    """What ``${name}`` or ``${name[index]}`` expands to (`Unknown`: not known)."""
    if name == "#":
        if scope.args is None:
            raise Unknown("$#")
        return str(len(scope.args))
    if name in "?$!-" and len(name) == 1:
        raise Unknown(name)
    value = scope.lookup(name)
    if value is None:
        raise Unknown(name)
    if isinstance(value, tuple):
        if index is None:
            return value[0] if value else ""
        if not index.isdigit():
            raise Unknown("index")
        at = int(index)
        return value[at] if at < len(value) else ""
    if index not in (None, "0"):
        return ""
    return value
