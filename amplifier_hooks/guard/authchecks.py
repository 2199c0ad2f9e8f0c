"""An edit that weakens how the application checks who is signed in.

``jwt.verify(token, key)`` turned into ``jwt.decode(token)``, ``.anyRequest().permitAll()``,
``bcrypt.hash`` turned into ``md5``, ``password === 'support-2024' ||`` before the real
comparison, ``return true`` as the first line of ``isAllowedRedirect``: each is a small,
plausible edit of the project's own code, and from the next deploy on anyone can sign in,
as anyone. The guard cannot review code; it can see that an edit takes out or loosens one
of the checks a sign-in rests on, and marks it `AUTH_WEAKENED` (asked: a person reads it).

What counts, in the new text and not the old:

- a token's signature or expiry no longer checked (``verify_signature: False``,
  ``ignoreExpiration: true``, ``algorithms: ["none"]``; ``jwt.verify`` replaced by
  ``jwt.decode``);
- CSRF protection switched off (Rails' ``allow_forgery_protection = false``, ASP.NET's
  ``[IgnoreAntiforgeryToken]``), every request permitted (CanCanCan's ``can :manage,
  :all``), every parameter mass-assigned (``params.permit!``), any origin allowed with
  credentials (``SetIsOriginAllowed(_ => true)``);
- a JWT's issuer, audience, lifetime or signing key no longer validated
  (``ValidateLifetime = false``, a ``SignatureValidator`` of the app's own), a cookie sent
  over plain HTTP or readable by scripts;
- a password stored as given or hashed with MD5 or SHA-1 (Django's ``MD5PasswordHasher``),
  or a hash's cost (rounds, ``time_cost``, ``memory_cost``) lowered;
- a password compared with a fixed string (a master password);
- a check (a function whose name says it authenticates, authorizes or allows) that now
  returns ``true`` or calls ``next()`` before its checks, or compares a request's
  parameter or header with a fixed string;
- a rate limiter taken off a route (a name holding ``Limiter``, ``rateLimit``,
  ``throttle`` in the old text and not the new), or a route's sign-in or signature check
  (``basicAuth(...)``, ``requireAuth``, ``verifyWebhookSignature``; Django's
  ``@login_required`` is `switchedoff`'s);
- a token's or a session's lifetime made fifty times longer or more;
- an entry added to a list of the application's administrators (``config/admins.yml``);
- Laravel's and Spring's own: a CSRF exception that is not a webhook's, a route's ``auth``
  middleware taken off, ``Gate::before`` that says yes, ``$guarded = []``, a session
  cookie opened, ``NoOpPasswordEncoder``, the filter chain ignoring ``/**``, a token's
  validators replaced by success, a signing secret given a literal or a fallback value;
- a master key compared beside the constant-time comparison, a token's signature check
  taken out while its claims are still read, a production-only refusal taken out, a list
  of public routes told that every path starting with ``/`` is one.

Lifetimes, costs and replay windows are read by `lifetimes`.

A test's file (``tests/``, ``test_*.py``, ``*.spec.ts``) signs nobody in and is not read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.authholes import holes_cut
from amplifier_hooks.guard.changedtext import added, dropped, lines_added, live_matches, more
from amplifier_hooks.guard.ignorefiles import change_pairs
from amplifier_hooks.guard.lifetimes import (
    cost_lowered,
    lifetime_raised,
    sign_in_named,
    window_widened,
)
from amplifier_hooks.guard.testpaths import test_code, test_settings

__all__ = ["AUTH_WEAKENED", "weakens_auth"]

AUTH_WEAKENED = "@auth-weakened"

_LOOSENED = re.compile(
    r"verify_signature[\"']?\s*:\s*False|ignoreExpiration\s*:\s*true"
    r"|verify_(?:exp|aud|iss|iat|nbf)[\"']?\s*:\s*False|\bget_unverified_claims\("
    r"|\bLOGIN_DISABLED\s*=\s*True\b|\bleeway\s*=\s*timedelta\(\s*days\s*=\s*\d{3,}"
    r"|\bdependency_overrides\[\s*\w*(?:current_user|auth|user|admin)\w*\s*\]\s*="
    r"|\bschemes\s*=\s*\[[^\]\n]*[\"'](?:plaintext|md5_crypt|des_crypt|ldap_plaintext|hex_md5)[\"']"
    r"|\balgorithms\s*=\s*(?:vec!)?\[[^\]\n]*(?:RS\d+[^\]\n]*HS\d+|HS\d+[^\]\n]*RS\d+)"
    r"|(?:environ\.get|getenv)\(\s*[\"']\w*(?:SECRET|SIGNING_KEY|JWT_KEY)\w*[\"']\s*,\s*[\"'][^\"'\n]+[\"']\s*\)"
    r"|\bSECRET_KEY\s*:\s*\w+\s*=\s*(?:SecretStr\(\s*)?[\"']"
    r"|\broute\([\"'][^\"']*(?:login-as|login_as|impersonate)"
    r"|algorithms\s*[:=]\s*\[[^\]\n]*[\"']none[\"']|\bcsrf(?:\(\))?\s*\.disable\(\)|csrf\s*->\s*csrf\.disable"
    r"|@csrf_exempt|\bskip_forgery_protection\b|\b(?:WTF_)?CSRF_ENABLED\s*=\s*False"
    r"|anyRequest\(\)\s*\.permitAll\(\)|\b(?:MD5|SHA1|UnsaltedMD5|UnsaltedSHA1|Crypt)PasswordHasher"
    r"|createHash\(\s*[\"'](?:md5|sha1)[\"']\s*\)[^\n]{0,60}pass|hashlib\.(?:md5|sha1)\([^\n]{0,40}pass"
    r"|\b(?:Digest::)?(?:MD5|SHA1)\.hexdigest\([^\n]{0,40}pass"
    r"|\bchecks\s*:\s*\[\s*[\"']none[\"']"
    r"|\bskip_before_action\s+:(?:authenticate\w*|require_\w+|authorize\w*|verify_\w+|check_\w+"
    r"|ensure_\w+)"
    r"|\.permit\([^)\n]*:(?:role|roles|admin|is_admin|superuser|account_id|tenant_id"
    r"|organization_id|permissions)\b"
    r"|\[AllowAnonymous\]|@PermitAll\b"
    r"|PERMISSION_CLASSES[\"']?\s*[:=]\s*[\[(]\s*[\"']?[\w.]*AllowAny\b"
    r"|@login_not_required\b|@Public\(\)",
    re.I,
)
_LOOSENED_NAMED = re.compile(
    r"\.permit!(?![\w=])|\ballow_forgery_protection\s*=\s*false"
    r"|\bValidate(?:Issuer|Audience|Lifetime|IssuerSigningKey)\s*=\s*false"
    r"|\bRequire(?:SignedTokens|ExpirationTime|HttpsMetadata)\s*=\s*false|\bSignatureValidator\s*="
    r"|\[IgnoreAntiforgeryToken\]|\.DisableAntiforgery\(\)"
    r"|\bCookieSecurePolicy\.None\b|\bHttpOnly\s*=\s*false\b|\.User\s*=\s*new\s+ClaimsPrincipal\b"
    r"|\bKnown(?:Networks|Proxies)\.Clear\(\)|[\"']trust proxy[\"']\s*,\s*true\b"
    r"|\bAllowAnyOrigin\(\)"
    r"|\bGate::before\([^\n]*=>\s*true\b|\bauthenticateAccessTokensUsing\([^\n]*=>\s*true\b"
    r"|\$guarded\s*=\s*\[\s*\]|\bModel::unguard\(\)|\bforceCreate\(\s*\$request->all\(\)"
    r"|\bPassport::enableImplicitGrant\(\)"
    r"|\benv\(\s*[\"']\w*(?:SECRET|SIGNING_KEY)\w*[\"']\s*,\s*[\"'][^\"'\n]+[\"']\s*\)"
    r"|@ConditionalOn\w+\([^)\n]*\)\s*\n\s*(?:public\s+)?class\s+\w*Security\w*"
    r"|@EnableWebSecurity\s*\n\s*@ConditionalOn\w+\("
    r"|\bParseUnverified\(|\.unsecured\(\)|\bparseUnsecured\w*\("
    r"|\b(?:NoOpPasswordEncoder|StandardPasswordEncoder|LdapShaPasswordEncoder|Md4PasswordEncoder)\b"
    r"|\bMessageDigestPasswordEncoder\(\s*[\"'](?:MD5|SHA-?1)[\"']"
    r"|\.csrf\(\s*(?:AbstractHttpConfigurer|CsrfConfigurer)::disable\s*\)"
    r"|\bignoring\(\)\s*\.(?:requestMatchers|antMatchers)\(\s*[\"']/\*\*[\"']\s*\)"
    r"|\.headers\(\s*(?:\w+\s*->\s*\w+\.disable\(\)|(?:AbstractHttpConfigurer|HeadersConfigurer)::disable)\s*\)"
    r"|\bsetJwtValidator\([^\n]*OAuth2TokenValidatorResult\.success\(\)"
    r"|\bclockSkew\w*\(\s*(?:Long|Integer)\.MAX_VALUE|\bh2-console[^\n]*\bpermitAll\(\)"
    r"|\bhmacShaKeyFor\(\s*[\"']|@CrossOrigin\(\s*(?:origins\s*=\s*)?\{?\s*\"\*\""
    r"|\b(?:CorsLayer|Cors)::(?:very_)?permissive\(\)|\bAllowOrigin::mirror_request\(\)"
    r"|\binsecure_disable_signature_validation\(\)|\bValidation::new\(\s*header\.alg\s*\)"
    r"|\bvalidate_(?:exp|aud|nbf|iss)\s*=\s*false\b|\bDefaultBodyLimit::disable\(\)"
    r"|(?s:Cookie::build.{0,300}?\.(?:secure|http_only)\(\s*false\s*\))"
    r"|\benv::var\(\s*\"\w*(?:SECRET|SIGNING_KEY)\w*\"\s*\)\s*\.unwrap_or(?:_else)?\(\s*(?:\|_\|\s*)?\""
)
"""Rails', ASP.NET Core's, Laravel's and Spring's own loosenings, each named by one of
`_NAMED`."""
_NAMED = ("permit!", "forgery", "Validate", "Require", "SignatureValidator", "Antiforgery",
          "CookieSecurePolicy", "HttpOnly", "ClaimsPrincipal", "Known", "trust proxy",
          "AllowAnyOrigin", "Gate::", "authenticateAccessTokensUsing", "guarded",
          "unguard", "forceCreate", "Passport::", "env(", "@ConditionalOn", "Unverified",
          "nsecured", "PasswordEncoder", "csrf(", "ignoring()", "headers(", "JwtValidator",
          "clockSkew", "h2-console", "hmacShaKeyFor", "@CrossOrigin", "ermissive",
          "mirror_request", "insecure_disable", "header.alg", "validate_", "BodyLimit",
          "Cookie::build", "env::var")  # fmt: skip
"""The speed trick of this module: `_LOOSENED_NAMED` is read only where the text holds one
of these words (as `tlscode._NAMES`: a long write's benchmark lost a third to one regex of
every alternative)."""
_CORS_ANY = re.compile(
    r"origin\s*:\s*(?:true|[\"']\*[\"']|\([^)]*\)\s*=>\s*\w+\(\s*null\s*,\s*true\s*\))"
    r"|allow_origin_regex\s*=\s*r?[\"'](?:[^\"'\n]*://)?\.[*+][\"']|allow_origins\s*=\s*\[\s*[\"']\*[\"']\s*\]"
    r"|\bAllowAnyOrigin\(\)|\borigins\s+[\"']\*[\"']|\borigins\s+/\.\*/"
    r"|\bregex\s*:\s*[\"']?\.[*+][\"']?[ \t]*(?:\n|$)"
    r"|\bAllowOriginFunc\s*:\s*func\s*\([^)]*\)\s*bool\s*\{\s*return\s+true\b"
    r"|\bAllowedOrigins\s*:\s*\[\]string\{\s*\"\*\"\s*\}",
    re.I,
)
_CREDENTIALS = re.compile(
    r"credentials\s*:\s*true|allow_credentials\s*[:=]\s*True|\bAllowCredentials\(\)", re.I
)
_ANY_ORIGIN_ALLOWED = re.compile(r"\bSetIsOriginAllowed\(\s*\(?\s*\w*\s*\)?\s*=>\s*true\s*\)")
"""ASP.NET Core's origin check that says yes to every origin: it exists to send credentials
to any site (``AllowAnyOrigin`` with them is refused at start)."""
_PLAIN_STORED = re.compile(
    r"\bpassword_?hash\w*\s*=\s*(?:raw|password|plain\w*|pw)\s*$|passwordHash\s*:\s*(?:password|raw)\b",
    re.I | re.M,
)
_PASSWORD_COMPARE = re.compile(r"\b\w*password\s*[!=]==?\s*[\"'][^\"'\n]+[\"']", re.I)
_REQUEST_COMPARE = re.compile(
    r"(?:query_params|headers|query|params|cookies|args|GET|POST)\b[^\n]{0,40}[!=]==?\s*[\"'][^\"'\n]+[\"']",
    re.I,
)
_CHECK_NAME = re.compile(
    r"(?:function|def|fn|func)\s+(?P<name>\w*(?:auth|admin|allowed|permi|login|verify|signed"
    r"|canActivate|signIn|sign_in)\w*)"
    r"|\bGate::define\(|\bGate\.define\("
    r"|^[ \t]*(?:(?:async|public|private|protected|static|override)\s+)*"
    r"(?P<method>\w*(?:auth|admin|allowed|permi|login|verify|signed|canActivate|signIn)\w*)"
    r"\s*\([^\n]*\)\s*(?::[^{\n]+)?\{[ \t]*$",
    re.I | re.M,
)
_HEAD_LINES = 4
"""How many lines after a check's first line a ``return true`` counts as before its checks."""
_WAVED = re.compile(
    r"^\s*(?:if\s*\(?[^\n]*\b(?:headers?|query|params|cookies|Headers|Query)\b[^\n]*\)?\s*:?\s*\{?\s*)?"
    r"return\s+(?:true|True|next\(\)|await\s+next\(\)|await\s+_next\(\w*\)|_next\(\w*\))"
    r"\s*;?\s*\}?\s*(?:(?:#|//)[^\n]*)?$",
    re.M,
)
"""A check that lets the caller through at once, or on a header, a query parameter or a
cookie the caller sends (``if (req.headers["x-internal"]) return next();``)."""
_LIMITER = re.compile(
    r"\b\w*(?:Limiter|limiter\.limit|rateLimit|RateLimit|throttle|Throttle|cooldown|Cooldown"
    r"|retry_after)\w*\b"
)
_GATE = re.compile(
    r"\b(?:basicAuth|requireAuth\w*|requireLogin|ensureAuthenticated|isAuthenticated"
    r"|authMiddleware|jwtAuth|requires_auth|auth_required"
    r"|passport\.authenticate|verify\w*(?:Signature|Webhook|Token)\w*"
    r"|verify_\w*(?:signature|webhook|token)\w*|\w+_verify_\w*(?:signature|sig)\w*"
    r"|require\w*(?:SecondFactor|Mfa|MFA|TwoFactor|2fa|Otp|OTP)\w*|require_(?:mfa|2fa|otp)\w*"
    r"|only(?:Owner|Role|Roles|Admin|Governance|Governor|Guardian|Authorized|Operator|Minter"
    r"|Timelock|Multisig|Proxy|Upgrader)|requiresAuth"
    r"|\w*Authori[sz]ation(?:Interceptor|Filter|Middleware|Guard|Handler)|\w*Auth(?:Interceptor|Guard)"
    r"|state\s*!==?\s*[\w.]*[sS]tate|auth\.protect|multifactor\.enable|\w+\.verify(?=\(\s*body)"
    r"|(?:bot_)?has_(?:guild_)?permissions|has_(?:any_)?role|is_owner|default_permissions"
    r"|setDefaultMemberPermissions\(\s*PermissionFlagsBits[\w.]*"
    r"|bcrypt\.compare(?:Sync)?|bcrypt\.checkpw|argon2\.verify|verify_password|check_password"
    r"|password_verify|Hash::check|compare_digest|timingSafeEqual"
    r"|Depends\(\s*(?:require|get_current|verify|check)_\w+|Security\(\s*\w+"
    r"|AxesMiddleware|axes\.backends\.AxesBackend|django_ratelimit|ratelimit\("
    r"|(?:user|author)\.id\s*!=\s*\w*OWNER\w*|require_(?:auth|admin|login|role|user|scope)\w*)\b"
    r"|\bmiddleware\(\s*\[?[^)\n]*[\"'](?:auth(?::[\w-]+)?|verified|can:[\w-]+|signed|password\.confirm)[\"']"
    r"|\b[Rr]equire(?:Auth|Role|Login|Admin|Scope)\w*\(|\bcsrf\.Protect\(|\bnosurf\.New\("
    r"|\bhttp\.(?:StatusUnauthorized|StatusForbidden)\b|\brequire(?:Issuer|Audience)\("
    r"|\ballowed\w*(?:Host|Origin|URL|Url)\w*\(|\bgrpc\.Creds\(|\bauthz\.(?:Unary|Stream)\w*\("
    r"|\bargs\.get\(\s*[\"']state[\"']\s*\)|\bsecure_filename\(|\.is_private\b"
    r"|\bfilter\s*=\s*[\"']data[\"']|\brawNonce\b|\.nonce\s*=|\bcheckState\w*\("
    r"|\bevaluatePolicy\(|\bhost\s*==\s*[\"'][\w.-]+\.\w+[\"']"
    r"|\bCsrf\w*Layer\b|\bvalidate_?[Tt]oken\b|\bconstant_time_eq\b|\bct_eq\(|\bsanitize_filename\b"
    r"|\ballowed_(?:hosts|origins|urls)\b"
    r"|\bGovernorLayer\b|\.starts_with\(&\w+\.\w*(?:dir|root)\)"
)
"""A route's gate: the middleware or decorator that signs the caller in or checks the
request's signature (a webhook's; Laravel's ``middleware(['auth'])``, chi's
``r.Use(RequireAuth(..))``, gorilla's ``csrf.Protect``); a contract function's access
modifier (``onlyOwner`` on ``_authorizeUpgrade``: without it anyone upgrades the proxy); a
server's authorization interceptor or filter registered; a handler's refusal (Go's
``401``, ``403``); a token's issuer or audience required; a URL's host checked against a
list; an OAuth callback's comparison of the ``state`` it got with the one it sent (without
it, another site's sign-in is taken for the user's). One that is gone from the new text, or
commented out in it, is a gate taken off."""
_FAKED = re.compile(r"\breturn\s*\{\s*(?:valid|verified|isValid|authorized|allowed)\s*:\s*true\b")
"""A check's result made up (``return { valid: true, ... }``): a purchase, a receipt or a
token taken as verified without being checked."""
_MAX_TEXT = 64 * 1024


