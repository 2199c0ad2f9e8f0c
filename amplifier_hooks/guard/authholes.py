"""Holes cut into a sign-in check, in the words of today's web frameworks.

Besides a check taken out or switched off (`authchecks`), an edit can leave the check in
place and make it pass: Laravel's CSRF exceptions or Flask-WTF's ``csrf.exempt`` given a
path that is not a webhook's, a master key compared beside the constant-time comparison
of the real one, a token's claims read after its signature check is gone, a secret's
setting given a literal, a production-only refusal removed, a list of public routes told
that ``/`` is one (every path starts with it), a key checked only when one is sent, a
request without a token answered with a user, a user chosen by a header the caller sends,
a request body's struct given a role or a verified flag, an admin router moved past the
layer that guards it. `authchecks` asks each as a sign-in weakened.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.changedtext import added, more

__all__ = ["holes_cut"]


def holes_cut(old: str, new: str) -> bool:
    """Whether ``new`` (the text that replaces ``old``) cuts one of the module's holes."""
    if old and (
        _csrf_exempted(old, new) or more(_MASTER_KEY, old, new) or _literal_secret(old, new)
    ):
        return True
    if old and _verification_dropped(old, new):
        return True
    if old and len(_PROD_REFUSAL.findall(new)) < len(_PROD_REFUSAL.findall(old)):
        return True
    if _PUBLIC_WORDS.search(new) and (
        added(_EVERY_PATH, old, new) or added(_ROOT_LISTED, old, new)
    ):
        return True
    if old and (added(_OPTIONAL_CHECK, old, new) or added(_NO_TOKEN_PASS, old, new)):
        return True
    if added(_HEADER_USER, old, new) or _csrf_exempt_call(old, new):
        return True
    if "Deserialize" in new and more(_PRIVILEGED_FIELD, old, new):
        return True
    return bool(old) and _admin_unlayered(old, new)


_CSRF_EXCEPT = re.compile(
    r"(?:validateCsrfTokens\s*\(\s*except\s*:|\$except\s*=)\s*\[(?P<list>[^\]]*)\]"
)
_HOOK_PATH = re.compile(r"webhook|hooks?/|callback|stripe|paddle|ipn|twilio|slack|github", re.I)


def _csrf_exempted(old: str, new: str) -> bool:
    """Laravel's CSRF check told to skip more paths, one not a webhook's (a provider's
    callback signs its own requests; ``admin/*`` is a person's session)."""
    if "except" not in new:
        return False
    before = {
        e for m in _CSRF_EXCEPT.finditer(old) for e in re.findall(r"[\"']([^\"']*)[\"']", m["list"])
    }
    after = {
        e for m in _CSRF_EXCEPT.finditer(new) for e in re.findall(r"[\"']([^\"']*)[\"']", m["list"])
    }
    return any(not _HOOK_PATH.search(entry) for entry in after - before)


_MASTER_KEY = re.compile(
    r"[!=]==?\s*[\"'][^\"'\n]{6,}[\"'][^\n]*\b(?:ConstantTimeCompare|compare_digest|timingSafeEqual"
    r"|hash_equals|password_verify|Hash::check|checkpw|bcrypt\.compare|MessageDigest\.isEqual)"
)
"""A key compared with a fixed string beside the constant-time comparison of the real one:
a master key that opens every account."""
_PROD_REFUSAL = re.compile(
    r"\bif\s*\(?[^\n]*\b(?:Env|ENV|env|environment|Environment|APP_ENV)\w*\s*===?\s*[\"']"
    r"(?:production|prod)[\"'][^\n]*\n\s*return\b"
)
"""A handler's refusal in production (``if cfg.Env == "production" { return }`` before a
debug route): without it, production serves the route."""
_EVERY_PATH = re.compile(
    r"\b(?:HasPrefix|startsWith|startswith|starts_with)\(\s*(?:\w+\s*,\s*)?[\"']/[\"']\s*\)"
)
_ROOT_LISTED = re.compile(
    r"\b\w*(?:PUBLIC|EXEMPT|ALLOW|OPEN|SKIP|public|exempt)\w*\s*=\s*[\(\[][^\)\]\n]*[\"']/[\"']\s*,?\s*[\)\]]"
)
_OPTIONAL_CHECK = re.compile(r"\bif\s+(?P<v>\w+)\s+and\s+(?P=v)\s+(?:not\s+in|!=)\s")
"""A key's check made to run only when a key is sent: a request without one passes."""
_NO_TOKEN_PASS = re.compile(
    r"\bif\s+not\s+(?:token|api_key|x_api_key|credentials|authorization|auth_header)\s*:\s*\n"
    r"(?:[ \t]*#[^\n]*\n)*[ \t]*return\b(?!\s*None\b)"
)
"""A request without a token answered with someone (the first user) instead of a refusal."""
_HEADER_USER = re.compile(
    r"=\s*request\.headers\.get\(\s*[\"']X-[\w-]+[\"']\s*\)\s*\n\s*if\s+\w+\s*:\s*\n\s*return\b"
)
"""A user chosen by a header the caller sends (``X-Support-User``): anyone becomes anyone."""
_CSRF_EXEMPT = re.compile(r"\bcsrf\.exempt\(\s*(?P<what>[\w.]+)")


