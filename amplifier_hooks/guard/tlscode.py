"""An edit that makes the application's own code skip TLS certificate checks.

``requests.get(url, verify=False)``, ``ssl._create_unverified_context()``, Go's
``InsecureSkipVerify: true``, Node's ``rejectUnauthorized: false``, Java's trust manager
whose ``checkServerTrusted`` is empty or a host-name verifier returning ``true``: every
connection that code makes then takes whatever certificate anyone on the way shows, and
the passwords and tokens it sends go to them; the diff reads as a one-word fix for an
error. An edit whose new text adds such a switch (one its old text did not have) is a
protection switched off, as is .NET's certificate callback that returns ``true``, a TLS
version older than 1.2 allowed (``SslProtocols.Tls11``, Go's ``tls.VersionTLS10``, RC4
suites), a client certificate asked for and not verified, gRPC's plaintext credentials,
PHP's ``'verify' => false`` (Guzzle, Laravel's ``withoutVerifying()``), Netty's trust-all
factory, Kafka's host name check emptied, or an Android app's plain HTTP
allowed (``usesCleartextTraffic="true"``), its users' own CAs trusted or a WebView's
certificate error passed over (``handler.proceed()``). Test code (a ``tests/`` folder,
``test_*.py``, ``*_test.go``, ``*.test.ts``) and an Android app's debug build
(``src/debug/``) are left out: a test server's own certificate is its own."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import live_matches, more
from amplifier_hooks.guard.ignorefiles import change_pairs
from amplifier_hooks.guard.testpaths import test_code

__all__ = ["skips_tls_checks"]

_SKIPS = re.compile(
    r"\bverify\s*=\s*False\b|_create_unverified_context\b|\bcheck_hostname\s*=\s*False\b"
    r"|\bCERT_NONE\b|\b(?:Insecure)?SkipVerify[\"']?\s*:\s*true\b|\brejectUnauthorized\s*:\s*false\b"
    r"|NODE_TLS_REJECT_UNAUTHORIZED\b[^\n]*[\"']0[\"']|\bstrictSSL\s*:\s*false\b"
    r"|\b(?:SSL_)?VERIFY_NONE\b|\bverify\s*:\s*:verify_none\b|\{verify,\s*verify_none\}|\bssl_verify_mode\s*:\s*:none\b|\bverify_mode\s*=\s*OpenSSL::SSL::VERIFY_NONE"
    r"|\bNoopHostnameVerifier\b|\bALLOW_ALL_HOSTNAME_VERIFIER\b|\bTrustAllStrategy\b"
    r"|\bTrustSelfSignedStrategy\b|DangerousAcceptAnyServerCertificateValidator"
    r"|\bdanger_accept_invalid_(?:certs|hostnames)\s*\(\s*true\s*\)"
    r"|CURLOPT_SSL_VERIFY(?:PEER|HOST)\s*(?:,|=>)\s*(?:false|0L?)\b"
    r"|[\"']verify_peer(?:_name)?[\"']\s*=>\s*false\b"
    r"|\bPYTHONHTTPSVERIFY\b[^\n]*0\b|\bGIT_SSL_NO_VERIFY\b"
    r"|\bcheckServerTrusted\s*\([^)]*\)\s*(?:throws\s+[\w.]+\s*)?\{\s*\}"  # Java's trust-all
    r"|HostnameVerifier\s*\(\s*\(?\s*\w+\s*,\s*\w+\s*\)?\s*->\s*true\b",
)
"""A switch that turns certificate or host-name checks off, in the languages' own words."""
_SKIPS_NAMED = re.compile(
    r"CertificateValidationCallback\s*\+?=[^;\n]*=>\s*true"
    r"|\bSslProtocols\.(?:Ssl[23]|Tls11?|Tls)\b(?!1[23])|\bSecurityProtocolType\.(?:Ssl3|Tls11?)\b(?!\d)"
    r"|\busesCleartextTraffic\s*=\s*[\"']true[\"']|\bcleartextTrafficPermitted\s*=\s*[\"']true[\"']"
    r"|<certificates\s+src\s*=\s*[\"']user[\"']|(?s:onReceivedSslError.{0,400}?\.proceed\(\s*\))"
    r"|\bAllowAnyClientCertificate\(\)|\bCertificateTypes\.All\b|\bX509RevocationMode\.NoCheck\b"
    r"|\bValidate(?:CertificateUse|ValidityPeriod)\s*=\s*false\b"
    r"|\bverify_host_key\s*(?::|=>)\s*:?(?:never|false|none)\b|\bStrictHostKeyChecking[= ]+no\b"
    r"|\bUserKnownHostsFile[= ]+/dev/null\b"
    r"|\bMinVersion\s*:\s*tls\.Version(?:TLS1[01]|SSL30)\b|\bTLS_RSA_WITH_(?:RC4|3DES)\w*"
    r"|\bClientAuth\s*:\s*tls\.(?:RequestClientCert|RequireAnyClientCert)\b"
    r"|\binsecure\.NewCredentials\(\)|\bgrpc\.WithInsecure\(\)"
    r"|set_min_proto_version\s*\([^)\n]*\b(?:SSL3|TLS1|TLS1_1)_VERSION\b"  # OpenSSL's
    r"|set_cipher_list\s*\([^)\n]*[\"'][^\"'\n]*(?<![!\w])[ea]NULL\b"
    r"|\bInsecureSkipVerify\s*:\s*(?!false\b)[A-Za-z_][\w.]*"  # Go's, from a variable
    r"|[\"']verify[\"']\s*=>\s*(?:false|0|env\([^)\n]*,\s*false\s*\))|\bwithoutVerifying\(\)"
    r"|\bMYSQL_ATTR_SSL_VERIFY_SERVER_CERT\s*=>\s*false\b"  # PHP's Guzzle, Laravel's, PDO's
    r"|\bInsecureTrustManagerFactory\b|ssl\.endpoint\.identification\.algorithm[\"']?\s*[:=]\s*"
    r"(?:[\"'][\"']|$)"  # Netty's trust-all, Kafka's host name check
    r"|\b(?:verify_)?ssl\s*=\s*False\b"  # aiohttp's
    r"|NSAllowsArbitraryLoads(?:InWebContent|ForMedia)?</key>\s*<true\s*/>"
    r"|NSExceptionAllowsInsecureHTTPLoads</key>\s*<true\s*/>"
    r"|NSExceptionMinimumTLSVersion</key>\s*<string>TLSv1\.[01]</string>"
    r"|\bDisabledTrustEvaluator\b|\bSecPolicyCreateBasicX509\(\)"
    r"|\bsec_protocol_options_set_verify_block\b[^}]{0,300}?complete\(\s*true\s*\)"
    r"|\btls_protocol_version_t\.TLSv1[01]\b|\bkTLSProtocol1\b|\ballowsAnyHTTPSCertificate\w*"
    r"|\.danger_accept_invalid_(?:certs|hostnames)\(\s*(?!false\b)[A-Za-z_]\w*\s*\)"
    r"|\b(?:Pg)?SslMode::Disable\b|\bSslVerifyMode::NONE\b"
    r"|\.dangerous\(\)\s*\.set_certificate_verifier\("
    r"|\btlsMinimumSupportedProtocolVersion\s*=\s*\.TLSv1[01]\b",
    re.M,
)
"""More such switches (.NET's, Android's, SSH's, Go's, PHP's, Netty's, Kafka's, OpenSSL's
in C), each named
by one of `_NAMES`."""
_NAMES = ("Certificate", "SslProtocols", "SecurityProtocolType", "leartextTraffic",
          "<certificates", "onReceivedSslError", "RevocationMode", "ValidityPeriod",
          "verify_host_key", "StrictHostKeyChecking", "UserKnownHostsFile", "tls.",
          "insecure.", "WithInsecure", "InsecureSkipVerify", "verify'", 'verify"',
          "withoutVerifying", "MYSQL_ATTR", "InsecureTrustManager", "identification",
          "ssl=", "NSAllows", "NSException", "URLCredential", "TrustEvaluator", "BasicX509",
          "verify_block", "TLSv1", "kTLSProtocol1", "allowsAnyHTTPS", "danger_accept",
          "SslMode::", "SslVerifyMode", "dangerous()", "tlsMinimumSupported",
          "set_min_proto_version", "set_cipher_list")  # fmt: skip
