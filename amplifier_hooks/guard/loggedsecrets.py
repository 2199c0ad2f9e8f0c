"""An edit that puts a secret, or a whole request's fields, into a log line.

``console.log('secret=%s', endpointSecret)``, ``logger.info(f"key {api_key}")``,
``Rails.logger.info(params.to_unsafe_h.inspect)``: the log is kept, shipped to a log
service and read by everyone on call, so the webhook's signing secret, an API key or a
customer's card number in a request's fields is in all of them from the next deploy on.
An edit whose new text adds a logging or printing call that names a variable of a secret
(its name holds ``secret``, ``password``, ``token``, ``api_key``, ``private_key``), a
request's whole parameters or body, its ``authorization`` or ``cookie`` header, or a
person's identifying number (a social security, bank account or card number, a date of
birth, a medical record number) by its variable's or its key's name (a structured log's
key: slog's ``"jwt", signed``, PHP's ``'secret' => ...``), is
marked `SECRET_LOGGED` (asked). Names inside a string literal are the message's words, not
the value, and are not read; nor is a test of whether the value is there (``bool(api_key)``,
``token.length``), nor a value handed to a function that hides it (``mask(api_key)``).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import edit_pairs

__all__ = ["SECRET_LOGGED", "logs_secret", "ships_logs"]

SECRET_LOGGED = "@secret-logged"
_CALL = re.compile(
    r"(?:\bconsole\.(?:log|info|debug|warn|error|trace)|\b(?:_logger|_log|logger|log|logging|LOG|Log|"
    r"Timber|Console|Debug|Trace|"
    r"Rails\.logger|log\.Printf?|slog|zap\.S\(\)|tracing)(?:\.|::)(?:\w+)|\bfmt\.(?:Print|Fprint)\w*"
    r"|\b\w+\.(?:Info|Debug|Warn|Trace|Fatal|Panic)[fw]?(?=\s*\()"
    r"|\bprint(?:ln|f)?|\bputs|\bp|\bpp|\bSystem\.out\.print\w*|\berror_log|\bvar_dump"
    r"|\bdbg!|\bprintln!|\beprintln!|\bNSLog|\bos_log"
    r"|\b(?:tracing::)?(?:info|debug|warn|error|trace)(?:_span)?!"
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
    r"|\baccess_log_format\b[^\n]*\{(?:authorization|cookie|x-api-key)\}i"
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
    r"|signingKey|credential|dsn|conn_?str|connection_?string|database_?url)\w*\b",
    re.I,
)
_REQUEST = re.compile(
    r"\bparams\.(?:to_unsafe_h|permit!)|\b(?:req|request)\.(?:body|POST|data|form|json)\b"
    r"|\brequest\.get_json\(\)"
    r"|\b(?:req|request)\.headers\.(?:authorization|cookie)\b"
    r"|\b(?:req|request|event|ctx\.request|context\.Request)\.[Hh]eaders\b(?!\s*[.\[(])"
    r"|\$request->all\(\)|\brequest\(\)->all\(\)|\bhttputil\.DumpRequest\w*\("
    r"|\br\.Header\b(?!\s*[.\[(])|\ballHTTPHeaderFields\b|\?req\.headers\(\)"
    r"|[?%]\s*(?:settings|config|cfg)\b(?!\.)|\br\.URL\.(?:String\(\)|RawQuery\b)|\bget(?:Ssn|CardNumber|Password|AccessToken|RefreshToken)\(\)"
    r"|\b(?:zap\.Any|slog\.Any|zap\.Reflect)\(\s*\w*\s*,\s*(?:cfg|conf|config|settings)\s*\)"
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
    r"(?:environ\[|[gG]etenv\(|environ\.get\(|env\[|ENV\[|ENV\.fetch\()\s*[\"'][A-Z0-9_]*"
    r"(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE_KEY)[A-Z0-9_]*[\"']"
    r"|\bconfig\(\s*[\"'][\w.]*(?:secret|password|token|api_?key)[\w.]*[\"']\s*\)"
    r"|[\"'](?:jwt|token|access_?token|refresh(?:_?token)?|password|secret|api_?key|authorization"
    r"|webhook_?secret)[\"']\s*(?:,|=>)\s*(?![\"'\s])",
    re.I,
)
"""A secret read from the environment or Laravel's settings by its name in quotes
(``os.environ["BOT_TOKEN"]``, ``config('services.stripe.secret')``), or a structured log's
pair keyed by a secret's name (slog's ``"jwt", signed``, PHP's ``'secret' => $key``)."""
_BODY = re.compile(
    r"\bloadRequestContents\(|\bgetRequestBody\(|\bgetContentAsString\(|\breadBody\("
)
"""A request's whole body read as text (a FHIR server's: a patient's record)."""
_STRING = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`""")
_INTERPOLATED = re.compile(
    r"#\{([^}]*)\}|\$\{([^}]*)\}|\{([A-Za-z_][\w.]*)\}|\$([A-Za-z_][\w.]*)|\\\(([^()]*)\)"
)
"""The expressions a string interpolates (Ruby's ``#{...}``, JavaScript's and Kotlin's
``${...}``, C#'s and Python's ``{...}``, Kotlin's and PHP's ``$name``, Swift's ``\\(...)``)."""
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


def logs_secret(inputs: Mapping[str, Any], paths: tuple[str, ...] = ()) -> bool:
    """Whether a file tool's edit ``inputs`` add a log line naming a secret's variable, a
    value built from one, or a request's whole fields (in a logging module's file, named
    ``logging.go`` or ``request_logger.py``, an edit of a call's key-value arguments alone
    counts)."""
    logging = any(_LOGGING_CODE.search(posixpath.basename(p)) for p in paths)
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if _wire_logged(old, new):
            return True
        before = {line.strip() for line in old.splitlines()}
        built = _built_from_secrets(f"{old}\n{new}")
        calls = _calls(new.splitlines())
        if logging and not calls:
            calls = [[line] for line in new.splitlines() if _KEY_VALUE.match(line)]
        for lines in calls:
            if all(line.strip() in before for line in lines):
                continue
            call = " ".join(lines)
            if _names_secret(call) or (built is not None and _names_built(call, built)):
                return True
    return False


_LOGGING_CODE = re.compile(
    r"(?:^|[_.-])log(?:s|ging|ger)?(?:[_-]\w*)?\.(?:go|py|js|ts|php|java|kt|rb|cs)$", re.I
)
"""A logging module's code file (``logging.go``, ``request_logger.py``), not a login's."""
_KEY_VALUE = re.compile(r"^\s*[\"'][\w.-]+[\"']\s*,\s*[^\"'\s]")
"""A structured log call's key and value on a line of their own (``"url", r.URL.String(),``)."""
_CALL_LINES = 8
"""How many lines a logging call's arguments may run over (Go's ``slog.Info("request",``
with one key and value a line)."""


def _calls(lines: list[str]) -> list[list[str]]:
    """The lines of each logging call: its own, and those up to its closing parenthesis."""
    found = []
    for index, line in enumerate(lines):
        if _CALL.search(line) is None:
            continue
        depth, end = line.count("(") - line.count(")"), index
        while depth > 0 and end + 1 < min(len(lines), index + _CALL_LINES):
            end += 1
            depth += lines[end].count("(") - lines[end].count(")")
        found.append(lines[index : end + 1])
    return found


_BUILT = re.compile(
    r"^\s*(?:if\s+)?(?:let\s+(?:mut\s+)?|(?:final\s+)?[A-Z][\w<>\[\]]*\s+)?(?P<name>@?[A-Za-z_]\w*)"
    r"(?:\s*,\s*\w+)?"
    r"\s*:?=\s*(?!=)[^\n]*?"
    r"(?:\b\w*(?:token|secret|password|api_?key|apiKey)\w*\s*[:=)]|\bAUTHORIZATION\b"
    r"|[\"']Authorization[\"']|\bDumpRequest\w*\(|\bexpose_secret\(\))",
    re.M | re.I,
)
"""A variable given a value built from a secret (``@url = edit_password_url(token: token)``):
the link that signs its holder in."""


def _built_from_secrets(text: str) -> re.Pattern[str] | None:
    """One pattern of the names of the variables ``text`` builds from a secret, or None."""
    names = sorted({re.escape(m["name"]) for m in _BUILT.finditer(text)}, key=len, reverse=True)
    return re.compile(rf"(?<![\w@])(?:{'|'.join(names)})(?!\w)") if names else None


def _names_built(line: str, built: re.Pattern[str]) -> bool:
    """Whether the code of ``line`` names a variable built from a secret."""
    inside = [part for m in _INTERPOLATED.finditer(line) for part in m.groups() if part]
    code = _MASKED.sub(" ", " ".join([_STRING.sub(" ", line), *inside]))
    return built.search(code) is not None


_SHIPPED = re.compile(
    r"\b(?:SocketHandler|SyslogUdpHandler|SyslogAppender|SocketAppender|GelfHandler"
    r"|LogstashTcpSocketAppender)\b|<syslogHost>|[\"'](?:tcp|udp|tls)://[\w.-]+"
)
"""A logging configuration's sink that sends each line to another host over the network."""
_LOG_SETTINGS = re.compile(r"(?:^|/)[^/]*(?:logging|logback|log4j2?)[^/]*$", re.I)


def ships_logs(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit of a logging configuration (Laravel's ``config/logging.php``,
    ``logback-spring.xml``) adds a sink that sends the log to another host: every line,
    with whatever secrets and people's data it holds, goes there."""
    if not any(_LOG_SETTINGS.search(p) for p in paths):
        return False
    return any(more(_SHIPPED, old, new) for old, new in edit_pairs(inputs) if old)


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