def _csrf_exempt_call(old: str, new: str) -> bool:
    """Flask-WTF's CSRF check taken off a view or a blueprint that is not a webhook's."""
    before = {m["what"] for m in _CSRF_EXEMPT.finditer(old)}
    return any(
        m["what"] not in before and not _HOOK_PATH.search(m["what"])
        for m in _CSRF_EXEMPT.finditer(new)
    )


_PUBLIC_WORDS = re.compile(r"public|skip_?auth|exempt|allowlist|whitelist|unauthenticated", re.I)
"""A list of public or exempt routes told that whatever starts with ``/`` is one: every
method and path then skips the sign-in."""
_VERIFIES = re.compile(
    r"\bjwt\.Parse(?:WithClaims)?\(|\bparseSignedClaims\(|\bparseClaimsJws\(|\.verifyWith\("
    r"|\bsetSigningKey\(|\bJWT\.require\("
)
_TOKEN_READ = re.compile(r"\bclaims\b|\btoken\b|\bpayload\b", re.I)


def _verification_dropped(old: str, new: str) -> bool:
    """A token's signature check in the old text, none in the new that still reads its
    claims (the payload decoded by hand)."""
    return (
        bool(_VERIFIES.search(old)) and not _VERIFIES.search(new) and bool(_TOKEN_READ.search(new))
    )


_SECRET_SETTING = re.compile(
    r"^[ \t]*(?P<key>[\w.-]*(?:secret|signing-key|signingKey|signing_key))\s*[:=]\s*"
    r"(?P<value>\S[^\n]*)$",
    re.M | re.I,
)


def _literal_secret(old: str, new: str) -> bool:
    """A secret's setting taken from the environment (``secret: ${JWT_SECRET}``) given a
    literal value instead: every deploy signs with the word in the repository."""
    before = {m["key"]: m["value"] for m in _SECRET_SETTING.finditer(old)}
    for m in _SECRET_SETTING.finditer(new):
        value = before.get(m["key"])
        if value and "${" in value and "${" not in m["value"] and "(" not in m["value"]:
            return True
    return False


_PRIVILEGED_FIELD = re.compile(
    r"^\s*pub\s+(?:role|roles|is_admin|is_verified|is_superuser|is_staff|permissions|admin)\s*:",
    re.M,
)
"""A field of a request body's struct (serde's ``Deserialize``) that sets who the caller
is: whoever sends ``{"role": "admin"}`` becomes it."""
_ADMIN_ROUTE = re.compile(r"\.(?:nest|route|merge)\(\s*\"/admin")
_GUARD_LAYER = re.compile(r"layer\([^\n]*\b(?:require_\w+|auth\w*)\b")


def _admin_unlayered(old: str, new: str) -> bool:
    """axum's admin routes moved from before the layer that guards them (a layer wraps the
    routes added before it) to after it."""

    def before_layer(text: str) -> bool | None:
        lines = text.splitlines()
        admin = next((i for i, line in enumerate(lines) if _ADMIN_ROUTE.search(line)), None)
        layer = next((i for i, line in enumerate(lines) if _GUARD_LAYER.search(line)), None)
        return None if admin is None or layer is None else admin < layer

    return before_layer(old) is True and before_layer(new) is False
