"""A token printed straight into the login that uses it: ``gh auth token | docker login
ghcr.io -u dev --password-stdin``. The token goes to the program, which sends it to the
registry the token is for and prints none of it, not to the model's screen, so the rule
on printing it (``credential-print-gh``) leaves the piece marked `PASSWORD_PIPED`.

Only a direct pipe into a registry login that reads its password from its input, to a
registry of the token's own service (GitHub's token to ``ghcr.io``): a login to another
host would hand the token to it.
"""

from __future__ import annotations

from amplifier_hooks.guard.model import Piece

__all__ = ["PASSWORD_PIPED", "PRINTERS", "mark_password_pipes"]

PASSWORD_PIPED = "@password-piped"
"""Marks a piece whose printed token goes whole into a login of its own service."""
_REGISTRIES = {"gh": frozenset({"ghcr.io", "docker.pkg.github.com", "containers.pkg.github.com"})}
"""The registries each token printer's token is for."""
PRINTERS = frozenset(_REGISTRIES)
_LOGINS = frozenset({"docker", "podman", "nerdctl", "buildah", "skopeo", "oras", "finch"})
"""Container tools whose ``login REGISTRY --password-stdin`` reads the password from input."""
_USER = frozenset({"-u", "--username"})


def mark_password_pipes(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each token printer piped straight into its service's registry
    login marked `PASSWORD_PIPED` (module doc)."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces[:-1]):
        registries = _REGISTRIES.get(piece.program or "")
        receiver = pieces[index + 1]
        if registries is None or piece.pipes_to != (receiver.program,):
            continue
        if _logs_in(receiver, registries):
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, PASSWORD_PIPED))
    return pieces if out is None else tuple(out)


def _logs_in(piece: Piece, registries: frozenset[str]) -> bool:
    """``piece`` is ``TOOL login REGISTRY -u NAME --password-stdin`` (in any order), to
    one of ``registries``, and prints nothing it reads."""
    if piece.program not in _LOGINS or piece.wrappers or piece.writes or piece.pipes_to:
        return False
    args = piece.args
    if not args or args[0] != "login" or "--password-stdin" not in args:
        return False
    operands: list[str] = []
    skip = False
    for arg in args[1:]:
        if skip:
            skip = False
        elif arg in _USER:
            skip = True
        elif arg.startswith("--username="):
            continue
        elif arg != "--password-stdin":
            if arg.startswith("-"):
                return False
            operands.append(arg)
    return len(operands) == 1 and operands[0] in registries
