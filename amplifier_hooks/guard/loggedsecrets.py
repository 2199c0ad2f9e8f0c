"""An edit that puts a secret, or a whole request's fields, into a log line.

``console.log('secret=%s', endpointSecret)``, ``logger.info(f"key {api_key}")``,
``Rails.logger.info(params.to_unsafe_h.inspect)``: the log is kept, shipped to a log
service and read by everyone on call, so the webhook's signing secret, an API key or a
customer's card number in a request's fields is in all of them from the next deploy on.
An edit whose new text adds a logging or printing call that names a variable of a secret
(its name holds ``secret``, ``password``, ``token``, ``api_key``, ``private_key``), a
request's whole parameters or body, its ``authorization`` or ``cookie`` header, or a
person's identifying number (a social security, bank account or card number, a date of
birth, a medical record number) by its variable's or its key's name, is
marked `SECRET_LOGGED` (asked). Names inside a string literal are the message's words, not
the value, and are not read; nor is a test of whether the value is there (``bool(api_key)``,
``token.length``), nor a value handed to a function that hides it (``mask(api_key)``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import edit_pairs

__all__ = ["SECRET_LOGGED", "logs_secret"]

SECRET_LOGGED = "@secret-logged"
_CALL = re.compile(
    r"(?:\bconsole\.(?:log|info|debug|warn|error|trace)|\b(?:_logger|_log|logger|log|logging|LOG|Log|"
    r"Timber|Console|Debug|Trace|"
    r"Rails\.logger|log\.Printf?|slog|zap\.S\(\)|tracing)\.(?:\w+)|\bfmt\.(?:Print|Fprint)\w*"
    r"|\bprint(?:ln|f)?|\bputs|\bp|\bpp|\bSystem\.out\.print\w*|\berror_log|\bvar_dump"
    r"|\bdbg!|\bprintln!|\beprintln!"
    r"|\b(?:setCustomValue|setCustomKey|setExtra|setTag|setContext|recordCustomKey))(?![\w!.])"
    r"\s*\(?",
)
"""A call that writes a line to a log or the output, or a value into each crash report
(Crashlytics' ``setCustomValue``, Sentry's ``setExtra``)."""
_WIRE = re.compile(
    r"\bHTTPConnection\.debuglevel\s*=\s*[1-9]|\.EnableSensitiveDataLogging\(\s*(?:true)?\s*\)"
    r"|\bHttpLoggingInterceptor\.Level\.(?:BODY|HEADERS)\b"
    r"|\bHttpLoggingFields\.(?:All|RequestBody|RequestHeaders)\b"
    r"|\bRequestHeaders\.Add\(\s*\"(?:Authorization|Cookie|X-Api-Key)\""
    r"|getLogger\(\s*[\"'](?:urllib3|requests|httpx|httpcore|botocore|http\.client)[\"']\s*\)"
    r"\s*\.setLevel\(\s*(?:logging\.)?DEBUG"
)
"""An HTTP client's wire logging switched on (Python's, OkHttp's ``Level.BODY``), or EF
Core's parameter values logged: every request's headers (its API key, its bearer token),
or every query's values (passwords, people's data), go to the log. Inside a debug build's
or a development environment's test (``BuildConfig.DEBUG``, ``IsDevelopment()``), it
stays on the developer's machine."""
_DEV_ONLY = re.compile(r"\bBuildConfig\.DEBUG\b|\bIsDevelopment\(\)|#if\s+DEBUG\b")
_SECRET = re.compile(
    r"\b\w*(?:secret|password|passwd|token|api_?key|apiKey|private_?key|privateKey|signing_?key"
    r"|signingKey|credential)\w*\b",
    re.I,
)
_REQUEST = re.compile(
    r"\bparams\.(?:to_unsafe_h|permit!)|\b(?:req|request)\.(?:body|POST|data|form|json)\b"
    r"|\brequest\.get_json\(\)"
    r"|\b(?:req|request)\.headers\.(?:authorization|cookie)\b"
    r"|\b(?:req|request|event|ctx\.request|context\.Request)\.[Hh]eaders\b(?!\s*[.\[(])"
    r"|\bevent\.body\b|\bjob\.arguments\b|,\s*(?:request|req)\s*\)\s*;?\s*$|\bObject\.fromEntries\(\s*(?:req|request)\.headers\s*\)",
)
_PERSON_WORDS = (
    r"ssn|social_?security\w*|account_?number|accountNumber|routing_?number|routingNumber|iban"
    r"|date_?of_?birth|dateOfBirth|dob|tax_?id|taxId|passport\w*|card_?number|cardNumber|cvv|cvc"
    r"|mrn|diagnos\w*"
)
_PERSON = re.compile(rf"\b(?:{_PERSON_WORDS})\b", re.I)
_PERSON_KEYED = re.compile(rf"[\"'](?:{_PERSON_WORDS})[\"']\s*(?::|\](?!\s*\[))", re.I)
"""A person's identifying number or record by its variable's name, or by a dict's key or
a subscript (``"account_number": numbers.account``, ``payload["ssn"]``; not a slice of it,
``payload["ssn"][-4:]``)."""
_ENV_SECRET = re.compile(
    r"(?:environ\[|getenv\(|environ\.get\(|env\[|ENV\[|ENV\.fetch\()\s*[\"'][A-Z0-9_]*"
    r"(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE_KEY)[\"']"
)
"""A secret read from the environment by its name in quotes (``os.environ["BOT_TOKEN"]``)."""
_BODY = re.compile(
    r"\bloadRequestContents\(|\bgetRequestBody\(|\bgetContentAsString\(|\breadBody\("
)
"""A request's whole body read as text (a FHIR server's: a patient's record)."""
_STRING = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`""")
_INTERPOLATED = re.compile(r"#\{([^}]*)\}|\$\{([^}]*)\}|\{([A-Za-z_][\w.]*)\}|\$([A-Za-z_][\w.]*)")
"""The expressions a string interpolates (Ruby's ``#{...}``, JavaScript's and Kotlin's
``${...}``, C#'s and Python's ``{...}``, Kotlin's and PHP's ``$name``)."""
_PRESENCE = re.compile(
    r"\b(?:bool|len|Boolean|isset|empty|is_some|is_none)\(\s*[\w.]+\s*\)|!!\s*[\w.]+"
    r"|[\w.]+\.(?:length|present\?|nil\?|blank\?|size|is_some\(\)|is_none\(\))"
    r"|[\w.]+\s+is\s+(?:not\s+)?None|[\w.]+\s*[!=]==?\s*(?:null|undefined|nil|None)\b"
)
"""Whether a value is there, or how long it is (``bool(api_key)``): not the value."""
_MASKED = re.compile(
    r"\b\w*(?:hash|mask|redact|trunc|prefix|suffix|last4|digest|fingerprint)\w*\(\s*[^()]*\)", re.I
)
"""A value handed to a function that hides it (``hashPrefix(token)``, ``mask(api_key)``)."""
_HEADER_KEYED = re.compile(
    r"\b(?:req|request)\.headers\[\s*[\"'](?:authorization|cookie)[\"']\s*\]", re.I
)
"""A request's sign-in header by its key (read before string literals are left out)."""
_MAX_TEXT = 64 * 1024


def logs_secret(inputs: Mapping[str, Any]) -> bool:
    """Whether a file tool's edit ``inputs`` add a log line naming a secret's variable, a
    value built from one, or a request's whole fields."""
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if _wire_logged(old, new):
            return True
        before = {line.strip() for line in old.splitlines()}
        built = _built_from_secrets(f"{old}\n{new}")
        for line in new.splitlines():
            if line.strip() in before or _CALL.search(line) is None:
                continue
            if _names_secret(line) or (built and _names_built(line, built)):
                return True
    return False


_BUILT = re.compile(
    r"^\s*(?P<name>@?[A-Za-z_]\w*)\s*=\s*(?!=)[^\n]*?\b\w*(?:token|secret|password"
    r"|api_?key|apiKey)\w*\s*[:=)]",
    re.M | re.I,
)
"""A variable given a value built from a secret (``@url = edit_password_url(token: token)``):
the link that signs its holder in."""


def _built_from_secrets(text: str) -> frozenset[str]:
    return frozenset(m["name"] for m in _BUILT.finditer(text))


def _names_built(line: str, built: frozenset[str]) -> bool:
    """Whether the code of ``line`` names a variable built from a secret."""
    inside = [part for m in _INTERPOLATED.finditer(line) for part in m.groups() if part]
    code = _MASKED.sub(" ", " ".join([_STRING.sub(" ", line), *inside]))
    return any(re.search(rf"(?<![\w@]){re.escape(name)}(?!\w)", code) for name in built)


def _wire_logged(old: str, new: str) -> bool:
    """Wire logging added, or its debug-only test taken away, outside a debug build's test."""
    if _WIRE.search(new) is None or _DEV_ONLY.search(new):
        return False
    return more(_WIRE, old, new) or _DEV_ONLY.search(old) is not None


def _names_secret(line: str) -> bool:
    """Whether the code of ``line`` (string literals' words left out, their interpolated
    expressions read) names a secret's variable or a request's fields."""
    inside = [part for m in _INTERPOLATED.finditer(line) for part in m.groups() if part]
    code = _PRESENCE.sub(" ", " ".join([_STRING.sub(" ", line), *inside]))
    code = _MASKED.sub(" ", code)
    if _HEADER_KEYED.search(_MASKED.sub(" ", line)) or _PERSON_KEYED.search(line):
        return True
    if _ENV_SECRET.search(_MASKED.sub(" ", line)):
        return True
    if _PERSON.search(code) or _BODY.search(code):
        return True
    return _SECRET.search(code) is not None or _REQUEST.search(code) is not None
