"""The places a path that starts with a variable can be: ``"$XDG_STATE_HOME"/amplifier-hooks``
is ``~/.local/state/amplifier-hooks`` wherever the variable is unset (XDG's documented
default), and ``${XDG_STATE_HOME:-$HOME/.local/state}/x`` names its default outright.

The guard does not know the value a later shell gives a variable, so such a path stays
unknown (never granted); these are the places it *can* be, for deny and ask rules to meet:
our own state and the hosts' settings moved by nothing more than a default.

A word anywhere in a command that writes its default out (``${KUBECONFIG:-~/.kube/config}``,
``${V:+alt}``) can be that value: `with_defaults` judges the piece a second time with it.
"""

from __future__ import annotations

import os
import re

from amplifier_hooks.guard.model import Piece

__all__ = ["XDG_DEFAULTS", "variable_defaults", "with_defaults"]

XDG_DEFAULTS = {
    "XDG_STATE_HOME": "~/.local/state",
    "XDG_CONFIG_HOME": "~/.config",
    "XDG_DATA_HOME": "~/.local/share",
    "XDG_CACHE_HOME": "~/.cache",
    "HOME": "~",
}
"""The XDG base directories' documented defaults (and ``$HOME``, written ``~``)."""

_HEAD = re.compile(
    r"\$(?:(?P<bare>[A-Za-z_]\w*)|\{(?P<name>[A-Za-z_]\w*)(?:(?P<op>:?[-=])(?P<default>[^{}`]*))?\})"
)
"""``$NAME``, ``${NAME}``, or ``${NAME:-DEFAULT}`` (``-``, ``:=``, ``=``: the default the
shell uses where the variable is unset) at a path's start."""
_HOME = re.compile(r"\$(?:HOME\b|\{HOME\})")


def _runtime_dir() -> str:
    uid = os.getuid() if hasattr(os, "getuid") else 1000
    return f"/run/user/{uid}"


def variable_defaults(raw: str) -> tuple[str, ...]:
    """The paths ``raw`` is where its leading variable takes its default: XDG's documented
    one, or the ``${NAME:-DEFAULT}`` it names (``$HOME`` in it read as ``~``); () when it
    starts with no such variable, or a default still holds one the guard cannot know."""
    found = _HEAD.match(raw)
    if found is None:
        return ()
    name = found.group("bare") or found.group("name")
    rest = raw[found.end() :]
    if rest and not rest.startswith("/"):
        return ()  # `$XDG_STATE_HOMEx`, `${A}b`: another name, or a name glued to text
    heads: list[str] = []
    known = _runtime_dir() if name == "XDG_RUNTIME_DIR" else XDG_DEFAULTS.get(name)
    if known is not None:
        heads.append(known)
    default = found.group("default")
    if default:
        default = _HOME.sub("~", default)
        if "$" not in default and (default.startswith(("/", "~"))):
            heads.append(default)
    return tuple(dict.fromkeys(head.rstrip("/") + rest for head in heads if head))


_DEFAULT = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?[-=+]((?:[^{}$`\"'\\]|\$HOME\b|\$\{HOME\})*)\}")
"""``${NAME:-WORD}``, ``${NAME-WORD}``, ``${NAME:=WORD}``, ``${NAME:+WORD}``, ...: a
WORD with nothing more to expand (no ``$`` but ``$HOME``, no quote or nested brace)."""
_WHY = "a parameter's default is one of the values this word can take"


def with_defaults(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces``, each that has a word with a written default followed by a copy of it
    with the defaults in their place (never granted: the variable may be set)."""
    for piece in pieces:
        if _has_default(piece):
            break
    else:
        return pieces
    out: list[Piece] = []
    for piece in pieces:
        out.append(piece)
        if not _has_default(piece):
            continue
        args, writes, reads = _put(piece.args), _put(piece.writes), _put(piece.reads)
        left = any("$" in w or "`" in w for w in (*args, *writes, *reads))
        out.append(piece._replace(args=args, writes=writes, reads=reads, dynamic=left,
                                  doubt=piece.doubt or _WHY))  # fmt: skip
    return tuple(out)


def _has_default(piece: Piece) -> bool:
    # (plain loops with a substring test before the regex: this runs for every command's
    # pieces, `bench_guard`'s fresh row, and most words hold no "${")
    for words in (piece.args, piece.writes, piece.reads):
        for word in words:
            if "${" in word and _DEFAULT.search(word):
                return True
    return False


def _put(words: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(_DEFAULT.sub(lambda m: _HOME.sub("~", m.group(1)), w) if "${" in w else w
                 for w in words)  # fmt: skip
