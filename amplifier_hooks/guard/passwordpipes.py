"""A token printed straight into the program that uses it: ``gh auth token | docker login
ghcr.io -u dev --password-stdin``, or ``curl -H "Authorization: Bearer $(gcloud auth
print-access-token)" https://x.googleapis.com/...``. The token goes to the program, which
sends it to the service the token is for and prints none of it, not to the model's
screen: the rule on printing it (``credential-print-gh``) leaves the login's printer
marked `PASSWORD_PIPED`, and the request's printer and the request are marked
`TOKEN_TO_API`, which the rules on printing a token or sending a secret leave alone.

Only a direct pipe into a registry login that reads its password from its input, to a
registry of the token's own service (GitHub's token to ``ghcr.io``), or a substitution
into a request's header whose every URL is the token's own API, with no option that
prints the request's headers (``-v``, ``--trace``): another host would be handed the
token, and a verbose request prints it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.providers import belongs

__all__ = ["PASSWORD_PIPED", "PRINTERS", "TOKEN_TO_API", "mark_password_pipes"]

PASSWORD_PIPED = "@password-piped"
"""Marks a piece whose printed token goes whole into a login of its own service."""
TOKEN_TO_API = "@token-to-own-api"
"""Marks a token's printer substituted into a header of a request to the token's own API,
and that request."""
_REGISTRIES = {"gh": frozenset({"ghcr.io", "docker.pkg.github.com", "containers.pkg.github.com"})}
"""The registries each token printer's token is for."""
_LOGINS = frozenset({"docker", "podman", "nerdctl", "buildah", "skopeo", "oras", "finch"})
"""Container tools whose ``login REGISTRY --password-stdin`` reads the password from input."""
_USER = frozenset({"-u", "--username"})


_APIS: dict[tuple[str, ...], tuple[str, ...]] = {("gh", "auth", "token"): ("github.com",),
         ("gcloud", "auth", "print-access-token"): ("googleapis.com",),
         ("gcloud", "auth", "print-identity-token"): ("run.app",)}  # fmt: skip
"""Token printers (their whole command) and the hosts of the API each token is for."""
PRINTERS = frozenset(_REGISTRIES) | {command[0] for command in _APIS}
_REQUESTERS = frozenset({"curl"})
_HEADER = frozenset({"-H", "--header"})
_SHOWS_HEADERS = ("-v", "--verbose", "--trace", "--trace-ascii", "-D", "--dump-header",
                  "--libcurl", "-K", "--config")  # fmt: skip
"""curl's options that print or save the request's headers, or read more options."""


def mark_password_pipes(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each token printer piped straight into its service's registry
    login marked `PASSWORD_PIPED`, and each substituted into a header of a request to its
    own API marked `TOKEN_TO_API` with the request (module doc)."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if _piped_in(pieces, index):
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, PASSWORD_PIPED))
            continue
        request = _sent_home(pieces, piece)
        if request is not None:
            out = out or list(pieces)
            for at in (index, request):
                if TOKEN_TO_API not in out[at].wrappers:
                    out[at] = out[at]._replace(wrappers=(*out[at].wrappers, TOKEN_TO_API))
    return pieces if out is None else tuple(out)


def _piped_in(pieces: tuple[Piece, ...], index: int) -> bool:
    registries = _REGISTRIES.get(pieces[index].program or "")
    if registries is None or index + 1 >= len(pieces):
        return False
    receiver = pieces[index + 1]
    return pieces[index].pipes_to == (receiver.program,) and _logs_in(receiver, registries)


def _sent_home(pieces: tuple[Piece, ...], piece: Piece) -> int | None:
    """The index of the request into a header of which ``piece`` prints a token by a
    ``$(...)``, when every URL of it is the token's own API and it sends no other value of
    a variable, a command's output or a file (module doc); else None."""
    hosts = _APIS.get((piece.program or "", *piece.args))
    if hosts is None or len(piece.pipes_to) != 1 or piece.pipes_to[0] not in _REQUESTERS:
        return None
    used = f"$({piece.text})"
    for index, request in enumerate(pieces):
        if request.program != piece.pipes_to[0] or not any(used in a for a in request.args):
            continue
        args = request.args
        if any(a.startswith(_SHOWS_HEADERS) for a in args):
            return None
        for at, arg in enumerate(args):
            if used in arg and (at == 0 or args[at - 1] not in _HEADER):
                return None  # (in the URL, the data, anything but a header)
            if "$" in arg.replace(used, "") or arg.startswith("@"):
                return None  # (another value sent: judged as it would be without the token)
        urls = [urlsplit(a).hostname or "" for a in args if a.startswith("https://")]
        home = bool(urls) and all(belongs(h, hosts) for h in urls)
        return index if home and not any(a.startswith("http://") for a in args) else None
    return None


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
