"""Objects copied from one cloud bucket straight into another.

``gsutil -m cp gs://acme-exports/users/*.csv gs://jdev-scratch/``, ``aws s3 sync
s3://acme-prod-data s3://personal-bucket``: the rows never touch this machine, and
whoever holds the second bucket (another account, a person's own, a public one) reads
them from then on. A copy within one bucket (a key renamed, a prefix archived) stays
where it was and is not marked.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece

__all__ = ["BUCKET_TO_BUCKET", "PROGRAMS", "mark_bucket_copies"]

BUCKET_TO_BUCKET = "@bucket-to-bucket"
_COMMANDS = {
    "aws": (("s3",), frozenset({"cp", "mv", "sync"})),
    "gsutil": ((), frozenset({"cp", "mv", "rsync"})),
    "gcloud": (("storage",), frozenset({"cp", "mv", "rsync"})),
    "s5cmd": ((), frozenset({"cp", "mv", "sync"})),
    "azcopy": ((), frozenset({"copy", "cp", "sync"})),
}
PROGRAMS = frozenset(_COMMANDS)
_BUCKET = re.compile(r"^(?:s3|gs|az|abfss?|wasbs?)://(?P<bucket>[^/]+)|^https://(?P<account>"
                     r"[\w-]+)\.blob\.core\.windows\.net/(?P<container>[^/?]+)")  # fmt: skip
"""A bucket's URL, and the bucket (an Azure storage account's container) it names."""
_VALUED = frozenset({"--profile", "--region", "--endpoint-url", "--exclude", "--include",
                     "--storage-class", "--acl", "--sse", "--sse-kms-key-id", "-o", "-h",
                     "-u", "-p", "-x", "-y", "--billing-project", "--project",
                     "--cache-control", "--content-type", "--metadata"})  # fmt: skip


def mark_bucket_copies(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each copy from one bucket into another marked."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if piece.program in _COMMANDS and _between_buckets(piece.program, piece.args):
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, BUCKET_TO_BUCKET))
    return pieces if out is None else tuple(out)


def _between_buckets(program: str, args: tuple[str, ...]) -> bool:
    head, verbs = _COMMANDS[program]
    operands: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("-"):
            skip = arg in _VALUED
        else:
            operands.append(arg)
    if tuple(operands[: len(head)]) != head:
        return False
    rest = operands[len(head) :]
    if len(rest) < 3 or rest[0] not in verbs:
        return False
    buckets = [_bucket(a) for a in rest[1:]]
    if any(b is None for b in buckets):
        return False
    return len(set(buckets)) > 1


def _bucket(url: str) -> str | None:
    found = _BUCKET.match(url)
    if found is None:
        return None
    return found.group("bucket") or f"{found.group('account')}/{found.group('container')}"
