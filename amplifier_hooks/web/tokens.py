"""The access token of a server: from the environment, else generated once and kept.

A generated token is written to a file only its owner can read, so `serve` (started by a
Claude Code hook, say) and the commands that talk to it agree on it across processes.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path

from amplifier_hooks.private import make_dirs

__all__ = ["TOKEN_ENV", "Token", "default_token_path", "resolve_token"]

TOKEN_ENV = "AMPLIFIER_HOOKS_TOKEN"
_MIN_LENGTH = 16  # a short token is guessable over loopback by any local process


@dataclass(frozen=True)
class Token:
    """A token and where it came from (said to the user, never the value itself)."""

    value: str
    source: str  # "$AMPLIFIER_HOOKS_TOKEN", or the path of the file that keeps it

    def __repr__(self) -> str:  # the value must not reach a log line by accident
        return f"Token(source={self.source!r})"


def default_token_path() -> Path:
    """``$XDG_STATE_HOME/amplifier-hooks/token`` (``~/.local/state`` if unset)."""
    state = os.environ.get("XDG_STATE_HOME") or ""
    base = Path(state) if os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "amplifier-hooks" / "token"


def resolve_token(keep_at: Path | None = None, environ: dict[str, str] | None = None) -> Token:
    """``$AMPLIFIER_HOOKS_TOKEN`` if set, else the token kept at ``keep_at`` (made if absent).

    Raises `ValueError` for a token in the environment shorter than 16 characters, and for
    a kept file that others can read (it would not be a secret).
    """
    env = os.environ if environ is None else environ
    given = env.get(TOKEN_ENV, "").strip()
    if given:
        if len(given) < _MIN_LENGTH:
            raise ValueError(
                f"${TOKEN_ENV} is {len(given)} characters long; use at least {_MIN_LENGTH} "
                "(for example: python3 -c 'import secrets; print(secrets.token_urlsafe())')"
            )
        return Token(given, f"${TOKEN_ENV}")
    path = keep_at or default_token_path()
    try:
        stat = path.stat()
    except FileNotFoundError:
        return Token(_create(path), str(path))
    if stat.st_mode & 0o077:
        raise ValueError(
            f"{path} can be read by other users (mode {stat.st_mode & 0o777:o}): "
            f"run 'chmod 600 {path}' or delete it to have a new token made"
        )
    value = path.read_text(encoding="utf-8").strip()
    if len(value) < _MIN_LENGTH:
        return Token(_create(path, replace=True), str(path))
    return Token(value, str(path))


def _create(path: Path, replace: bool = False) -> str:
    """A new token in ``path``, whole or not at all: written aside, then linked in place."""
    make_dirs(path.parent)
    value = secrets.token_urlsafe(32)
    fd, aside = tempfile.mkstemp(dir=path.parent, prefix=".token-")  # mode 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(value + "\n")
        if replace:
            os.replace(aside, path)
            return value
        try:
            os.link(aside, path)  # fails if another process made one first: use theirs
        except FileExistsError:
            return path.read_text(encoding="utf-8").strip()
        return value
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(aside)