_MIDDLEWARE = re.compile(r"(?:^|/)(?:src/)?middleware\.[jt]s$")
_MATCHER = re.compile(r"\bmatcher\s*:\s*(?P<list>\[[^\]]*\]|[\"'][^\"']*[\"'])")


def _matched(text: str) -> int:
    """How many paths a Next.js middleware's ``matcher`` names: one fewer, and the routes
    it named are served without the middleware's sign-in."""
    return sum(len(re.findall(r"[\"'][^\"']+[\"']", m["list"])) for m in _MATCHER.finditer(text))


_ADMINS = re.compile(
    r"(?:^|/)[^/]*(?:admins?|superusers?|owners)\.(?:ya?ml|json|toml|txt|csv)$", re.I
)
_HASHING = re.compile(r"bcrypt|argon|scrypt|pbkdf|PasswordHasher|hashpw|hash\(", re.I)


def weakens_auth(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether a write's or an edit's new text takes out or loosens a sign-in check."""
    if paths and all(test_code(path) or test_settings(path) for path in paths):
        return False
    pairs = change_pairs(inputs)
    if any(_ADMINS.search(path) for path in paths) and any(lines_added(o, n) for o, n in pairs):
        return True
    if any(_MIDDLEWARE.search(path) for path in paths) and any(
        _matched(old) > _matched(new) for old, new in pairs if old
    ):
        return True
    session = any(map(sign_in_named, paths))
    return any(
        _weakens(old, new, session) for old, new in pairs if len(old) + len(new) <= _MAX_TEXT
    )


def _weakens(old: str, new: str, session: bool) -> bool:
    if added(_LOOSENED, old, new) or added(_PASSWORD_COMPARE, old, new) or added(_FAKED, old, new):
        return True
    if any(name in new for name in _NAMED) and added(_LOOSENED_NAMED, old, new):
        return True
    if added(_PLAIN_STORED, old, new) or _verify_dropped(old, new):
        return True
    if added(_CORS_ANY, old, new) and _CREDENTIALS.search(new):
        return True
    if added(_ANY_ORIGIN_ALLOWED, old, new) or _manage_all(old, new):
        return True
    if session and added(_COOKIE_OPENED, old, new):
        return True
    if more(_HEADER_PASS, old, new):
        return True  # `if (ctx.Request.Headers.ContainsKey("X-Debug")) { await _next(ctx); ...`
    if old and live_matches(_DEVISE, new) < live_matches(_DEVISE, old):
        return True  # Devise's `:lockable` or `:confirmable` taken off the model
    checked = bool(old) and _CHECK_NAME.search(old) is not None  # an edit of a check itself
    if checked and (_waved_first(old, new) or added(_REQUEST_COMPARE, old, new)):
        return True
    if old and (dropped(_LIMITER, old, new) or dropped(_GATE, old, new)):
        return True
    if old and live_matches(_GATE, new) < live_matches(_GATE, old):
        return True
    if old and window_widened(old, new):
        return True
    if old and _HASHING.search(old) and cost_lowered(old, new):
        return True
    if holes_cut(old, new):
        return True
    return bool(old) and lifetime_raised(old, new, session)


_COOKIE_OPENED = re.compile(
    r"[\"'](?:secure|http_only|httponly)[\"']\s*=>\s*false\b|[\"']same_site[\"']\s*=>\s*[\"']none[\"']",
    re.I,
)
"""A session file's cookie (Laravel's ``config/session.php``) sent over plain HTTP, read by
scripts or sent from other sites."""
_HEADER_PASS = re.compile(
    r"\bif\s*\(?[^\n]*\b(?:[Hh]eaders?|hasHeader|Header\.Get|get_header|META)\b[^\n]*\)?\s*:?"
    r"\s*\{?[ \t]*(?:\n[^\n]*(?<![{}])(?=\n)){0,2}\n?\s*\{?\s*"
    r"(?:await\s+)?(?:return\s+)?(?:await\s+)?(?:_|\$)?next(?:\.ServeHTTP)?\s*\("
)
"""A request let past the checks that follow on a header it sends: whoever sends it skips
them."""
_DEVISE = re.compile(r":(?:lockable|confirmable|timeoutable|two_factor_authenticatable)\b")
"""Devise's modules that lock an account after failed sign-ins, make an address be
confirmed, or end an idle session."""
_MANAGE_ALL = re.compile(r"^\s*can\s+:manage\s*,\s*:all\b(?!.*\b(?:if|unless)\b)", re.M)
_ADMIN_BRANCH = re.compile(r"\b(?:if|when|unless)\b[^\n]*(?:admin|super|staff|owner|role)", re.I)


def _manage_all(old: str, new: str) -> bool:
    """CanCanCan's ``can :manage, :all`` added outside an administrator's branch: every
    user may do everything."""
    lines = new.splitlines()
    for index, line in enumerate(lines):
        if _MANAGE_ALL.search(line) and line.strip() not in old:
            above = "\n".join(lines[max(0, index - 3) : index])
            if not _ADMIN_BRANCH.search(above):
                return True
    return False


def _waved_first(old: str, new: str) -> bool:
    """A check's function that now returns ``true`` or calls ``next()`` within its first
    few lines (before its own checks), where the old text did not."""
    for found in _CHECK_NAME.finditer(new):
        head = "\n".join(new[found.end() :].split("\n")[1 : _HEAD_LINES + 1])
        if added(_WAVED, old, head):
            return True
    return False


def _verify_dropped(old: str, new: str) -> bool:
    """``jwt.verify(...)`` in the old text, ``jwt.decode(...)`` instead in the new."""
    return "jwt.verify(" in old and "jwt.verify(" not in new and "jwt.decode(" in new
