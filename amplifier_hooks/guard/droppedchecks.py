"""An edit that drops a line of the code's own checks.

Access checks, webhook signatures, CI scan steps, an LLM application's rails, a heater's
protections, a hashed column of people's data, a payment's idempotency key: each is one
line, and the diff that removes or comments it out reads as a tidy-up. `drops_check` finds
such a line in an edit's old text that is gone from, or commented out in, its new text,
or a test of the old text replaced by a condition that always holds (`switchedoff` marks the
edit asked).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.changedtext import commented, live_matches, more

__all__ = ["drops_check"]

_CHECK = re.compile(
    r"\b(?:raise|throw\s+new|throw)\s+\w*(?:Forbidden|Unauthori[sz]ed|AccessDenied"
    r"|PermissionDenied|CrossTenant|RiskLimit|LimitExceeded|LimitBreached|NeedsApproval"
    r"|ApprovalRequired|RequiresApproval|CapExceeded|CapReached|BudgetExceeded|OverBudget"
    r"|SpendLimit\w*"
    r"|NotAuthori[sz]ed|AuthError|AuthenticationError|AuthorizationError)"
    r"|\b(?:abort|halt|throw|raise|return)\b[^\n]*\b(?:401|403)\b"
    r"|\b(?:authorize!?|authorize_resource|verify_authorized|check_permissions?|check_access"
    r"|require_login|login_required|permission_required|authenticate_user!|requireAuth"
    r"|ensureAuthenticated|verify_authenticity_token|PreAuthorize|Secured|RolesAllowed"
    r"|has_permission|user_passes_test"
    r"|constructEvent|construct_event|verifySignature|verify_signature|verifyWebhook"
    r"|verify_webhook|validate_webhook|validateRequest|validate_request|verifyHeader"
    r"|verify_header|verify_hmac|verifyHmac|compare_digest|timingSafeEqual|hash_equals"
    r"|CsrfViewMiddleware|AuthenticationMiddleware|SecurityMiddleware|XFrameOptionsMiddleware"
    r"|VerifyCsrfToken|csurf|helmet|rateLimit\w*|loginLimit\w*|csrf(?:Protection)?\s*\("
    r"|CSRFProtect|csrf_protect|secure_app|secure_server"
    r"|secure_compare|validateWebhookSignature|ConstructEvent|ConstructEventWithOptions"
    r"|webhook_notification\.parse|verification_status|verifyWebhookSignature)(?!\w)"
    r"|\bredirect\w*\([^\n]*[\"'/](?:login|signin|sign-in|sign_in|auth)\b"
    r"|\b(?:abort|exit|raise|throw)\b[^\n]*\bproduction\b"
    r"|\breturn\s+30[18]\s+https://"
    r"|(?:Email|Mail)Interceptor|\baction_mailer\.interceptors\b|\bregister_interceptor\b"
    r"|\b(?:where|filter|filter_by)\s*\(\s*(?:\w+\.)?(?:account|tenant|org|organization|company"
    r"|owner|user)_id\b|\bHasQueryFilter\s*\("
    r"|\.Where\(\s*\w+\s*=>\s*\w+\.(?:Tenant|Account|Org|Organization|Company|Owner|User)Id\b"
    r"|\[Authorize\b|\.RequireAuthorization\(|\bFallbackPolicy\b|\.RequireAuthenticatedUser\("
    r"|\b(?:AutoValidateAntiforgeryToken|ValidateAntiForgeryToken)\w*|\bUse(?:Authentication"
    r"|Authorization|Antiforgery|Hsts|HttpsRedirection)\(\)"
    r"|\bif\s*\(\s*[\w.]*(?:IsDevelopment\(\)|BuildConfig\.DEBUG\b)"
    r"|\b(?:if|unless)\s+Rails\.env\.(?:development|test|local|production)\?"
    r"|\b(?:abort|exit\w*|raise|fail)\b[^\n]*\bdeploy"
    r"|\b(?:brakeman|bundler-audit|bundle-audit|bundle audit|importmap audit)\b"
    r"|\b(?:isRooted|isDeviceRooted|RootBeer|rootBeer|IntegrityManager|matchesReleaseCert"
    r"|isDebuggerConnected|verifyInstaller|isTampered|checkTamper\w*)\b"
    r"|\bstatus\(\s*40[13]\s*\)|\bStatusCode\s*=\s*(?:40[13]\b|StatusCodes\.Status40[13])"
    r"|[\"']Authorization[\"']\s*\)?\]?\s*[!=]==?"
    r"|\bverify\w*(?:Jwt|JWT|Token|Session|Access)\w*\s*\("
    r"|[Aa]udit(?:Trail|Tracker|Writer|Log|Logger|Middleware|Interceptor|Entries|Service)"
    r"|(?m:^)\s*(?:authenticate\s+:\w+|constraints\s+\w*(?:Admin|Auth)\w*)"
    r"|\b(?:IsInRole|hasRole|hasAnyRole|hasAuthority|has_role\?|user\.admin\?)\s*\(?"
    r"|\b[Ii]dempotency[_-]?[Kk]ey\b|\bIdempotency-Key\b"
    r"|\buses:\s*[\w.-]*/?[\w.-]*(?:gitleaks|trufflehog|codeql|semgrep|snyk|trivy|grype"
    r"|bandit|gosec|zizmor|scorecard|dependency-review)"
    r"|\brun:[^\n]*\b(?:pip-audit|npm audit|pnpm audit|yarn audit|yarn npm audit|safety check"
    r"|safety scan|osv-scanner|gitleaks|trufflehog|semgrep|bandit|trivy|grype|snyk test"
    r"|cargo audit|cargo deny|govulncheck|detect-secrets|ggshield)\b"
    r"|(?m:^)\s*-?\s*id:\s*(?:gitleaks|trufflehog|detect-secrets|detect-private-key|pip-audit"
    r"|bandit|semgrep|ggshield|detect-aws-credentials|osv-scanner)\s*$"
    r"|\b(?:self check (?:input|output|facts)|jailbreak detection|content safety check)"
    r"|#define\s+(?:THERMAL_PROTECTION_\w+|THERMAL_RUNAWAY\w*|USE_WATCHDOG|PREVENT_COLD_EXTRUSION)\b"
    r"|(?m:^)\s*\[verify_heater\b"
    r"|\b(?:sha1|sha2|sha256|md5|hash|hash_pii)\s*\(\s*(?:lower\s*\(\s*)?(?:trim\s*\(\s*)?"
    r"\w*(?:email|phone|ssn|national_id|tax_id|ip_address|birth)\w*"
)
"""A line of the code's own access checks: an exception of access refused, a 401 or 403,
a framework's check or decorator (Rails, Django, Flask, Express, Spring), or a webhook's
signature verified (Stripe's ``constructEvent``, Twilio's ``validateRequest``, an HMAC
compared in constant time): without it, anyone may send forged events (a paid order);
a redirect of the signed-out to the sign-in page, Shiny's ``secure_app`` wall; a CI
workflow's step that scans for secrets and vulnerabilities (``uses: gitleaks/...``),
an LLM application's input and output rails (NeMo Guardrails' ``self check input``), or a
3D printer's heater protections (Marlin's ``#define THERMAL_PROTECTION_HOTENDS``, Klipper's
``[verify_heater ...]``): without them a heater left on runs away, a fire; a column of
people's data hashed before it leaves (``sha2(lower(trim(email)), 256)``): without it the
address itself lands in every table built on it; a payment's idempotency key (without it a
retried request charges twice); a guard that stops a test suite run against production
(``abort(...) if Rails.env.production?``), a mail interceptor that keeps a staging
server's mail from real people, a query's scope to the signed-in tenant
(``where(account_id: ...)``, EF Core's ``HasQueryFilter``), ASP.NET's ``[Authorize]``,
``RequireAuthorization()``, antiforgery and HSTS, or a test of a debug build or a
development environment around what only a developer may see (Swagger, body logging);
a web server's redirect to HTTPS (``return 301 https://...``), a domain's DMARC policy
(``p=reject``) or SPF's ``-all``; an approval a large refund needs
(``throw new RefundNeedsApprovalError``) or a budget's cap (``raise BudgetCapExceeded``)."""
_SCAN_STEP = re.compile(
    r"(?im)^\s*-\s*name:[^\n]*\b(?:trivy|gitleaks|codeql|semgrep|snyk|trufflehog|grype|bandit"
    r"|zap|sast|dast|secret[- ]scan\w*|dependency[- ]review|vulnerability scan\w*)\b"
)
"""A CI step named for a security scan: one fewer such step is a scan taken out (a step
renamed keeps its count)."""
_ALWAYS = re.compile(r"\bif\s*\(\s*(?:true|1|!0)\s*\)|\bif\s+(?:True|1)\s*:")
"""A condition that always holds (``if (true) {``): where the old text tested something, the
test is gone, whatever it was."""
_DENY_EFFECT = re.compile(r"[\"']?effect[\"']?\s*[:=]\s*[\"']deny[\"']", re.I)
"""A cloud policy's statement that denies (``"Effect": "Deny"``): the bucket's guard against
deletes, a demand for TLS; one fewer, and what it held back is allowed."""
_DENY_LIST = re.compile(r"\b\w*(?:[Dd]enylist|[Bb]locklist|deny_list|block_list)\b\s*[:=]")
"""A list of what is kept out (a service worker's ``navigateFallbackDenylist``): gone, all of
it is let in."""
_PAGE_GUARD = re.compile(
    r"X-Frame-Options|frame-ancestors|Strict-Transport-Security|X-Content-Type-Options", re.I
)
"""An application's own security headers: one fewer, and its pages may be framed (a
click-jacking), sniffed or served over plain HTTP."""
_PAGE_OPEN = re.compile(
    r"(?:default|script)-src[^;\"'\n]*?(?:\s\*(?=[\s;\"'])|'unsafe-eval'|'unsafe-inline')", re.I
)
"""A Content-Security-Policy that lets any script run (``default-src *``, ``'unsafe-eval'``,
an inline script in ``script-src``)."""
_MAIL_POLICY = re.compile(r"\bp=(?:reject|quarantine)\b|\bv=spf1\b[^\n\"']*[-~]all\b")
"""A domain's DMARC policy that refuses forged mail, SPF's ``-all``: one fewer, and anyone
sends mail as the domain."""
_FIXED_NONCE = re.compile(r"\bnonce\w*\s*[:=]\s*[\"'][^\"'\n]{8,}[\"']", re.I)
_FRESH_NONCE = re.compile(r"random|crypto|uuid|token_(?:hex|urlsafe|bytes)", re.I)
_TESTED = re.compile(r"\bif\s*\(?\s*[!\w]")


def drops_check(old: str, new: str) -> bool:
    """Whether a line of ``old`` that checks access is gone from ``new`` or commented out
    there (compared without its indentation)."""
    if more(_ALWAYS, old, new) and _TESTED.search(old):
        return True  # `if (user.isAdmin(...)) {` made `if (true) {`
    if live_matches(_SCAN_STEP, new) < live_matches(_SCAN_STEP, old):
        return True  # `- name: Trivy scan` and its lines deleted
    if live_matches(_DENY_EFFECT, new) < live_matches(_DENY_EFFECT, old):
        return True  # a policy's `"Effect": "Deny"` made Allow, or its statement deleted
    if live_matches(_DENY_LIST, new) < live_matches(_DENY_LIST, old):
        return True
    if live_matches(_MAIL_POLICY, new) < live_matches(_MAIL_POLICY, old):
        return True  # DMARC's `p=reject` made `p=none`
    if live_matches(_PAGE_GUARD, new) < live_matches(_PAGE_GUARD, old):
        return True  # `X-Frame-Options: DENY` dropped
    if more(_PAGE_OPEN, old, new):
        return True  # `script-src 'unsafe-eval'` added
    if more(_FIXED_NONCE, old, new) and _FRESH_NONCE.search(old):
        return True  # a CSP nonce made each time, made one fixed string
    if not _CHECK.search(old):
        return False
    live = [line.strip() for line in new.splitlines() if not commented(line.strip())]
    kept = set(live)
    for line in old.splitlines():
        text = line.strip()
        if text and not commented(text) and _CHECK.search(text) and text not in kept:
            if _only_keyed(text) and _key_kept(old, live):
                continue  # (`"Idempotency-Key": key` with another value: still sent)
            return True
    return False


_FRESH = re.compile(r"uuid|random|nanoid|Date\.now|time\.time\(|token_hex|token_urlsafe", re.I)
"""A value made anew at each call: an idempotency key given one is no key (every retry is
a new request, charged again)."""


def _key_kept(old: str, live: list[str]) -> bool:
    """Whether an idempotency key's line is still sent with a value that is not made anew
    at each call (where the old one was not)."""
    kept = [line for line in live if _only_keyed(line)]
    return bool(kept) and (_FRESH.search(old) is not None or not any(map(_FRESH.search, kept)))


def _only_keyed(text: str) -> bool:
    """Whether every check ``text`` holds is an idempotency key's name."""
    found = [m.group(0).lower().replace("-", "_") for m in _CHECK.finditer(text)]
    return bool(found) and all(f == "idempotency_key" for f in found)
