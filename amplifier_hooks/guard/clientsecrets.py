"""A secret named so that the front end's build puts it in every visitor's download.

Next.js, Vite, Create React App, Expo, Nuxt, SvelteKit, Gatsby and Vue CLI copy each
environment variable with their public prefix (``NEXT_PUBLIC_``, ``VITE_``,
``REACT_APP_``, ...) into the JavaScript they ship, in the clear. A secret given that
prefix (``NEXT_PUBLIC_SUPABASE_SERVICE_ROLE_KEY``, ``VITE_STRIPE_SECRET_KEY``) is readable
by anyone who opens the site: the service role key bypasses every row-level rule. An edit
or write that adds such a name, in code or in an ``.env`` file, is marked
`SECRET_TO_BROWSER` (asked).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["SECRET_TO_BROWSER", "exposes_secret"]

SECRET_TO_BROWSER = "@secret-to-browser"
_PUBLIC_SECRET = re.compile(
    r"\b(?:NEXT_PUBLIC|VITE|REACT_APP|EXPO_PUBLIC|NUXT_PUBLIC|PUBLIC|GATSBY|VUE_APP)_"
    r"[A-Z0-9_]*?(?:SERVICE_ROLE|SECRET|PRIVATE_KEY|ADMIN_KEY|SERVICE_ACCOUNT|MASTER_KEY)"
    r"[A-Z0-9_]*\b"
)
_MAX_TEXT = 64 * 1024


def exposes_secret(inputs: Mapping[str, Any]) -> bool:
    """Whether the text a write or edit adds names a secret with a public prefix."""
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        added = set(_PUBLIC_SECRET.findall(new)) - set(_PUBLIC_SECRET.findall(old))
        if added:
            return True
    return False
