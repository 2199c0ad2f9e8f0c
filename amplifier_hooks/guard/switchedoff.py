"""An edit that switches a protection of the project's own service off.

A configuration's protection turned from on to off in one word (Orthanc's
``"AuthenticationEnabled" : true`` made ``false``, a FHIR server's
``auth_interceptor_enabled``, a client's ``verify_ssl``, a form's ``csrf``) lets every
request in from the next deploy on, and the diff reads as a small change. An edit whose
old text sets such a key on and whose new text sets the same key off, or that opens a
firewall's default policy (``iptables -P OUTPUT DROP`` made ``ACCEPT``: a dev container's
sandbox), is marked `PROTECTION_SWITCHED_OFF` (asked). So is an edit that removes or
comments out a line of the code's own access checks (``raise CrossTenantAccess unless
...``, ``authorize! :update, @post``, ``@login_required``, ``abort(403)``), a webhook's
signature check, a CI workflow's scan step, a trading bot's risk limit (``raise
RiskLimitExceeded``) or an LLM application's input rails: the next deploy lets every
request through it. A rehearsal ended the same way (``"dry_run": true`` made ``false``,
``set_sandbox_mode(True)`` made ``False``, a ``paper-api``/``sandbox``/``testnet``
address made the live one) sends the next run's orders, payments or messages for real,
and a risk limit raised tenfold (``MAX_DAILY_LOSS_PCT = 0.02`` made ``1.0``) is one
taken away. A protection's own block switched off counts too
(``moderation:`` with ``enabled: true`` made ``false``). An ``apply_patch`` is read as the
edits it makes (`patchfiles.update_hunks`). A whole file written has no "before", so it is
not read here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import edit_pairs

__all__ = ["PROTECTION_SWITCHED_OFF", "REHEARSAL", "switches_protection_off"]

PROTECTION_SWITCHED_OFF = "@protection-switched-off"
_PROTECTION = (
    r"[\"']?(?P<key>[\w.-]*?(?:auth|authentication|authorization|tls|ssl|https|verify|csrf"
    r"|xsrf|mfa|2fa|otp|encrypt|encryption|security|secure|signature|firewall|audit"
    r"|moderation|guardrail|guardrails|jailbreak|redaction|redact|pii|safety|sandbox"
    r"|dry[_-]?run|dryrun|testnet|paper[_-]?trading|simulat(?:e|ion)|read[_-]?only)"
    r"[\w.-]*)[\"']?[ \t]*"
)
"""A key that names a protection (``verify_ssl``, ``"AuthenticationEnabled"``)."""
_KEY = _PROTECTION + r"[:=][ \t]*[\"']?"
_ON = re.compile(_KEY + r"(?:true|yes|on|1|enabled|required|enforce[d]?)\b", re.I)
_OFF = re.compile(_KEY + r"(?:false|no|off|0|disabled|none|optional)\b", re.I)
_SECTION = re.compile(_PROTECTION + r":[ \t]*$", re.I | re.M)
"""A protection's own block (``moderation:``), whose ``enabled: true`` below turns it on."""
_SWITCH = r"[\"']?(?P<key>enabled?|active|on)[\"']?[ \t]*[:=][ \t]*[\"']?"
_SWITCH_ON = re.compile(_SWITCH + r"(?:true|yes|on|1)\b", re.I)
_SWITCH_OFF = re.compile(_SWITCH + r"(?:false|no|off|0)\b", re.I)
REHEARSAL = r"(?:sandbox|dry_?run|testnet|paper|simulat)"
"""The words that name a rehearsal (a sandbox, a dry run, a testnet, paper trading)."""
_CALL = r"(?P<key>\w*" + REHEARSAL + r"\w*)\(\s*"
_CALL_ON = re.compile(_CALL + r"(?:True|true|1)\s*\)", re.I)
_CALL_OFF = re.compile(_CALL + r"(?:False|false|0)\s*\)", re.I)
"""A rehearsal switched on or off by a call (ccxt's ``set_sandbox_mode(True)``)."""
_RISK_LIMIT = re.compile(
    r"(?P<key>[\w.-]*(?:loss|drawdown|exposure|notional|leverage|risk)[\w.-]*)[\"']?[ \t]*"
    r"[:=][ \t]*(?P<value>\d+(?:\.\d+)?)\b",
    re.I,
)
"""A trading bot's risk limit set to a number (``MAX_DAILY_LOSS_PCT = 0.02``)."""
_REHEARSAL_URL = re.compile(r"https?://[\w.-]*(?:paper|sandbox|testnet|demo)[\w.-]*", re.I)
_URL = re.compile(r"https?://[\w.-]+", re.I)
_POLICY_CLOSED = re.compile(
    r"\b(?:ip6?tables|nft)\b[^\n]*-P\s+(?:INPUT|OUTPUT|FORWARD)\s+(?:DROP|REJECT)"
)
_POLICY_OPENED = re.compile(r"\b(?:ip6?tables|nft)\b[^\n]*-P\s+(?:INPUT|OUTPUT|FORWARD)\s+ACCEPT")
"""A firewall's default policy (a dev container's ``init-firewall.sh``) from closed to open."""
_MAX_TEXT = 64 * 1024
_CHECK = re.compile(
    r"\braise\s+\w*(?:Forbidden|Unauthori[sz]ed|AccessDenied|PermissionDenied|CrossTenant"
    r"|RiskLimit|LimitExceeded|LimitBreached"
    r"|NotAuthori[sz]ed|AuthError|AuthenticationError|AuthorizationError)"
    r"|\b(?:abort|halt|throw|raise|return)\b[^\n]*\b(?:401|403)\b"
    r"|\b(?:authorize!?|authorize_resource|verify_authorized|check_permissions?|check_access"
    r"|require_login|login_required|permission_required|authenticate_user!|requireAuth"
    r"|ensureAuthenticated|verify_authenticity_token|PreAuthorize|Secured|RolesAllowed"
    r"|has_permission|user_passes_test"
    r"|constructEvent|construct_event|verifySignature|verify_signature|verifyWebhook"
    r"|verify_webhook|validate_webhook|validateRequest|validate_request|verifyHeader"
    r"|verify_header|verify_hmac|verifyHmac|compare_digest|timingSafeEqual|hash_equals"
    r"|secure_compare|validateWebhookSignature)(?!\w)"
    r"|\buses:\s*[\w.-]*/?[\w.-]*(?:gitleaks|trufflehog|codeql|semgrep|snyk|trivy|grype"
    r"|bandit|gosec|zizmor|scorecard|dependency-review)"
    r"|\b(?:self check (?:input|output|facts)|jailbreak detection|content safety check)"
)
"""A line of the code's own access checks: an exception of access refused, a 401 or 403,
a framework's check or decorator (Rails, Django, Flask, Express, Spring), or a webhook's
signature verified (Stripe's ``constructEvent``, Twilio's ``validateRequest``, an HMAC
compared in constant time): without it, anyone may send forged events (a paid order);
a CI workflow's step that scans for secrets and vulnerabilities (``uses: gitleaks/...``),
or an LLM application's input and output rails (NeMo Guardrails' ``self check input``)."""
_COMMENT = ("#", "//", "--", "/*", "*", "<!--")