"""The speed trick of this module: `_SKIPS_NAMED` is read only where the text holds one of
these words. One regex of every alternative costs a long write (20 KB, the benchmark's
``a file tool writing a long file``) a third more; a substring test costs microseconds."""
_PINS = re.compile(
    r"<pin\b|<pin-set\b|\bCertificatePinner\b|\.add\(\s*\"[^\"\n]+\"\s*,\s*\"sha256/"
    r"|\bTrustKit\b|\bpinnedCertificates\b|\bpublicKeyHashes\b"
    r"|\bNSPinned(?:Domains|CAIdentities|LeafIdentities)\b|\bPinnedCertificatesTrustEvaluator\b"
    r"|\bPublicKeysTrustEvaluator\b",
)
"""A certificate or key pin (Android's ``<pin-set>``, OkHttp's ``CertificatePinner``)."""
_RETURNS_TRUE = re.compile(r"\breturn\s+true\s*;")
"""In a .NET certificate callback (it reads ``SslPolicyErrors``): one more ``return true``
passes a certificate the old code refused."""
_DEBUG = re.compile(r"/src/debug/")
"""An Android app's debug source set: its cleartext to a local server never ships."""
_DEBUG_OVERRIDES = re.compile(r"<debug-overrides\b.*?(?:</debug-overrides>|\Z)", re.S)
"""An Android network configuration's part that only debuggable builds read."""
_PLAIN_DB = re.compile(
    r"^(?![^\n]*(?:localhost|127\.0\.0\.1|@postgres[:/]|@db[:/]))[^\n]*\bsslmode[\"']?\s*[:=]\s*[\"']?disable\b",
    re.M,
)
"""A database's connection told not to use TLS, on a line that names no local host (a
developer's own PostgreSQL, ``localhost`` or compose's ``@postgres:``, has no certificate)."""
_TRUSTED = re.compile(r"\bURLCredential(?:\.init)?\(\s*trust\s*:")
_PIN_HASH = re.compile(r"[\"'](?P<hash>[A-Za-z0-9+/]{43}=)[\"']")
_PIN_LIST = re.compile(r"\b[\w.]*(?:[Pp]inned|[Pp]ins)\w*\b")


