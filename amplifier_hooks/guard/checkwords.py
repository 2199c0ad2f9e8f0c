"""An edit of the code a security check rests on is never granted.

The guard cannot review code. Its detectors (`authchecks`, `tlscode`, `inputruns`, ...)
ask where they recognise a check weakened, but a check can be weakened in more ways than
any list holds: a tenant's filter dropped from a query, an upload's size limit taken off,
a role read from the request body. A host skips its own prompt for what the guard grants,
so an edit whose text names what such a check is about (signing in, sessions and
cookies, tokens and secrets, origins and security headers, permissions, roles and owners,
limits and captchas, sanitizing, running commands, TLS and certificates, an app's exported
parts, payments) keeps no grant: the host decides, as it would with no guard at all.
Other edits (a feature, a fix, a refactor that names none of it) keep their grant.

The text read is the code the edit touches: an edit's old and new strings whole (the lines
around a change are what it changes: ``ignoredMethods`` widened inside ``doubleCsrf({...})``),
a patch's hunks with their kept lines, a whole-file write's text, a ``sed`` script that
edits a file in place, and the file's name and its folder's (``security/csp.ts``; the
folders above name the workspace, not the code). Its words are read as a program's
names: ``verifySignature``, ``verify_signature`` and ``VERIFY_SIGNATURE`` each name
``verify``. Tests and prose (``tests/``, ``*.md``) ship no check and are not read.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from itertools import pairwise
from typing import Any

from amplifier_hooks.guard.ignorefiles import change_pairs
from amplifier_hooks.guard.table import Act, Does
from amplifier_hooks.guard.testpaths import test_code

__all__ = [
    "CHECK_NAMES",
    "CHECK_WORDS",
    "check_words_changed",
    "check_words_in",
    "sed_words",
    "shipped",
]

CHECK_WORDS = frozenset(
    {"auth", "authn", "authz", "authenticate", "authenticated", "authentication", "authorize",
     "authorized", "authorization", "authorizer", "unauthorized", "unauthenticated", "oauth",
     "oidc", "saml", "sso", "login", "logout", "signin", "password", "passwd", "passphrase",
     "credential", "credentials", "token", "tokens", "jwt", "jwks", "bearer", "session",
     "sessions", "cookie", "cookies", "csrf", "xsrf", "antiforgery", "forgery", "cors",
     "origin", "origins", "csp", "nonce", "helmet", "hsts", "secure", "insecure", "secret",
     "secrets", "mfa", "otp", "totp", "webauthn", "passkey", "captcha", "recaptcha",
     "hcaptcha", "turnstile", "verify", "verified", "verification", "unverified",
     "signature", "hmac", "bcrypt", "argon2", "scrypt", "pbkdf2", "crypto", "cipher",
     "encrypt", "decrypt", "encrypted", "encryption", "keystore", "keychain", "truststore",
     "cert", "certs", "certificate", "certificates", "tls", "ssl", "pinning", "pinner",
     "permission", "permissions", "permit", "role", "roles", "admin", "admins", "superuser",
     "owner", "ownership", "tenant", "tenants", "acl", "rbac", "policy", "policies", "scope",
     "scopes", "privilege", "privileges", "privileged", "throttle", "throttler", "limiter",
     "sanitize", "sanitizer", "sanitized", "purify", "escape", "unescape", "xss",
     "dangerously", "unsafe", "eval", "exec", "spawn", "popen", "subprocess",
     "deserialize", "unserialize", "pickle", "redirect", "allowlist", "whitelist",
     "blocklist", "blacklist", "allow", "allowed", "deny", "denied", "forbidden", "trust",
     "trusted", "upload", "uploads", "multer", "mimetype", "introspection", "debuggable",
     "cleartext", "exported", "webview", "biometric", "sandbox", "expires", "expiry",
     "expiration", "lifetime", "consent", "pii", "ssn", "cvv", "htpasswd", "autoindex",
     "forwarded", "realip", "multipart", "malware", "virus", "infected", "noopener",
     "security", "mtls", "salt", "hasher", "plaintext", "destructive", "stetho", "dex",
     "intent", "iframe", "safe", "kb", "mb", "gb", "unzip", "billing", "payment", "payments",
     "checkout", "unpkg", "jsdelivr", "cdnjs", "sw", "crashlytics", "execute", "plugin",
     "plugins",
     # a request's handlers and their limits (GraphQL, WebSocket, WordPress)
     "resolver", "resolvers", "middleware", "middlewares", "armor", "complexity", "wss",
     "proxy", "validate", "validator", "validation", "validated", "cap", "caps",
     "capability", "capabilities", "esc", "kses", "prepare", "absint", "wpdb", "nopriv",
     "coupon", "coupons", "filetype", "mime", "mimes", "registry", "registries", "openssl",
     # C and the kernel: processes, identities, memory, privileges, modules
     "execl", "execlp", "execle", "execv", "execvp", "execve", "execvpe", "setuid",
     "setgid", "seteuid", "setegid", "setreuid", "setregid", "setresuid", "setresgid",
     "setgroups", "suid", "getuid", "geteuid", "getgid", "getegid", "clearenv", "setenv",
     "unsetenv", "nofollow", "memcpy", "memmove", "strcpy", "strncpy", "strcat", "strncat",
     "sprintf", "vsprintf", "gets", "alloca", "overflow", "underflow", "bounds", "syslog",
     "chmod", "fchmod", "chown", "umask", "prctl", "dumpable", "getspnam", "shadow",
     "fortify", "relro", "kallsyms", "syscall", "cr0", "cr4", "cred", "creds", "physmem",
     "devmem", "kmem"}
)  # fmt: skip
"""Words (a name's parts, lowered) that say what a security check is about."""
CHECK_NAMES = frozenset(
    {"httponly", "samesite", "ratelimit", "ratelimiter", "apikey", "privatekey", "secretkey",
     "signingkey", "accesskey", "masterkey", "encryptionkey", "skipthrottle", "allowany",
     "permitall", "innerhtml", "usescleartexttraffic", "allowbackup", "setjavascriptenabled",
     "addjavascriptinterface", "trustmanager", "hostnameverifier", "sslmode", "currentuser",
     "tenantid", "orgid", "ownerid", "filesize", "webview", "safebrowsing", "worldreadable",
     "externalstorage", "canonicalpath", "classloader", "frameancestors", "documentdomain",
     "orderby", "processenv", "createelement", "serviceworker", "deeplink", "maxdepth",
     "depthlimit", "costlimit", "maxcost", "maxaliases", "maxcomplexity", "maxhttpbuffersize",
     "maxpayload", "bodylimit", "maxbodysize", "maxfilesize", "readfilesync",
     "createreadstream", "sendfile", "whereraw", "orderbyraw", "selectraw", "havingraw",
     "queryraw", "executeraw", "userhascap", "currentusercan", "manageoptions", "loggedin",
     "userdata", "useremail", "uploadmimes", "wphead", "wpfooter",
     "stackprotector", "ldpreload", "ldlibrarypath", "syscalltable", "thismodule"}
)  # fmt: skip
"""Names (two parts joined, or a whole name lowered with its underscores dropped) whose
parts alone say too little."""
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z][a-z0-9]*|[A-Z]+[0-9]*|[0-9]+")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PROSE = frozenset({".md", ".mdx", ".rst", ".txt", ".adoc"})
_BUILD_TEXT = re.compile(
    r"(?i)(cmakelists|meson_options|requirements[\w.-]*|constraints[\w.-]*|robots)\.txt"
)
"""``.txt`` files that are a build's or a site's configuration, not prose."""