def switches_protection_off(paths: Iterable[str], inputs: Mapping[str, Any]) -> bool:
    """Whether a file tool's edit ``inputs`` turn a protection's key from on to off."""
    del paths  # (any file: a configuration of any format, the code's own defaults)
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if _POLICY_OPENED.search(new) and _POLICY_CLOSED.search(old):
            return True  # `iptables -P OUTPUT DROP` made ACCEPT: the sandbox's firewall open
        was_on = {m.group("key").lower() for m in _ON.finditer(old)}
        if was_on and not was_on.isdisjoint(m.group("key").lower() for m in _OFF.finditer(new)):
            return True
        if _CHECK.search(old) and _check_dropped(old, new):
            return True
        if _SECTION.search(old) and _SWITCH_ON.search(old) and _SWITCH_OFF.search(new):
            return True  # `moderation:` / `enabled: true` made `enabled: false`
        called_on = {m.group("key").lower() for m in _CALL_ON.finditer(old)}
        if called_on and not called_on.isdisjoint(
            m.group("key").lower() for m in _CALL_OFF.finditer(new)
        ):
            return True  # `set_sandbox_mode(True)` made `(False)`: orders reach the market
        if _goes_live(old, new) or _limit_lifted(old, new):
            return True
    return False


def _limit_lifted(old: str, new: str) -> bool:
    """Whether a risk limit of ``old`` is ten times or more as high in ``new``."""
    before = {m.group("key").lower(): float(m.group("value")) for m in _RISK_LIMIT.finditer(old)}
    for found in _RISK_LIMIT.finditer(new):
        was = before.get(found.group("key").lower())
        if was is not None and was > 0 and float(found.group("value")) >= was * 10:
            return True
    return False


def _goes_live(old: str, new: str) -> bool:
    """Whether a rehearsal's address (``paper-api.alpaca.markets``, a ``sandbox`` or
    ``testnet`` host) is replaced by one that is none (the live service's)."""
    if not _REHEARSAL_URL.search(old):
        return False
    urls = _URL.findall(new)
    return bool(urls) and not any(_REHEARSAL_URL.match(url) for url in urls)


def _check_dropped(old: str, new: str) -> bool:
    """Whether a line of ``old`` that checks access is gone from ``new`` or commented out
    there (compared without its indentation)."""
    kept = {line.strip() for line in new.splitlines() if not line.strip().startswith(_COMMENT)}
    for line in old.splitlines():
        text = line.strip()
        if text and not text.startswith(_COMMENT) and _CHECK.search(text) and text not in kept:
            return True
    return False
