"""A secret picked out of a file by its field's name and printed: ``jq -r .token
config/bot.json``, ``grep rcon.password server.properties``.

The file itself is ordinary (a bot's configuration, a game server's settings, an API's
answer on a pipe), so no rule on its name holds; the filter or the search names the field
that holds the secret, and the program prints that field's value where the model reads it.
A search prints matching lines only when it is not told to list names or count (``-l``,
``-c``, ``-q``), and only a search of one file of settings (a folder searched for the
word, ``grep -rn password docs/``, is a look for where it is used).
"""

from __future__ import annotations

import posixpath
import re

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.secrets import secret_kind
from amplifier_hooks.guard.table import patterned
from amplifier_hooks.guard.table.text import SEARCHES

__all__ = ["FIELD_READERS", "SECRET_FIELD", "mark_secret_fields"]

SECRET_FIELD = "@secret-field-print"
FIELD_READERS = frozenset({"jq", "gojq", "jaq", "yq", *SEARCHES})

_NAMES = (
    r"token|password|passwd|secret|api_?key|apikey|private_?key|access_?token|refresh_?token"
    r"|client_?secret|secret_?key|access_?key|auth_?token|bearer_?token|webhook_?url|pass|cookies?"
    r"|root_?token|(?:unseal|recovery)_?keys?(?:_b64|_hex)?"
)
_FILTER_FIELD = re.compile(rf"""(?:\.|\[\s*")"?(?:{_NAMES})"?(?![\w-])""", re.I)
"""A jq or yq path's field named for a secret: ``.token``, ``.bot.password``, ``["api_key"]``
(not ``.tokenizer`` nor ``.items[].key``)."""
_SEARCH_FIELD = re.compile(
    rf"(?:^|[\W_])(?:{_NAMES})(?![a-z])|(?-i:(?<=[a-z])(?:Pass(?:word|wd)?|Secret|Token)(?![a-z]))",
    re.I,
)
"""A search pattern naming a secret's key: ``rcon.password``, ``^DB_PASSWORD=``,
``StoragePass`` (slurmdbd.conf's) in camel case."""
_SETTINGS = re.compile(
    r".\.(?:properties|ini|conf|cfg|cnf|toml|json|ya?ml|xml|config|plist)$", re.I
)
"""A file of settings (a ``.env`` is the env rules': `losses`)."""
_EXAMPLE = re.compile(r"[.-](?:example|sample|template|dist|tmpl|defaults?)(?:\.|$)", re.I)
"""A file of placeholders: ``.env.example``, ``config.sample.json``."""
_QUIET = frozenset({"-l", "-L", "-c", "-q", "--files-with-matches", "--files-without-match",
                    "--count", "--quiet", "--silent"})  # fmt: skip


def mark_secret_fields(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces``, each that prints a secret field by its name marked `SECRET_FIELD`."""
    marked = [p.program in FIELD_READERS and _prints_field(p) for p in pieces]
    if not any(marked):
        return pieces
    return tuple(
        p._replace(wrappers=(*p.wrappers, SECRET_FIELD)) if hit else p
        for p, hit in zip(pieces, marked, strict=True)
    )


def _prints_field(piece: Piece) -> bool:
    program, args = piece.program or "", piece.args
    if program not in SEARCHES:
        words = [a for a in args if not a.startswith("-")]
        if words[1:] and all(_EXAMPLE.search(posixpath.basename(w)) for w in words[1:]):
            return False  # `jq .token config.example.json`: placeholders
        if any(secret_kind(w) is not None for w in words[1:]):
            return False  # a key file's own read: the secrets-by-name rules (`losses`)
        return any(_FILTER_FIELD.search(f) for f in words[:1])
    if any(a in _QUIET or (a[:1] == "-" and a[1:2] != "-" and set(a[1:]) & set("lLcq"))
           for a in args):  # fmt: skip
        return False
    patterns, read = patterned(program, args)
    files = read.operands
    name = posixpath.basename(files[0]) if len(files) == 1 else ""
    if not _SETTINGS.search(name) or _EXAMPLE.search(name):
        return False
    if "/.github/workflows/" in f"/{files[0]}" or "/.gitlab-ci" in f"/{files[0]}":
        return False  # a workflow names its secrets (`${{ secrets.NPM_TOKEN }}`), holds none
    return any(_SEARCH_FIELD.search(p) for p in patterns)