def check_words_changed(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> str | None:
    """Why a write or an edit of ``paths`` is not granted: the word of a security check the
    text it touches names (None: it names none, or every path is a test's or prose)."""
    if paths and not any(map(shipped, paths)):
        return None
    touched = [*map(named, paths), *(old + "\n" + new for old, new in change_pairs(inputs))]
    return check_words_in("\n".join(touched))


def check_words_in(text: str) -> str | None:
    """Why an edit that touches ``text`` is not granted (None: it names no check)."""
    word = _check_word(text)
    if word is None:
        return None
    return (
        f"the edit touches code that names {word!r}, part of a security check, which the "
        "guard cannot review"
    )


def sed_words(args: tuple[str, ...], acts: Iterable[Act]) -> str | None:
    """Why ``sed`` given ``args``, writing what ``acts`` say, is not granted: its script
    edits a shipped file in place and names a security check."""
    if not any(act.does == Does.WRITE and shipped(act.target) for act in acts):
        return None
    return check_words_in(" ".join(args))


def named(path: str) -> str:
    """What a path says of its file: its name and its folder's (``src/security/csp.ts``),
    not the folders above, which name the workspace and the machine, not the code."""
    return "/".join(path.replace("\\", "/").rsplit("/", 2)[-2:])


def shipped(path: str) -> bool:
    """Whether ``path`` may hold a check that ships: not a test's, not prose."""
    if test_code(path):
        return False
    return (
        posixpath.splitext(path)[1].lower() not in _PROSE
        or _BUILD_TEXT.fullmatch(posixpath.basename(path)) is not None
    )


def _check_word(text: str) -> str | None:
    """The first word of `CHECK_WORDS` or name of `CHECK_NAMES` ``text`` holds."""
    parts = [part.lower() for part in _PART.findall(text)]
    found = CHECK_WORDS.intersection(parts)
    if not found:
        found = CHECK_NAMES.intersection(a + b for a, b in pairwise(parts))
    if not found:
        found = CHECK_NAMES.intersection(n.replace("_", "").lower() for n in _NAME.findall(text))
    return min(found) if found else None
