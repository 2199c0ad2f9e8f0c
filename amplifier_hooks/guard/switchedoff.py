"""An edit that switches a protection of the project's own service off.

A configuration's protection turned from on to off in one word (Orthanc's
``"AuthenticationEnabled" : true`` made ``false``, a FHIR server's
``auth_interceptor_enabled``, a client's ``verify_ssl``, a form's ``csrf``) lets every
request in from the next deploy on, and the diff reads as a small change. An edit whose old
text sets such a key on and whose new text sets the same key off, or that opens a firewall's
default policy (``iptables -P OUTPUT DROP`` made ``ACCEPT``: a dev container's sandbox), is
marked `PROTECTION_SWITCHED_OFF` (asked). So is an edit that removes or comments out a line
of the code's own access checks (``raise CrossTenantAccess unless ...``, ``authorize!
:update, @post``, ``@login_required``, ``abort(403)``), a webhook's signature check, a CI
workflow's scan step, a trading bot's risk limit (``raise RiskLimitExceeded``) or an LLM
application's input rails: the next deploy lets every request through it. A rehearsal ended
the same way (``"dry_run": true`` made ``false``, ``set_sandbox_mode(True)`` made ``False``,
a ``paper-api``/``sandbox``/``testnet`` address made the live one) sends the next run's
orders, payments or messages for real, and a risk limit raised tenfold (``MAX_DAILY_LOSS_PCT
= 0.02`` made ``1.0``) is one taken away. A protection's own block switched off counts too
(``moderation:`` with ``enabled: true`` made ``false``), and so does a list of who may come
in opened to anyone (``ALLOWED_HOSTS``, CORS origins, a CSRF check's ``$except`` given
``'*'``) or made public (a package's publish ``access``, a ``visibility``, ``"private":
true`` made ``false``), debugging switched on in production's settings (``DEBUG = False``
made ``True`` in ``settings/production.py``: every error page shows the settings), and a
local database's address made production's (``host: localhost`` made ``prod-db...``: the
next local run writes to the real data), and an SSH setting turned to its weak side
(``PermitRootLogin prohibit-password`` made ``yes``), a destructive command let back in
(Flyway's ``cleanDisabled=true`` made ``false``, Rails' ``protected_environments`` emptied),
a security scan dropped from CI or pre-commit (``pip-audit``, ``gitleaks``), a review or a
deploy's reviewers taken away (`forgegates`: CODEOWNERS, a protected branch, a workflow's
environment, GitLab's ``SAST_DISABLED``), a log's retention cut tenfold, an account's
watcher switched off in its own file (GuardDuty's ``enable = false``), a model's remote code
trusted (``trust_remote_code=True``), a demo shared publicly (Gradio's
``launch(share=True)``), a training run's ``push_to_hub`` or a crash reporter's
``SendDefaultPii`` switched on, or a server's ``key value`` setting (``sv_anticheat 1``)
turned off, a backup (``backup_enabled: true`` made ``false``) or a Home Assistant
automation (``initial_state: false``). An ``apply_patch`` is
read as the edits it makes (`patchfiles.update_hunks`). A whole file written has no
"before", so it is not read here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.droppedchecks import drops_check
from amplifier_hooks.guard.forgegates import opens_gate
from amplifier_hooks.guard.ignorefiles import edit_pairs

__all__ = ["PROTECTION_SWITCHED_OFF", "REHEARSAL", "switches_protection_off"]

PROTECTION_SWITCHED_OFF = "@protection-switched-off"
_PROTECTION = (
    r"[\"']?(?P<key>[\w.-]*?(?:auth|authentication|authorization|tls|ssl|https|verify|csrf"
    r"|deid|de[_-]?identif\w*|anonymi[sz]\w*|enforce|obey|purge[_-]?job|erasure"
    r"|xsrf|mfa|2fa|otp|encrypt|encryption|security|secure|signature|firewall|audit"
    r"|moderation|guardrail|guardrails|jailbreak|redaction|redact|pii|safety|sandbox"
    r"|dry[_-]?run|dryrun|testnet|paper[_-]?trading|simulat(?:e|ion)|read[_-]?only"
    r"|validate[_-]?only"
    r"|prevent[_-]?destroy|deletion[_-]?protection|termination[_-]?protection"
    r"|enable[_-]?logging|versioning|object[_-]?lock|point[_-]?in[_-]?time[\w-]*"
    r"|enforce[_-]?admins|requires?[_-]?(?:code[_-]?owner|signed|signatures|linear|status"
    r"|conversation|approving|pull[_-]?request)[\w-]*|anti[_-]?cheat|password[_-]?required"
    r"|white[_-]?list|client[_-]?cert(?:ificate)?s?|backups?|protect|archive[_-]?mode|fsync"
    r"|full[_-]?page[_-]?writes|check[_-]?origin|production)"
    r"[\w.-]*)[\"']?[ \t]*"
)
"""A key that names a protection (``verify_ssl``, ``"AuthenticationEnabled"``)."""
_KEY = _PROTECTION + r"(?:[:=]|<-)[ \t]*[\"']?"  # (R's `dry_run <- TRUE` too)
_NEGATED = re.compile(r"insecure|skip|disable|ignore|bypass|unsafe|allow_?http|(?:^|[_.-])no[_-]")
"""A protection's key named for its absence (``InsecureSkipVerify``, ``disable_ssl``):
``true`` there is the protection off, so its ``true`` made ``false`` switches it on."""
_ON = re.compile(_KEY + r"(?:true|yes|on|1|enabled|required|enforce[d]?)\b", re.I)
_OFF = re.compile(_KEY + r"(?:false|no|off|0|disabled|none|optional)\b", re.I)
_SECTION = re.compile(_PROTECTION + r":[ \t]*$", re.I | re.M)
"""A protection's own block (``moderation:``), whose ``enabled: true`` below turns it on."""
_LISTED = re.compile(
    _PROTECTION + r"[:=]\s*(?:\{\s*[\"']@@assign[\"']\s*:\s*)?\[(?P<items>[^\]]*)\]", re.I
)
"""A protection's list (a tag policy's ``enforced_for``, an ``audit_log_types``): emptied,
nothing is protected."""
_SWITCH = r"[\"']?(?P<key>enabled?|active|on)[\"']?[ \t]*[:=][ \t]*[\"']?"
_SWITCH_ON = re.compile(_SWITCH + r"(?:true|yes|on|1)\b", re.I)
_SWITCH_OFF = re.compile(_SWITCH + r"(?:false|no|off|0)\b", re.I)
REHEARSAL = r"(?:sandbox|dry_?run|testnet|paper|simulat|validate_?only)"
"""The words that name a rehearsal (a sandbox, a dry run, a testnet, paper trading, an ads
API's ``validate_only``: the request is checked, nothing is changed)."""
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
_HEAT_LIMIT = re.compile(
    r"(?P<key>\b(?:#define\s+)?\w*max_?temp\w*)[\"']?[ \t]*[:=\t ][ \t]*(?P<value>\d+(?:\.\d+)?)\b",
    re.I,
)
"""A heater's highest temperature (Marlin's ``#define HEATER_0_MAXTEMP 275``, Klipper's
``max_temp: 300``): raised by a quarter or more, it no longer stops a runaway heater."""
_REHEARSAL_URL = re.compile(r"https?://[\w.-]*(?:paper|sandbox|testnet|demo)[\w.-]*", re.I)
_URL = re.compile(r"https?://[\w.-]+", re.I)
_POLICY_CLOSED = re.compile(
    r"\b(?:ip6?tables|nft)\b[^\n]*-P\s+(?:INPUT|OUTPUT|FORWARD)\s+(?:DROP|REJECT)"
)
_POLICY_OPENED = re.compile(r"\b(?:ip6?tables|nft)\b[^\n]*-P\s+(?:INPUT|OUTPUT|FORWARD)\s+ACCEPT")
"""A firewall's default policy (a dev container's ``init-firewall.sh``) from closed to open."""
_ALLOW_LIST = re.compile(r"allow|origin|host|except|trust|whitelist|cors|grants?:|select:", re.I)
_ANYONE = re.compile(r"""["'](?:\*|public|PUBLIC|allUsers|allAuthenticatedUsers|everyone)["']""")
"""A list entry that admits anyone (``["*"]``), in a text that names who is let in."""
_DEBUG = r"(?P<key>\b(?:app_)?debug)[\"']?[ \t]*[:=][ \t]*[\"']?"
_DEBUG_ON = re.compile(_DEBUG + r"(?:true|yes|on|1)\b", re.I)
_DEBUG_OFF = re.compile(_DEBUG + r"(?:false|no|off|0)\b", re.I)
_PRODUCTION_FILE = re.compile(r"(?:^|[-_./])prod(?:uction)?(?:[-_.]|$)", re.I)
_LOCAL_HOST = re.compile(r"\b(?:localhost|127\.0\.0\.1)\b", re.I)
_PRODUCTION_HOST = re.compile(
    r"\b(?:host|hostname|server|url|database)\b[^\n]*\bprod(?:uction)?\b", re.I
)
"""A database address or name of production's, where a local one was."""
_SSH_WEAK = re.compile(
    r"(?im)^[ \t]*(?P<key>PasswordAuthentication|PermitRootLogin|PermitEmptyPasswords"
    r"|KbdInteractiveAuthentication|ChallengeResponseAuthentication)[ \t]+yes\b"
    r"|^[ \t]*(?P<off>StrictModes|StrictHostKeyChecking)[ \t]+no\b"
)
"""An SSH server's or client's setting that lets in what it kept out (``PermitRootLogin
yes``, ``PasswordAuthentication yes``, ``StrictHostKeyChecking no``): written as
``Key value``, with no sign, and for most of them ``yes`` is the weaker side."""
_DESTROY_DISABLED = (
    r"(?P<key>[\w.-]*(?:clean|drop|delete|destroy|wipe|reset|truncate|purge)\w*disabled)"
)