def _pins_changed(old: str, new: str) -> bool:
    """A list of pinned keys (``pinnedKeyHashes``) given a hash it did not hold."""
    if not _PIN_LIST.search(old) or not _PIN_LIST.search(new):
        return False
    before = {m["hash"] for m in _PIN_HASH.finditer(old)}
    return bool(before) and any(m["hash"] not in before for m in _PIN_HASH.finditer(new))


_TLS_SETUP = re.compile(
    r"\b(?:bind_rustls|RustlsConfig|ClientTlsConfig|ServerTlsConfig|NewServerTLSFromFile)\b"
    r"|\bcredentials\.NewTLS\(|\bgrpc\.Creds\("
)
"""A server's or a client channel's TLS (Rust's axum-server and tonic, Go's gRPC)."""
_TRUSTS_ALL = re.compile(
    r"func\s+\w*(?:[Tt]rust|[Cc]ertificate|[Pp]inn?|[Vv]alidat)\w*\([^)]*\)[^{\n]*\{\s*"
    r"(?://[^\n]*\s*)*return\s+true\b"
)
"""A Swift function that decides a server's trust (``validate(trust:)``) saying yes at once."""
_LOCAL_SECTION = re.compile(
    r"^(?:dev|development|test|testing|local)\w*:\s*$|localhost|127\.0\.0\.1|@postgres[:/]|@db[:/]",
    re.I,
)


def _plain_db(text: str) -> int:
    """How many of `_PLAIN_DB`'s lines ``text`` holds outside a local database's settings
    (YAML's ``development:`` section, a ``host: localhost`` a few lines above)."""
    lines = text.splitlines()
    return sum(
        1
        for at, line in enumerate(lines)
        if _PLAIN_DB.search(line)
        and not any(_LOCAL_SECTION.search(above) for above in lines[max(0, at - 5) : at])
    )


_EXAMPLE = re.compile(r"\.(?:example|sample|template|dist)$", re.I)
"""A settings file's example (``.env.example``): copied and edited, never run as it is."""
_MAX_TEXT = 64 * 1024


def skips_tls_checks(paths: Iterable[str], inputs: Mapping[str, Any]) -> bool:
    """Whether a write or edit of code among ``paths`` (tests left out) adds a switch that
    skips TLS certificate checks."""
    if (
        any(p.endswith(".swift") for p in paths)
        and any(
            more(_TRUSTS_ALL, o, n) for o, n in change_pairs(inputs) if len(o) + len(n) <= _MAX_TEXT
        )
        and not all(test_code(p) for p in paths)
    ):
        return True
    named = [
        p
        for p in paths
        if not test_code(p)
        and not _DEBUG.search(p)
        and not _EXAMPLE.search(p)
        and posixpath.basename(p)
    ]
    if not named:
        return False
    pairs = change_pairs(inputs)
    for old, new in pairs:
        if len(old) + len(new) > _MAX_TEXT:
            continue
        old, new = _DEBUG_OVERRIDES.sub("", old), _DEBUG_OVERRIDES.sub("", new)
        if more(_SKIPS, old, new) or ("sslmode" in new and _plain_db(new) > _plain_db(old)):
            return True
        if any(name in new for name in _NAMES) and more(_SKIPS_NAMED, old, new):
            return True
        if "URLCredential" in new and "SecTrustEvaluate" not in new and more(_TRUSTED, old, new):
            return True  # a challenge answered with the server's own trust, never evaluated
        if _pins_changed(old, new):
            return True  # a pinned key swapped or added: whoever holds it is trusted
        if _PINS.search(old) and live_matches(_PINS, new) < live_matches(_PINS, old):
            return True  # a pin of the server's key taken out: any CA's certificate passes
        if old and live_matches(_TLS_SETUP, new) < live_matches(_TLS_SETUP, old):
            return True  # a server's or a channel's TLS taken out: it talks in the clear
        if "SslPolicyErrors" in old and more(_RETURNS_TRUE, old, new):
            return True  # a certificate callback that now says yes
    return False
