"""An edit that takes a service's access control out of its configuration.

Besides a protection's switch turned off (`switchedoff`), a configuration loses its guard
when the lines that held it are taken away: a cache or registry's ``htpasswd_file`` or
``tls_ca_file`` dropped (anyone reaches it, in the clear), Jenkins' authorization made
``unsecured`` (anyone administers the controller and reads its credentials), a pipeline's
approval step (``input ... submitter: 'release-managers'``) removed, or a bucket's ACL
made ``public-read``. Each is asked, as a protection switched off; a key that moves
within the edit (it is in the new text too) is not dropped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import change_pairs, edit_pairs

__all__ = ["drops_access"]

_AUTH_KEY = re.compile(
    r"^\s*[\"']?(?P<key>[\w.-]*(?:htpasswd|tls[_-]?(?:ca|cert|key|client)[\w-]*|client[_-]?ca"
    r"|basic[_-]?auth|auth[_-]?(?:file|required|enabled)|require[_-]?auth)[\w.-]*)"
    r"[\"']?\s*[:=]",
    re.M | re.I,
)
"""A setting that holds a service's login or TLS (``htpasswd_file:``, ``tls_ca_file:``)."""
_UNSECURED = re.compile(
    r"authorizationStrategy\s*:\s*[\"']?unsecured|AuthorizationStrategy\$Unsecured"
    r"|<useSecurity>\s*false|securityRealm\s*:\s*[\"']?none\b",
    re.I,
)
_APPROVAL = re.compile(r"\binput\b[^\n]*\bsubmitter\s*:|\binput\s*\(\s*message\s*:", re.I)
"""A Jenkins pipeline's approval step, which waits for a named person to say go."""
_PUBLIC_ACL = re.compile(
    r"""\b(?:acl|ACL|canned_acl|predefined_acl)["']?\s*[:=]\s*["']?(?:public-read(?:-write)?"""
    r"""|publicRead(?:Write)?|allUsers)\b"""
)
_MAX_TEXT = 64 * 1024


def drops_access(inputs: Mapping[str, Any]) -> bool:
    """Whether an edit drops a service's login or TLS settings, leaves Jenkins unsecured,
    removes a pipeline's approval step, or (any write) makes an ACL public."""
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if len(_PUBLIC_ACL.findall(new)) > len(_PUBLIC_ACL.findall(old)):
            return True
        if len(_UNSECURED.findall(new)) > len(_UNSECURED.findall(old)):
            return True
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        kept = {m["key"].lower() for m in _AUTH_KEY.finditer(new)}
        if any(m["key"].lower() not in kept for m in _AUTH_KEY.finditer(old)):
            return True
        if len(_APPROVAL.findall(new)) < len(_APPROVAL.findall(old)):
            return True
    return False