_KEPT_ON_DELETE = re.compile(
    r"(?P<key>removal_?policy|deletion_?policy|update_?replace_?policy)[\"']?\s*[:=]\s*"
    r"(?:RemovalPolicy\.|cdk\.RemovalPolicy\.)?[\"']?(?:retain|snapshot|orphan)\b",
    re.I,
)
_DELETED_ON_DELETE = re.compile(
    r"(?P<key>removal_?policy|deletion_?policy|update_?replace_?policy)[\"']?\s*[:=]\s*"
    r"(?:RemovalPolicy\.|cdk\.RemovalPolicy\.)?[\"']?(?:destroy|delete)\b",
    re.I,
)
"""What a stack's removal does to a resource (CDK's ``removalPolicy``, CloudFormation's and
Crossplane's ``deletionPolicy``): kept (``RETAIN``, ``Orphan``) made deleted (``DESTROY``,
``Delete``), the data goes with the next teardown or rename."""


def _made_true(keys: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The (false, true) settings of the keys ``keys`` spells, for `_turned`."""
    key = rf"[\"']?(?P<key>[\w.-]*?(?:{keys}))[\"']?[ \t]*[:=][ \t]*[\"']?"
    return re.compile(key + r"(?:false|no|0)\b", re.I), re.compile(key + r"(?:true|yes|1)\b", re.I)


_LET_THROUGH = (
    _made_true(r"push_to_hub|auto_publish|upload_to_hub|catchup|auto_?delete_?objects"
               r"|force_?destroy|empty_?on_?delete"),
    _made_true(r"send_?default_?pii|send_?pii|capture_?pii|log_?pii|attach_?screenshot"
               r"|include_?local_?variables|attach_?view_?hierarchy"),
)  # fmt: skip
"""Settings whose ``true`` lets through what ``false`` kept back: a training run's
results published at its end (``push_to_hub``), a crash reporter sending users' personal
data and screenshots (Sentry's ``SendDefaultPii``, ``AttachScreenshot``)."""
_SPACED = (
    r"(?im)^[ \t]*(?P<key>[\w.-]*(?:anti[_-]?cheat|password[_-]?required|require[_-]?password"
    r"|white[_-]?list|allow[_-]?list|protected[_-]mode|appendonly)[\w.-]*)[ \t]+[\"']?"
)
_SPACED_ON = re.compile(_SPACED + r"(?:1|true|yes|on)[\"']?[ \t]*(?:$|[#;/])")
_SPACED_OFF = re.compile(_SPACED + r"(?:0|false|no|off)[\"']?[ \t]*(?:$|[#;/])")
"""A game or chat server's ``key value`` setting that keeps people out or cheats off
(``sv_anticheat 1``, ``sv_password_required 1``) turned to ``0``."""
_LET_IN = re.compile(
    r"\btrust_remote_code\s*[:=]\s*[\"']?true\b|\.launch\([^)\n]*\bshare\s*=\s*True\b"
    r"|\bAUTH_ROLE_PUBLIC\s*=\s*[\"']"
    r"|\bACTIONS_ALLOW_UNSECURE_COMMANDS[\"']?\s*[:=]\s*[\"']?true\b"
    r"|^\s*ffi\s*=\s*true\b"
    r"|<logger\s+name=\"[^\"]*(?:audit|security)[^\"]*\"[^>]*\blevel=\"OFF\""
    r"|request_verification_enabled\s*=\s*False|webhook\(\s*\{[^}]*validate\s*:\s*false"
    r"|vulnerabilityAlerts[\"']?\s*:\s*\{\s*[\"']enabled[\"']\s*:\s*false"
    r"|\bAllowAll(?:Authenticator|Authorizer)\b"
    r"|\b(?:CELERY_)?(?:TASK_|RESULT_)?SERIALIZER\s*[:=]\s*[\"']pickle[\"']"
    r"|\b(?:CELERY_)?ACCEPT_CONTENT\s*[:=][^\n]*[\"']pickle[\"']"
    r"|^\s*replicas:\s*\[\s*\]",
    re.I | re.M,
)
"""Code from a model's repository run at load (``trust_remote_code=True``), a demo's
public share link opened (Gradio's ``launch(share=True)``: anyone with the link uses it),
a role given to anyone not logged in (Airflow's ``AUTH_ROLE_PUBLIC = 'Admin'``), or a
workflow's deprecated ``set-env`` commands let back in (``ACTIONS_ALLOW_UNSECURE_COMMANDS``:
any step's output then sets the next steps' variables, ``PATH`` and ``NODE_OPTIONS``), or
Foundry's ``ffi = true`` (every test and script may then run any command on the machine,
a dependency's among them), or an audit logger's level made ``OFF`` (Logback's: no record
of who read what), Cassandra's ``AllowAllAuthenticator`` (anyone connects), Celery told to
take pickled messages (whoever reaches the broker runs code in every worker), or
Litestream's ``replicas: []`` (the database's only copy is the live one)."""
_RETENTION = re.compile(
    r"(?P<key>[\w.-]*retention[\w.-]*)[\"']?[ \t]*[:=][ \t]*[\"']?(?P<value>\d+(?:\.\d+)?)\b", re.I
)
"""How long logs or backups are kept (``retention_in_days = 365``): cut tenfold, the
record of what happened is gone before anyone looks."""
_WATCHER_FILE = re.compile(
    r"guardduty|cloudtrail|securityhub|security[_-]hub|macie|inspector|audit|falco|waf"
    r"|config[_-]?recorder|renovate|dependabot",
    re.I,
)
"""A file of a service that watches an account (GuardDuty, CloudTrail, Security Hub, an
audit log): its own ``enable = true`` made ``false`` switches the watching off."""
_DESTROY_OFF = re.compile(_DESTROY_DISABLED + r"[\"']?[ \t]*[:=][ \t]*[\"']?true\b", re.I)
_DESTROY_ON = re.compile(_DESTROY_DISABLED + r"[\"']?[ \t]*[:=][ \t]*[\"']?false\b", re.I)
"""A tool's switch that keeps a destructive command off (Flyway's ``cleanDisabled=true``):
made ``false``, the command wipes production's schema when next run."""
_UNGUARDED = re.compile(
    r"\bcheck_?origin\b[\"']?\s*[:=]\s*false\b|\bremove_?on_?fail\w*[\"']?\s*[:=]\s*true\b",
    re.I,
)
"""A socket's origin check switched off (Phoenix's ``check_origin: false``: another site's
page opens a live session as the user), a queue's failed jobs dropped at once (no one sees
or retries what failed)."""
_NOTHING_PROTECTED = re.compile(r"protected_environments\s*=\s*\[\s*\]")
"""Rails' environments its destructive tasks refuse to run in, emptied."""
_MAX_TEXT = 64 * 1024
_CI_FILE = re.compile(
    r"/\.github/workflows/|/\.gitlab-ci\.ya?ml$|/\.gitlab/ci/|/\.buildkite/|/\.circleci/"
    r"|/azure-pipelines[^/]*\.ya?ml$|/bitbucket-pipelines\.yml$|/Jenkinsfile$|/\.drone\.ya?ml$"
    r"|/\.woodpecker"
)
"""A CI system's pipeline file: its jobs' gates and checks are `forgegates`'."""


_VALUED = re.compile(r"(\"[\w.-]+\")\s*:\s*\{\s*\"value\"\s*:\s*")
"""A setting given as ``{"value": ...}`` (a Heroku ``app.json``'s env): read as the key's
own value."""


def switches_protection_off(paths: Iterable[str], inputs: Mapping[str, Any]) -> bool:
    """Whether a file tool's edit ``inputs`` turn a protection's key from on to off (of
    ``paths``, only whether one is production's settings is read: any file may hold a
    protection, a configuration of any format or the code's own defaults)."""
    production = any(_PRODUCTION_FILE.search(p.rpartition("/")[2]) for p in paths)
    owners = any(p.rpartition("/")[2] == "CODEOWNERS" for p in paths)
    ssh_file = any("ssh_config" in p.rpartition("/")[2] or "/ssh" in p for p in paths)
    watcher = any(_WATCHER_FILE.search(p.rpartition("/")[2]) for p in paths)
    workflow = any(_CI_FILE.search(f"/{p}") for p in paths)
    automations = any(p.rpartition("/")[2] == "automations.yaml" for p in paths)
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        old, new = _VALUED.sub(r"\1: ", old), _VALUED.sub(r"\1: ", new)
        if _turned(_KEPT_ON_DELETE, _DELETED_ON_DELETE, old, new):
            return True  # CDK's `RemovalPolicy.RETAIN` made `DESTROY`
        if more(_UNGUARDED, old, new):
            return True
        if _turned(_DESTROY_OFF, _DESTROY_ON, old, new):
            return True  # `flyway.cleanDisabled=true` made `false`
        if any(_turned(false, true, old, new) for false, true in _LET_THROUGH):
            return True  # `push_to_hub`, `SendDefaultPii` made `true`
        if _turned(_SPACED_ON, _SPACED_OFF, old, new):
            return True  # `sv_anticheat 1` made `0`
        if opens_gate(owners, workflow, old, new):
            return True  # a review, a deploy's reviewers or a CI scan taken away
        if _LET_IN.search(new) and not _LET_IN.search(old):
            return True  # `trust_remote_code=True`, Gradio's `launch(share=True)`
        if _lowered(_RETENTION, old, new) or (
            watcher and _SWITCH_ON.search(old) and _SWITCH_OFF.search(new)
        ):
            return True  # an audit log kept a day, not a year; GuardDuty's `enable = false`
        if _NOTHING_PROTECTED.search(new) and not _NOTHING_PROTECTED.search(old):
            return True  # `ActiveRecord::Base.protected_environments = []`
        if automations and "initial_state: false" in new and "initial_state: false" not in old:
            return True  # a Home Assistant automation (a leak's valve shut-off) off at start
        if _ssh_weakened(old, new, ssh_file):
            return True  # `PasswordAuthentication no` made `yes`
        if _POLICY_OPENED.search(new) and _POLICY_CLOSED.search(old):
            return True  # `iptables -P OUTPUT DROP` made ACCEPT: the sandbox's firewall open
        if _turned(_ON, _OFF, old, new, _NEGATED) or _emptied(old, new):
            return True
        if _NEGATED.search(new) and _negation_on(old, new):
            return True  # `disable_auth: false` made `true`, `insecure: false` made `true`
        if drops_check(old, new):
            return True
        if _SECTION.search(old) and _SWITCH_ON.search(old) and _SWITCH_OFF.search(new):
            return True  # `moderation:` / `enabled: true` made `enabled: false`
        if _turned(_CALL_ON, _CALL_OFF, old, new):
            return True  # `set_sandbox_mode(True)` made `(False)`: orders reach the market
        if _goes_live(old, new) or _limit_lifted(old, new) or _opened_to_anyone(old, new):
            return True
        if production and _DEBUG_OFF.search(old) and _DEBUG_ON.search(new):
            return True  # `DEBUG = False` made `True` in production's settings
        if _LOCAL_HOST.search(old) and _PRODUCTION_HOST.search(new):
            return True  # `host: localhost` made production's database
    return False


def _negation_on(old: str, new: str) -> bool:
    """Whether a protection's key named for its absence, off in ``old``, is on in ``new``."""
    was = {m["key"].lower() for m in _OFF.finditer(old) if _NEGATED.search(m["key"].lower())}
    return bool(was) and not was.isdisjoint(m["key"].lower() for m in _ON.finditer(new))


def _emptied(old: str, new: str) -> bool:
    """Whether a protection's list that ``old`` fills is empty in ``new``."""
    filled = {m["key"].lower() for m in _LISTED.finditer(old) if m["items"].strip()}
    return bool(filled) and any(
        m["key"].lower() in filled and not m["items"].strip() for m in _LISTED.finditer(new)
    )


def _ssh_weakened(old: str, new: str, ssh_file: bool) -> bool:
    """Whether ``new`` sets an SSH setting to its weak side where ``old`` set it otherwise
    (or, in an SSH configuration's own file, did not set it at all)."""
    if "yes" not in new and "no" not in new:
        return False
    weak = {(m.group("key") or m.group("off")).lower() for m in _SSH_WEAK.finditer(new)}
    if not weak:
        return False
    was_weak = {(m.group("key") or m.group("off")).lower() for m in _SSH_WEAK.finditer(old)}
    if ssh_file:
        return bool(weak - was_weak)
    set_before = {k for k in weak if re.search(rf"(?im)^[ \t]*{k}[ \t]+\S", old)}
    return bool((weak & set_before) - was_weak)


def _opened_to_anyone(old: str, new: str) -> bool:
    """Whether ``new`` lets anyone in (``'*'``) where ``old`` named who may come in, or
    makes public what ``old`` kept private (a package's ``"access": "restricted"`` made
    ``"public"``, a repository's ``visibility``, ``"private": true`` made ``false``)."""
    if _ANYONE.search(new) and not _ANYONE.search(old) and _ALLOW_LIST.search(old):
        return True
    closed = {m.group("key").lower() for m in _CLOSED.finditer(old)}
    return bool(closed) and not closed.isdisjoint(
        m.group("key").lower() for m in _OPENED.finditer(new)
    )


_SHOWN = r"[\"']?(?P<key>[\w.-]*(?:access|visibility|acl)|private)[\"']?[ \t]*[:=][ \t]*[\"']?"
_CLOSED = re.compile(_SHOWN + r"(?:restricted|private|internal|true)\b", re.I)
_OPENED = re.compile(_SHOWN + r"(?:public(?:-read(?:-write)?)?|false)\b", re.I)
""""Who may see it" keys: a package's publish access, a repository's or bucket's
visibility or ACL, package.json's ``private`` (``true`` keeps ``npm publish`` off)."""


def _turned(
    before: re.Pattern[str], after: re.Pattern[str], old: str, new: str,
    skipped: re.Pattern[str] | None = None,
) -> bool:  # fmt: skip
    """Whether a key ``old`` sets as ``before`` matches is set as ``after`` in ``new``
    (keys ``skipped`` matches left out)."""
    was = {m.group("key").lower() for m in before.finditer(old)}
    if skipped is not None:
        was = {key for key in was if skipped.search(key) is None}
    return bool(was) and not was.isdisjoint(m.group("key").lower() for m in after.finditer(new))


def _lowered(limit: re.Pattern[str], old: str, new: str) -> bool:
    """Whether a number of ``old`` is a tenth or less in ``new`` (zero included)."""
    before = {m.group("key").lower(): float(m.group("value")) for m in limit.finditer(old)}
    for found in limit.finditer(new):
        was = before.get(found.group("key").lower())
        if was is not None and float(found.group("value")) * 10 <= was:
            return True
    return False


def _limit_lifted(old: str, new: str) -> bool:
    """Whether a risk limit of ``old`` is ten times or more as high in ``new``, or a
    heater's highest temperature a quarter higher or more."""
    return _raised(_RISK_LIMIT, old, new, 10.0) or _raised(_HEAT_LIMIT, old, new, 1.25)


def _raised(limit: re.Pattern[str], old: str, new: str, factor: float) -> bool:
    before = {m.group("key").lower(): float(m.group("value")) for m in limit.finditer(old)}
    if not before:
        return False
    for found in limit.finditer(new):
        was = before.get(found.group("key").lower())
        if was is not None and was > 0 and float(found.group("value")) >= was * factor:
            return True
    return False


def _goes_live(old: str, new: str) -> bool:
    """Whether a rehearsal's address (``paper-api.alpaca.markets``, a ``sandbox`` or
    ``testnet`` host) is replaced by one that is none (the live service's)."""
    if not _REHEARSAL_URL.search(old):
        return False
    urls = _URL.findall(new)
    return bool(urls) and not any(_REHEARSAL_URL.match(url) for url in urls)
