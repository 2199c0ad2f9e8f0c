"""A new ssh key made in the person's ``~/.ssh``: ``ssh-keygen -t ed25519 -f
~/.ssh/project_deploy -N ""`` writes two new files there (the key and its ``.pub``) and
prints only the public key's fingerprint.

Nothing is lost (neither file exists yet: an existing key is read over, which
`credential-read` denies, and ``ssh-keygen`` would ask to write over it) and nothing is
granted access: a key lets no one in until its public half is put in an
``authorized_keys`` or a forge, which the rules judge on their own. Such a piece is marked
`NEW_SSH_KEY`, so writing that file outside the workspace is not asked, nor denied as a
credential changed. The default identities (``id_rsa``, ``id_ed25519``, ...) keep their
own rules (`credential-change`): ssh offers them unasked, so one made anew would be
offered to every host; ``id_ed25519_work`` is not offered unless a Host names it.
"""

from __future__ import annotations

import os

from amplifier_hooks.guard.keyprints import new_key_out
from amplifier_hooks.guard.model import Piece, Places

__all__ = ["NEW_SSH_KEY", "mark_new_ssh_keys"]

NEW_SSH_KEY = "@new-ssh-key"
_DEFAULT_IDENTITIES = frozenset({"id_rsa", "id_dsa", "id_ecdsa", "id_ecdsa_sk", "id_ed25519",
                                 "id_ed25519_sk", "id_xmss"})  # fmt: skip
"""The key files ssh offers to every host unless told otherwise."""
_PLAIN_NAME = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-@+")
"""The letters of a key file's name taken as it is (no folder, pattern or variable)."""
"""``ssh-keygen`` making a new key file directly in the person's ``~/.ssh``."""


def mark_new_ssh_keys(pieces: tuple[Piece, ...], places: Places) -> tuple[Piece, ...]:
    """``pieces`` with each ``ssh-keygen`` that makes a new key in ``~/.ssh`` marked."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if piece.program != "ssh-keygen":
            continue
        target = new_key_out(piece)
        name = target[len("~/.ssh/") :] if target and target.startswith("~/.ssh/") else ""
        if not name or name.startswith(".") or name in _DEFAULT_IDENTITIES:
            continue
        if not _PLAIN_NAME.issuperset(name):
            continue
        path = os.path.join(str(places.home), ".ssh", name)
        if os.path.lexists(path) or os.path.lexists(path + ".pub"):
            continue
        out = out or list(pieces)
        out[index] = piece._replace(wrappers=(*piece.wrappers, NEW_SSH_KEY))
    return pieces if out is None else tuple(out)
