"""Readers of a credential file that print only what is public of it.

``openssl x509 -in lab/ca/crl.pem -noout -text`` (and ``crl``) prints a certificate or
a revocation list: a public document, kept in ``.pem`` files as private keys are; given a
key, openssl prints an error, none of the key. ``age-keygen -y ~/.config/sops/age/keys.txt``
prints the recipient (the public key) of the identity it reads. Such a piece is marked
`PUBLIC_PRINTED`, which `credential-read` leaves alone; what else it does (a write, a
pipe to another machine) is judged as before.
"""

from __future__ import annotations

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table.certs import AGE_KEYGENS, age_recipient_files
from amplifier_hooks.guard.table.opensslfiles import prints_certificate

__all__ = ["PROGRAMS", "PUBLIC_PRINTED", "mark_public_prints"]

PUBLIC_PRINTED = "@public-printed"
"""A piece that prints only what is public of the credential file it reads."""
PROGRAMS = frozenset({"openssl", *AGE_KEYGENS})
"""The programs `mark_public_prints` reads."""


def mark_public_prints(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each that prints only the public part of what it reads marked."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if piece.program not in PROGRAMS or piece.dynamic or piece.tool != "bash":
            continue
        if piece.program == "openssl" and not prints_certificate(piece.args):
            continue
        if piece.program != "openssl" and age_recipient_files(piece.args) is None:
            continue
        out = out or list(pieces)
        out[index] = piece._replace(wrappers=(*piece.wrappers, PUBLIC_PRINTED))
    return pieces if out is None else tuple(out)
