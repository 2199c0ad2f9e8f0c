"""A web server's or a reverse proxy's configuration, and the edits that weaken it.

nginx, Apache httpd, Caddy, HAProxy, Traefik, Envoy and Varnish serve a site by what
their files say: who may reach a path, what is logged, which certificates are checked,
where requests go. A one-line edit there (``proxy_ssl_verify off``, a ``deny all`` taken
out, ``admin 0.0.0.0:2019``) changes the site for every visitor at the next reload, and a
deploy ships the file unread. So a change to one is never granted (`serve_config`: the
host decides), and the new text is compared with the old:

- `SERVE_OPENED` (denied): certificate checks switched off, SSL 2 or 3 named, TLS 1.0 or
  1.1 made the floor, or a broken cipher (``ALL``, ``@SECLEVEL=0``) allowed, a request's
  credentials (``$http_authorization``, cookies, the body) put in a log format, requests
  mirrored to a host outside, an admin or stats interface opened to every address, any
  origin allowed with credentials;
- `SERVE_WEAKENED` (asked): an authentication step, an access rule or a rate limit taken
  out, an allow list widened, directory listing switched on, logging switched off or
  removed, a security header removed or HSTS preloading added (browsers keep it for
  months), an older TLS protocol allowed otherwise (Apache's ``all``), a rate raised fifty
  times or more, a listener moved off loopback, an upstream at a public address added, a
  request routed on a custom header's fixed value (a magic header).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import added
from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["SERVE_OPENED", "SERVE_WEAKENED", "serve_config", "serve_marks"]

SERVE_OPENED = "@serve-opened"
SERVE_WEAKENED = "@serve-weakened"

_SERVER_FOLDERS = {
    "nginx": "nginx", "sites-available": "nginx", "sites-enabled": "nginx",
    "apache": "Apache httpd", "apache2": "Apache httpd", "httpd": "Apache httpd",
    "caddy": "Caddy", "haproxy": "HAProxy", "traefik": "Traefik", "envoy": "Envoy",
}  # fmt: skip
_CONFIG_SUFFIXES = (".conf", ".cfg", ".yml", ".yaml", ".toml", ".json", ".caddyfile")
_SERVER_NAMES = {
    "nginx.conf": "nginx", "httpd.conf": "Apache httpd", "apache2.conf": "Apache httpd",
    ".htaccess": "Apache httpd", "caddyfile": "Caddy", "haproxy.cfg": "HAProxy",
    "traefik.yml": "Traefik", "traefik.yaml": "Traefik", "traefik.toml": "Traefik",
    "envoy.yaml": "Envoy", "envoy.yml": "Envoy",
}  # fmt: skip
_MAX_TEXT = 64 * 1024


def serve_config(path: str) -> str | None:
    """The server whose configuration ``path`` is (None: none): by its name
    (``nginx.conf``, ``Caddyfile``, ``haproxy.cfg``, ``.htaccess``, a ``.vcl``), or a
    configuration file in a folder named for the server (``deploy/nginx/shop.conf``)."""
    folder, name = posixpath.split(path)
    lowered = name.lower()
    if lowered in _SERVER_NAMES:
        return _SERVER_NAMES[lowered]
    if lowered.startswith("caddyfile") or lowered.endswith(".caddyfile"):
        return "Caddy"
    if lowered.endswith(".vcl"):
        return "Varnish"
    if lowered.endswith(_CONFIG_SUFFIXES):
        for part in reversed(folder.lower().split("/")):
            if part in _SERVER_FOLDERS:
                return _SERVER_FOLDERS[part]
    return None


# -- opened: denied ------------------------------------------------------------------
_TLS_UNCHECKED = re.compile(
    r"\bproxy_ssl_verify\s+off\b|\bssl_verify_client\s+(?:off|optional_no_ca)\b"
    r"|\bSSLProxyVerify\s+none\b|\bSSLProxyCheckPeer(?:Name|CN|Expire)\s+off\b"
    r"|\bSSLVerifyClient\s+none\b|\bverify\s+none\b|\binsecureSkipVerify\s*[:=]\s*true\b"
    r"|\btls_insecure_skip_verify\b|\bACCEPT_UNTRUSTED\b|(?<![-!\w])SSLv[23]\b"
    r"|\bssl-min-ver\s+TLSv1\.[01]\b|@SECLEVEL=0",
    re.I,
)
_CIPHERS = re.compile(
    r"(?:ssl_ciphers|SSLCipherSuite|ssl-default-(?:bind|server)-ciphers|\bciphers?"
    r"|cipher_suites|cipherSuites)[\"']?[ \t]*(?:[:=][ \t]*)?[\"']?([^\s;\"']+)",
    re.I,
)
_WEAK_CIPHERS = frozenset({"ALL", "NULL", "ENULL", "ANULL", "EXPORT", "EXP", "RC4", "DES",
                           "3DES", "MD5", "LOW", "COMPLEMENTOFALL"})  # fmt: skip
_CREDENTIAL_VARS = re.compile(
    r"\$http_authorization\b|\$http_cookie\b|\$request_body\b|\$cookie_\w+"
    r"|%\{(?:Authorization|Cookie)\}i|capture\s+request\s+header\s+(?:authorization|cookie)"
    r"|req\.hdr\(\s*(?:authorization|cookie)\s*\)|\{http\.request\.header\.(?:authorization|cookie)\}",
    re.I,
)
_FORWARDED = re.compile(
    r"^[ \t]*(?:proxy_set_header|grpc_set_header|header_up|RequestHeader"
    r"|http-request\s+set-header)\b",
    re.I,
)
_LOG_FORMAT = re.compile(
    r"\b(?:log_format|LogFormat|log-format|CustomLog|accessLog|format)\b", re.I
)
_MIRROR = re.compile(
    r"^[ \t]*mirror\s+\S+|\brequest_mirror_polic|\bmirroring\s*:|\bmirror_request_body\s+on",
    re.I | re.M,
)
_URL_HOST = re.compile(r"\b(?:https?|grpcs?|tcp)://\[?([\w.-]+)", re.I)
_ADMIN_OPEN = re.compile(
    r"^[ \t]*admin[ \t]+(?:0\.0\.0\.0|\*|\[::\]|:)[:\d]*[ \t]*$|\bapi\.insecure\s*=\s*true\b"
    r"|--api\.insecure(?!\s*=\s*false)\b|\bstats\s+admin\s+if\s+TRUE\b"
    r"|^[ \t]*\[?api\]?:?[ \t]*\n[ \t]*insecure[ \t]*[:=][ \t]*true\b",
    re.I | re.M,
)
_ANY_ORIGIN = re.compile(
    r"Access-Control-Allow-Origin\W+(?:\$http_origin|\*|\{http\.request\.header\.Origin\}"
    r"|%\{HTTP_ORIGIN\}|\{>?Origin\})|accessControlAllowOriginList\W+\*",
    re.I,
)
_WITH_CREDENTIALS = re.compile(
    r"Access-Control-Allow-Credentials\W+true|accessControlAllowCredentials\W+true", re.I
)

# -- weakened: asked -----------------------------------------------------------------
_AUTH = re.compile(
    r"\bauth_basic\s+(?!off\b)\S+|\bauth_request\s+\S+|\bbasic_?auth\b|\bforward_auth\b"
    r"|\bAuthType\s+\w+|\bRequire\s+valid-user\b|\bhttp-request\s+auth\b|\bstats\s+auth\b"
    r"|\bhttp_auth(?:_group)?\(|\b(?:forwardAuth|digestAuth)\b|\bext_authz\b|\bjwt_authn\b"
    r"|\bssl_verify_client\s+on\b|\bSSLVerifyClient\s+require\b|\bauth_jwt\b",
    re.I,
)
_AUTH_OFF = re.compile(r"\bauth_basic\s+off\b|\bSatisfy\s+any\b", re.I)
_ACCESS = re.compile(
    r"\bdeny\s+all\b|\bRequire\s+all\s+denied\b|\bRequire\s+(?:ip|host|not)\b|\bip_?allow_?list\b"
    r"|\bip_?white_?list\b|\bremote_ip\b|\bclient_ip\b|\bhttp-request\s+deny\b|\bDeny\s+from\b",
    re.I,
)
_OPEN = re.compile(r"\ballow\s+all\b|\bRequire\s+all\s+granted\b|\bAllow\s+from\s+all\b", re.I)
_ALLOWED = re.compile(r"^[ \t]*allow[ \t]+([^\s;]+)[ \t]*;", re.I | re.M)
_LISTING = re.compile(
    r"\bautoindex\s+on\b|\bOptions\b[^\n]{0,300}(?<![-\w])\+?Indexes\b|\bfile_server\s+browse\b"
    r"|^[ \t]*browse\b|\bdirectory[-_]listing\b",
    re.I | re.M,
)
_LIMITS = re.compile(
    r"\blimit_req\b|\blimit_conn\b|\brate_?limit\w*|\bstick-table\b|\bsc\d?_http_req_rate\b"
    r"|\bthrottle\w*|\bDOSPageCount\b",
    re.I,
)
_RATE = re.compile(
    r"zone=(?P<zone>[\w-]+)[^;\n]{0,300}?\brate=(?P<n>\d{1,9})r/(?P<unit>[sm])", re.I
)
_LOG_OFF = re.compile(
    r"\baccess_log\s+off\b|\berror_log\s+/dev/null\b|^[ \t]*no\s+log\b"
    r"|\boption\s+dontlog-normal\b"
    r"|\bCustomLog\s+/dev/null\b|^[ \t]*log\s+off\b|\baccessLog\s*:\s*(?:false|null)\b",
    re.I | re.M,
)
_LOGGING = re.compile(
    r"^[ \t]*(?:access_log\s+(?!off\b)|CustomLog\s|log\s+global\b|option\s+httplog\b"
    r"|accessLog\s*:)",
    re.I | re.M,
)
_HEADERS = re.compile(
    r"Strict-Transport-Security|Content-Security-Policy|X-Frame-Options|X-Content-Type-Options"
    r"|frame-ancestors",
    re.I,
)
_PRELOAD = re.compile(r"Strict-Transport-Security[^\n]{0,300}\bpreload\b", re.I)
_PROTOCOLS = re.compile(
    r"(?:ssl_protocols|SSLProtocol|ssl-min-ver|min_?version|tls_minimum_protocol_version"
    r"|protocols)[\"']?[ \t]*(?:[:=][ \t]*)?([^\n;]+)",
    re.I,
)
_VERSION = re.compile(
    r"(?<![-!\w])(SSLv[23]|TLS_?v?1(?:[._]?[0-3])?|VersionTLS1[0-3]|tls1\.[0-3])\b", re.I
)
_LOOPBACK = re.compile(r"\b(?:bind|listen)\s+(?:127\.0\.0\.1|localhost|\[::1\])", re.I)
_LISTENS = re.compile(r"\b(?:bind|listen)\s+(?:\*|0\.0\.0\.0|\[::\]|:)?:?\d+", re.I)
_IPV4 = re.compile(r"(?<![\d.])(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}(?![\d.])")
_UPSTREAM = re.compile(
    r"\b(?:proxy_pass|reverse_proxy|to|server|url|address|BalancerMember|ProxyPass|backend)\b", re.I
)
_MAGIC_HEADER = re.compile(
    r"\$http_x_(?!forwarded|real_ip|requested_with)\w+\s*[!=~]+\s*[\"']?\w"
    r"|req\.hdr\(\s*x-(?!forwarded|real-ip|requested-with)[\w-]+\s*\)\s*-m\s+\w+\s+\S"
    r"|%\{HTTP:X-(?!Forwarded|Real-IP|Requested-With)[\w-]+\}\s+\S"
    r"|^[ \t]*header\s+X-(?!Forwarded|Real-IP|Requested-With)[\w-]+\s+\S",
    re.I | re.M,
)


def serve_marks(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> tuple[str, ...]:
    """`SERVE_OPENED` or `SERVE_WEAKENED` when a write or an edit of a server's
    configuration (`serve_config`) opens or weakens it (nothing otherwise)."""
    if not any(serve_config(path) for path in paths):
        return ()
    pairs = [
        (_uncommented(old), _uncommented(new))
        for old, new in change_pairs(inputs)
        if len(old) + len(new) <= _MAX_TEXT
    ]
    if any(_opens(old, new) for old, new in pairs):
        return (SERVE_OPENED,)
    if any(_weakens(old, new) for old, new in pairs):
        return (SERVE_WEAKENED,)
    return ()


def _uncommented(text: str) -> str:
    """``text`` without its comment lines (every server here writes them after ``#``)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


def _opens(old: str, new: str) -> bool:
    if added(_TLS_UNCHECKED, old, new) or added(_ADMIN_OPEN, old, new):
        return True
    if _weak_ciphers(new) - _weak_ciphers(old) or _credentials_logged(old, new):
        return True
    if added(_MIRROR, old, new) and _outside_hosts(new) - _outside_hosts(old):
        return True
    return added(_ANY_ORIGIN, old, new) and _WITH_CREDENTIALS.search(new) is not None


def _weakens(old: str, new: str) -> bool:
    if _fewer(_AUTH, old, new) or _fewer(_ACCESS, old, new) or _fewer(_LIMITS, old, new):
        return True
    if _fewer(_LOGGING, old, new) or _fewer(_HEADERS, old, new):
        return True
    for pattern in (_AUTH_OFF, _OPEN, _LISTING, _LOG_OFF, _PRELOAD, _MIRROR, _MAGIC_HEADER):
        if added(pattern, old, new):
            return True
    if _allow_widened(old, new) or _rate_raised(old, new) or _floor(new) < _floor(old):
        return True
    if _LOOPBACK.search(old) and not _LOOPBACK.search(new) and _LISTENS.search(new):
        return True
    return bool(_public_upstreams(new) - _public_upstreams(old))


def _fewer(pattern: re.Pattern[str], old: str, new: str) -> bool:
    return len(pattern.findall(new)) < len(pattern.findall(old))


def _weak_ciphers(text: str) -> set[str]:
    """The broken cipher names a cipher list in ``text`` allows (not ``!``/``-`` ones)."""
    weak = set()
    for found in _CIPHERS.finditer(text):
        for name in re.split(r"[:,]", found.group(1)):
            upper = name.upper().lstrip("+")
            if upper.startswith(("!", "-")) or not upper:
                continue
            if (
                upper in _WEAK_CIPHERS
                or upper == "@SECLEVEL=0"
                or upper.startswith(("RC4-", "EXP-", "NULL-", "DES-"))
            ):
                weak.add(upper)
    return weak


def _credentials_logged(old: str, new: str) -> bool:
    """A request's credentials or body added to a log line (not a header forwarded)."""
    if _LOG_FORMAT.search(new) is None:
        return False
    before = {line.strip() for line in old.splitlines()}
    return any(
        line.strip() not in before and _CREDENTIAL_VARS.search(line) and not _FORWARDED.match(line)
        for line in new.splitlines()
    )


def _private(first: int, second: int) -> bool:
    return (
        first in (10, 127, 0)
        or (first == 172 and 16 <= second <= 31)
        or (first == 192 and second == 168)
        or (first == 169 and second == 254)
        or (first == 100 and 64 <= second <= 127)
    )


_INTERNAL = (".internal", ".local", ".localhost", ".svc", ".lan", ".corp", ".home.arpa", ".test")


def _outside_hosts(text: str) -> set[str]:
    """The hosts of the URLs in ``text`` that are neither private addresses nor internal
    names (a name without a dot is a service's, on the same network)."""
    hosts = set()
    for found in _URL_HOST.finditer(text):
        host = found.group(1).lower().rstrip(".")
        numbers = _IPV4.fullmatch(host)
        if numbers is not None:
            if not _private(int(numbers.group(1)), int(numbers.group(2))):
                hosts.add(host)
        elif "." in host and not host.endswith(_INTERNAL) and host != "localhost":
            hosts.add(host)
    return hosts


def _public_upstreams(text: str) -> set[str]:
    """The public IPv4 addresses on the lines of ``text`` that name where requests go."""
    found = set()
    for line in text.splitlines():
        if _UPSTREAM.search(line):
            for address in _IPV4.finditer(line):
                if not _private(int(address.group(1)), int(address.group(2))):
                    found.add(address.group())
    return found


def _allow_widened(old: str, new: str) -> bool:
    """An ``allow ADDRESS;`` added to a list none of whose entries was taken out."""
    before, after = set(_ALLOWED.findall(old)), set(_ALLOWED.findall(new))
    return bool(after - before) and not before - after and bool(before or _ACCESS.search(new))


def _rate_raised(old: str, new: str) -> bool:
    before, after = _rates(old), _rates(new)
    return any(zone in before and rate >= 50 * before[zone] for zone, rate in after.items())


def _rates(text: str) -> dict[str, int]:
    return {
        found.group("zone"): int(found.group("n")) * (60 if found.group("unit") == "s" else 1)
        for found in _RATE.finditer(text)
    }


_ALL = re.compile(r"(?<![-!+\w])all\b", re.I)
_ORDER = {"sslv2": 0, "sslv3": 1, "tls1": 2, "tls1.0": 2, "tls1.1": 3, "tls1.2": 4, "tls1.3": 5}


def _floor(text: str) -> int:
    """The oldest protocol version ``text``'s protocol settings allow; none named is the
    servers' own default today, TLS 1.2 (so ``ssl_protocols TLSv1.3;`` added raises it)."""
    if _PROTOCOLS.search(text) is None:
        return _ORDER["tls1.2"]
    versions = [6]
    for found in _PROTOCOLS.finditer(text):
        if _ALL.search(found.group(1)):  # Apache's `all` (less what follows): TLS 1.0 on
            versions.append(_ORDER["tls1"])
        for version in _VERSION.findall(found.group(1)):
            versions.append(_ORDER.get(_version_name(version), 6))
    return min(versions)


def _version_name(version: str) -> str:
    lowered = (
        version.lower().replace("_", "").replace("versiontls1", "tls1.").replace("tlsv", "tls")
    )
    if lowered.startswith("tls1") and len(lowered) == 5:
        return f"tls1.{lowered[4]}"  # TLS1_2 and TLSv12 spellings
    return lowered.rstrip(".")
