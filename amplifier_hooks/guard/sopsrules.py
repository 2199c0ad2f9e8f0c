"""An edit of SOPS's rules (``.sops.yaml``) that lets more people decrypt, or keeps fewer
values encrypted.

``.sops.yaml``'s ``creation_rules`` say, for each path, which keys a secret is encrypted
to (age recipients, PGP fingerprints, cloud KMS keys, Vault transit keys) and which of its
values are encrypted (``encrypted_regex``, ``unencrypted_suffix``...). A recipient added
is someone new who can read every secret written from then on (and every one
``sops updatekeys`` re-encrypts); a narrower ``encrypted_regex`` leaves the rest in clear
text in git. Each is a one-line edit that looks like housekeeping: a recipient added
beside those an edit's old text names, or a setting of what is encrypted changed or taken
out, is asked (`SOPS_WIDENED`). A new rule for a new path, or a path's pattern widened,
is not.

Only an edit (old and new text) is read: a whole file written has no old text to compare.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import added, dropped
from amplifier_hooks.guard.ignorefiles import edit_pairs

__all__ = ["SOPS_WIDENED", "widens_sops"]

SOPS_WIDENED = "@sops-rules-widened"

_RECIPIENT = re.compile(
    r"\bage1[0-9a-z]{50,}|\b[0-9A-F]{40}\b|arn:aws:kms:[^\s,'\"]+"
    r"|projects/[^\s/]+/locations/[^\s/]+/keyRings/[^\s/]+/cryptoKeys/[^\s,'\"]+"
    r"|https://[\w.-]+\.vault\.azure\.net/keys/[^\s,'\"]+"
    r"|https?://[^\s,'\"]+/v1/[^\s,'\"]+/keys/[^\s,'\"]+"
)
"""A key a secret is encrypted to: an age recipient, a PGP fingerprint, a KMS key."""
_ENCRYPTED = re.compile(
    r"^\s*-?\s*(?:encrypted_regex|encrypted_suffix|unencrypted_regex|unencrypted_suffix"
    r"|encrypted_comment_regex|unencrypted_comment_regex|mac_only_encrypted)\s*:.*$",
    re.M,
)
"""The settings that say which values are encrypted."""
_MAX_TEXT = 200_000


def widens_sops(paths: Iterable[str], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit of a ``.sops.yaml`` among ``paths`` adds a recipient or changes
    which values are encrypted."""
    if not any(p.rpartition("/")[2] in (".sops.yaml", ".sops.yml") for p in paths):
        return False
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        # a list of recipients that grows (a new rule's first recipients are no one added
        # beside anyone), or a setting of what is encrypted that changes or goes
        if (_RECIPIENT.search(old) and added(_RECIPIENT, old, new)) or dropped(
            _ENCRYPTED, old, new
        ):
            return True
    return False
