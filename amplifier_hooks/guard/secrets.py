"""Secrets by name, wherever they are: private keys, keystores and their password files,
service-account key files, VPN profiles and ``.env`` files (and settings kept like one),
in any case and with their backups (``id_rsa.bak``, ``.ENV``, ``server.key.orig``).

A name is matched, not a place: a key copied into the project is as secret as one in
``~/.ssh``. Case does not matter (macOS and Windows file systems ignore it, and ``CERT.P12``
is the same file as ``cert.p12`` there). A backup suffix (``.bak``, ``.old``, ``-old``,
``.orig``, ``.tmp``, ``.backup``, ``~``) is taken off, as many times as it is there,
before the name is matched. A pattern (``cat .en?``) is a secret when it would name one
and no ordinary file.
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase
from functools import lru_cache
from typing import Literal

from amplifier_hooks.guard.inline import CODE_SHOWS
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table.git import git_read
from amplifier_hooks.guard.table.sed import rewrites_quietly
from amplifier_hooks.guard.table.text import SEARCHES, searched
from amplifier_hooks.secret_shapes import CREDENTIAL_RULES

__all__ = ["MAYBE_SECRET", "SHOWS_TEXT", "SecretKind", "lost_unseen", "maybe_secret",
           "secret_kind", "secret_samples", "seeks_secrets", "shows_text"]  # fmt: skip

SecretKind = Literal["key", "env"]

_BACKUP = re.compile(r"(?:\.bak|\.old|-old|\.orig|\.tmp|\.backup|~)$")
_KEY = re.compile(
    r"""^(?:
        id_[a-z0-9_-]+                                       # ssh keys: id_rsa, id_ed25519_sk
      | .+_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?                 # deploy_key_rsa
      | .+\.(?:key|pem|ppk|keypair|p8|p12|pfx|keystore|jks|kdbx|keychain|keychain-db|ovpn
             |gpg-key|priv|sec)
      | adbkey                                               # adb's private key (~/.android)
      | utc--.+--[0-9a-f]+(?:\.json)?                         # an Ethereum keystore file
      | (?:.+[-_.])?(?:key|keystore|signing)\.properties     # Android signing passwords
      | (?:.+[-_.])?token\.pickle                            # a Google API client's login
      | (?:.+[-_])?(?:encryption|signing|secret|private|aes|hmac|master)[-_]key\.(?:bin|der|raw|dat)
    )$""",
    re.VERBOSE,
)
"""``.p8`` is PKCS#8 (App Store Connect's ``AuthKey_*.p8``), ``.sec`` a GnuPG secret key
exported (``signing.sec``) or Nix's signing key; Flutter's and Android's
``key.properties`` / ``keystore.properties`` hold the keystore's passwords, which open it;
``token.pickle`` is the OAuth refresh token Google's API clients save after a login;
``flash_encryption_key.bin`` and ``secure_boot_signing_key.der`` are a device's keys as raw
bytes (ESP-IDF's flash encryption, a bootloader's signing)."""
_CERTIFICATES = frozenset({"fullchain.pem", "chain.pem"})
"""certbot's certificate files (``/etc/letsencrypt/live/*/``), public by their names: its
key is ``privkey.pem``. (``cert.pem`` is not among them: cloudflared's holds its token.)"""
_PUBLIC_PEM = re.compile(
    r"^(?!.*(?:key|priv|secret))(?!cert\.pem$)(?:.+[-_.])?(?:ca|cert|crt|chain|intermediate|pub|public)"
    r"(?:[-_.][^.]*)?\.pem$"
)
"""A PEM file named for a certificate or a public key (``acme-root-ca.pem``,
``intermediate.pem``, ``pub-cert.pem``) and for no key: public, as ``fullchain.pem`` is
(a bare ``cert.pem`` is not: cloudflared's holds its token)."""
_KEY_JSON = re.compile(
    r"""^(?:
        (?:.*[-_.])?(?:service[-_]?account|api[-_]?key|private[-_]?key|credentials?|private)(?:[-_.].*)?
      | (?:.*[-_.])?(?:secrets?|keyfile)                     # .NET's secrets.json, dbt's keyfile
      | (?:.*[-_])?(?:key|keys|sa|sa[-_]key)                 # google-play-key, loader-sa
      | client[-_]secret.*                                   # Google OAuth client secrets
      | (?:oauth[-_]?|refresh[-_]?|access[-_]?)?token        # an OAuth client's saved login
      | acme                                                 # Traefik's certificates' keys
      | pc-api-\d.*                                          # a Play Console service account
      | .*-firebase-adminsdk-.*
    )\.json$""",
    re.VERBOSE,
)
"""A Google service account's (Play publishing, Firebase Admin, a loader's ``bq-loader-sa``)
or fastlane's App Store Connect API key file by its well-known names: each holds a private
key in its JSON.
Traefik's ``acme.json`` holds its ACME account's and every certificate's private keys.
``google-services.json`` and the like are app config shipped in the app: not secret."""
_SECRET_FOLDERS = frozenset({"secrets", ".secrets", "secret", ".secret"})
_FOLDER_KEY = re.compile(r"^(?!.*\.enc\.)[^.].*\.json$")
"""A JSON file in a folder named for secrets (``secrets/mainnet-deployer.json``,
``config/secrets/freshdesk.json``) holds one: a wallet's, a service's key. sops's
``secrets/prod.enc.yaml`` is encrypted, and YAML there is often a manifest to encrypt."""
_KAMAL_SECRETS = re.compile(r"^secrets(?:[-.].+)?$")
"""Kamal's ``.kamal/secrets`` (and ``secrets-common``, ``secrets.production``): the
registry password and ``RAILS_MASTER_KEY`` its deploys hand to the app."""
_DRUPAL_SETTINGS = frozenset({"settings.php", "settings.local.php", "settings.prod.php"})
"""Drupal's ``sites/*/settings.php`` (and ``settings.local.php``): its database password
and hash salt, kept as WordPress keeps them in ``wp-config.php``."""
_SETTINGS = re.compile(
    r"^(?:(?:.*[-_.])?secrets?(?:[-_.].*)?\.(?:xcconfig|properties|toml|exs)|wp-config\.php|env\.php"
    r"|(?:.*[-_.])?credentials?\.(?:properties|ini|cfg|conf|xml|txt|toml)"
    r"|(?:.*[-_.])?client(?:[-_.][^/]*)?\.properties|looker\.ini"
    r"|(?:.*[-_.])?(?:passphrase|client[-_]secret)(?:[-_.][^/]*)?\.txt"
    r"|sentry\.properties|\.sentryclirc|.+\.secrets|appsettings\.(?:production|prod|staging)\.json"
    r"|(?:liquibase|flyway)(?:[-_.][^/]*)?[-_.]prod(?:uction)?(?:[-_.][^/]*)?\.(?:properties|conf|toml)"
    r"|(?!.*(?:example|sample|template|local|mock))[^/]+\.postman_environment\.json)$"
)
"""``Secrets.xcconfig``, ``secrets.properties``, ``secrets.toml`` (Streamlit's
``.streamlit/secrets.toml``): settings kept out of git for their values (API keys, database
passwords), the way a ``.env`` is; WordPress's ``wp-config.php`` is its ``.env``
(the database password, the salts), ``wp-config-sample.php`` its example, and Magento's
``app/etc/env.php`` its own (the database password, the encryption key), Phoenix's
``config/prod.secret.exs`` its (``secret_key_base``, the database URL); a mobile app's
``sentry.properties`` and a project's ``.sentryclirc`` hold sentry-cli's ``auth.token``;
Moonraker's ``moonraker.secrets`` (any ``NAME.secrets``) its API keys and passwords;
a credentials file in a settings format (``credentials.properties``, GeoServer's,
a CLI's), a Kafka client's settings (``client-prod.properties``: its SASL password),
Looker's SDK settings (``looker.ini``: its API client secret), a signing passphrase or a
client secret kept as text; a migration tool's production settings
(``liquibase.prod.properties``, ``flyway-prod.conf``) production's database password; a
Postman environment (``production.postman_environment.json``; a local or mock one is the
developer's) the API keys its requests send; an ASP.NET application's production or staging
settings (``appsettings.Production.json``) their connection strings and keys."""
_PLAINTEXT = re.compile(
    r"^(?:(?:.*[-_.])?(?:decrypted|plaintext|unencrypted)(?:[-_.].*)?"
    r"\.(?:ya?ml|json|env|txt|ini|conf|properties|toml)"
    r"|.+\.dec\.(?:ya?ml|json|env|ini|toml)"
    r"|(?:.*[-_.])?(?:storage[-_]?state|auth[-_]?state)(?:[-_.].*)?\.json"
    r"|hubspot\.config\.ya?ml|\.?vault[-_]pass(?:word)?(?:[-_.].*)?|encrypted_data_bag_secret"
    r"|(?:.*[-_.])?(?:unseal[-_]?keys?|root[-_]?tokens?|vault[-_]init|cluster[-_]keys"
    r"|recovery[-_]?keys?)(?:[-_.].*)?\.(?:json|txt|ya?ml|b64|asc)"
    r"|(?:.*[-_.])?(?:laps|bitlocker)[-_.](?:.*[-_.])?(?:export|passwords?|keys?|recovery)"
    r"(?:[-_.].*)?\.(?:csv|json|txt|xlsx?))$"
)
"""A vault's or sops' file kept decrypted (``vault_decrypted.yml``, ``secrets.dec.yaml``),
a browser session's storage state (Playwright's ``storage-state.json``: its
cookies), and a CLI's login kept in the project (HubSpot's
``hubspot.config.yml`` holds its personal access key), an Ansible vault's password file
and Chef's data bag secret, and a Vault's unseal or recovery keys and root token kept in a
file (``vault operator init -format=json > cluster-keys.json``, ``unseal-keys.txt``), and
an export of Windows' local administrator passwords or BitLocker recovery keys
(``laps-export.csv``, ``bitlocker-recovery-keys.csv``): secrets kept like a ``.env``."""
_ENV = re.compile(r"^\.env(?:\..+)?$|^\.envrc(?:\..+)?$|^\.renviron$")
"""``.env`` and its variants (direnv's ``.envrc.private`` too; R's ``.Renviron`` is its
``.env``: ``GITHUB_PAT``, keys); ``.dev.vars`` (and ``.dev.vars.<env>``) is wrangler's
``.env`` for a Worker run locally: the same secrets, kept out of git the same way."""
_DEV_VARS = re.compile(r"^\.dev\.vars(?:\..+)?$")
_NAMED_ENV = re.compile(r"^[^.].*\.env$")
"""``prod.env``, ``secrets.env``: the same file under a name of its own (Docker Compose's
``env_file`` and systemd's ``EnvironmentFile`` take any name)."""
_ENV_PUBLIC = frozenset({"example", "sample", "template", "dist", "tpl", "tmpl"})
"""``.env.example`` and its kind list the names, never the values."""

_SECRET_TEXTS = (
    r"id_", r"_(?:rsa|dsa|ecdsa|ed25519)", r"adbkey", r"utc--",
    r"\.(?:key|pem|ppk|keypair|p8|p12|pfx|keystore|jks|priv|sec|kdbx|keychain|ovpn|gpg-key|env"
    r"|properties|json|xcconfig|vars|renviron)", r"wp-config", r"\*", r"\?", r"\[",
    r"decrypted", r"plaintext", r"unencrypted", r"\.dec\.", r"hubspot\.config", r"vault[-_]pass",
    r"bag_secret", r"secrets?\.(?:toml|exs)", r"\.secrets", r"_key\.(?:bin|der|raw|dat)",
    r"token\.pickle", r"\.kamal/", r"env\.php", r"sentryclirc", r"settings(?:\.local|\.prod)?\.php",
    r"liquibase", r"flyway", r"postman_environment", r"credential", r"passphrase",
    r"client[-_]secret", r"looker\.ini", r"unseal", r"root[-_]?token", r"vault[-_]init",
    r"cluster[-_]keys", r"recovery[-_]?key", r"laps", r"bitlocker",
)  # fmt: skip
MAYBE_SECRET = re.compile("|".join(_SECRET_TEXTS), re.IGNORECASE)
"""Something in every secret's name or pattern (`secret_kind`): most arguments are cleared
by one search of them all (`maybe_secret`). Every alternative starts with a literal
character (``\\*|\\?|\\[``, not a set): then the search skips at once each place whose
character starts none (``-q tests/test_1.py``: 0.89 -> 0.76 µs)."""


def _by_first(texts: tuple[str, ...]) -> str:
    """``texts`` as one alternation of their first characters (a ``\\`` escape or one
    character: each starts with a literal one, `MAYBE_SECRET`), each followed by what its
    texts go on with: the same matches, but a place tries each first character once, not
    every text (`maybe_secret`: 0.96 -> 0.65 µs on ``-q tests/test_1.py``, `bench_guard`'s
    fresh row)."""
    rests: dict[str, list[str]] = {}
    for text in texts:
        first = text[:2] if text[0] == "\\" else text[0]
        rests.setdefault(first, []).append(text[len(first) :])
    return "|".join(f"{first}(?:{'|'.join(rest)})" for first, rest in rests.items())


_MAYBE_SECRET_LOWER = re.compile(_by_first(_SECRET_TEXTS))
"""`MAYBE_SECRET` without ``re.I``, for ASCII text in lower case (`maybe_secret`)."""


def maybe_secret(text: str) -> bool:
    """Whether ``text`` holds something of a secret's name (`MAYBE_SECRET`). ASCII text
    is lowered and searched case-sensitively: the same answer (the pattern is lower-case
    ASCII, and an ASCII letter is only ever its two cases to ``re.I``), about a third of
    the time (``re.I`` tries every alternative at every place: ``-q tests/test_1.py``
    1.15 -> 0.43 µs; every piece's arguments pass here, `losses.review`). Other text
    meets ``re.I`` itself (U+212A is a ``k`` to it)."""
    if text.isascii():
        return _MAYBE_SECRET_LOWER.search(text.lower()) is not None
    return MAYBE_SECRET.search(text) is not None


SHOWS_TEXT = frozenset(
    {"read_file", "grep", "cat", "tac", "head", "tail", "less", "more", "bat", "batcat", "nl",
     "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "awk", "gawk", "mawk", "sed", "cut",
     "tr", "column", "paste", "fold", "sort", "uniq", "diff", "jq", "yq", "strings", "od",
     "hexdump", "xxd", "base64", "base32", "view", "vim", "vi", "nano", "emacs", "rev", "pr",
     "fmt", "expand", "unexpand", "iconv"}
)  # fmt: skip
"""Tools and programs that show what they read: a secret read by one reaches the model
(a program that loads a ``.env`` into its environment, ``source .env``, does not)."""


def shows_text(piece: Piece) -> bool:
    """Whether ``piece`` shows the text it reads where the model reads it: one of
    `SHOWS_TEXT`, but a search told to print no line (``grep -c``, ``-q``, ``-l``), and
    not a read that inline code makes (its value goes where the code sends it)."""
    program = piece.program
    if "@traced" in piece.wrappers:  # `set -x; . ./.env`: each line printed (`tracing`)
        return True
    if CODE_SHOWS in piece.wrappers:  # `print(open(".env").read())` (`pyshown`)
        return True
    if program == "git" and "@inline-code" not in piece.wrappers:
        return _git_shows(piece.args)
    if program == "sed" and rewrites_quietly(piece.args):
        return False
    if program not in SHOWS_TEXT or "@inline-code" in piece.wrappers:
        return False
    if piece.tool == "bash" and program in SEARCHES:
        return not searched(program, piece.args)[1].has("silent")
    return True


_GIT_SHOWS = frozenset({"show", "diff", "grep", "blame", "annotate"})
_GIT_PATCH = frozenset({"-p", "-u", "--patch", "--full-diff", "-L"})
_GIT_NAMES_ONLY = frozenset({"--stat", "--name-only", "--name-status", "--numstat", "--shortstat",
                             "--quiet", "-s", "--no-patch", "-l", "--files-with-matches", "-c",
                             "--count", "-q"})  # fmt: skip


def _git_shows(args: tuple[str, ...]) -> bool:
    """Whether ``git ARGS`` prints a file's text: ``show REV:.env``, ``diff -- .env``,
    ``grep``, ``blame``, or ``log`` with its patches (``-p``); ``log -- .env`` alone prints
    only the commits."""
    subcommand, rest = (read := git_read(args)).subcommand, read.rest
    if subcommand in _GIT_SHOWS:
        return _GIT_NAMES_ONLY.isdisjoint(rest)
    return subcommand == "log" and any(
        w in _GIT_PATCH or w.startswith("-L") or (w[:1] == "-" and w[1:2] != "-" and "p" in w)
        for w in rest
    )


_SOUGHT = re.compile(
    r"pass(?:word|wd)|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key"
    r"|credential|BEGIN .*PRIVATE",
    re.I,
)
_SHAPES = tuple(h for rule in CREDENTIAL_RULES for h in rule.hints if len(h) > 3 and h != "_test_")
"""The literal starts of credentials by their shape (``AKIA``, ``ghp_``, ``xox``...)."""


def seeks_secrets(pattern: str) -> bool:
    """Whether a search ``pattern`` looks for secrets: a secret's name
    (`secret_shapes.SECRET_KEY`'s words) or a credential's shape (`CREDENTIAL_RULES`)."""
    return _SOUGHT.search(pattern) is not None or any(h in pattern for h in _SHAPES)


_SECRET_SAMPLES: tuple[tuple[str, SecretKind], ...] = (
    (".env", "env"), (".env.local", "env"), (".envrc", "env"), ("prod.env", "env"),
    (".dev.vars", "env"),
    ("id_rsa", "key"), ("id_ed25519", "key"), ("id_ecdsa", "key"), ("deploy_rsa", "key"),
    ("server.key", "key"), ("cert.pem", "key"), ("cert.p12", "key"), ("vault.kdbx", "key"),
    ("office.ovpn", "key"), ("release.jks", "key"), ("authkey_2x9r4hxf34.p8", "key"),
    ("key.properties", "key"), ("play-store-key.json", "key"), ("secrets.xcconfig", "env"),
    ("utc--2024-03-11t10-22-31.123z--9f2c4e8b", "key"),
)  # fmt: skip


def secret_samples() -> tuple[str, ...]:
    """Names of secrets of each kind, to try a pattern the guard cannot place against."""
    return tuple(name for name, _ in _SECRET_SAMPLES)


_PLAIN_SAMPLES = ("main.py", "readme.md", "notes.txt", "index.js", "data.json", "makefile",
                  ".gitignore", ".bashrc", ".github", "gradle.properties", "release.xcconfig",
                  "package.json")  # fmt: skip
"""A pattern that also names these says nothing about secrets (``cat *``, ``ls .*``)."""
_GLOB = re.compile(r"[*?\[]")


@lru_cache(maxsize=4096)
def secret_kind(name: str) -> SecretKind | None:
    """``key`` for a private key, keystore (or its passwords), service-account key or VPN
    profile, ``env`` for a ``.env`` file (or settings kept like one),
    by the last part of a path (None: not a secret by name). ``.pub`` keys are public."""
    parent, _, name = name.rstrip("/").lower().rpartition("/")
    for _ in range(8):
        stripped = _BACKUP.sub("", name)
        if stripped == name or not stripped:
            break
        name = stripped
    if name.endswith(".pub") or name in _CERTIFICATES:
        return None
    if _PUBLIC_PEM.match(name) and not parent.endswith(".ssh"):  # (~/.ssh: a key by any name)
        return None
    if _ENV.match(name):
        parts = name.split(".")
        return None if _ENV_PUBLIC.intersection(parts[2:]) else "env"
    if _DEV_VARS.match(name):
        return None if _ENV_PUBLIC.intersection(name.split(".")[3:]) else "env"
    if _NAMED_ENV.match(name):
        return None if _ENV_PUBLIC.intersection(name.split(".")[:-1]) else "env"
    if _KEY.match(name) or _KEY_JSON.match(name):
        return "key"
    if parent.rpartition("/")[2] in _SECRET_FOLDERS and _FOLDER_KEY.match(name):
        return "key"
    if parent.rpartition("/")[2] == ".kamal" and _KAMAL_SECRETS.match(name):
        return "env"
    if name in _DRUPAL_SETTINGS and "/sites/" in f"/{parent}/":
        return "env"
    if _SETTINGS.match(name) or _PLAINTEXT.match(name):
        return "env"
    return _pattern_kind(name) if _GLOB.search(name) else None


def _pattern_kind(pattern: str) -> SecretKind | None:
    """The kind of secret a pattern is aimed at (``.en?``, ``id_*``, ``*.env``): one that
    names a secret and none of the ordinary names; bash would expand it to the secret."""
    if any(fnmatchcase(plain, pattern) for plain in _PLAIN_SAMPLES):
        return None
    return next((kind for sample, kind in _SECRET_SAMPLES if fnmatchcase(sample, pattern)), None)


_COPIERS = frozenset({"cp", "install", "rsync", "tee", "sort", "uniq", "xxd", "dd", "ln"})
"""Programs whose copy over a ``.env`` is asked only when it is seen there: ``cp
.env.example .env`` is the documented setup step while no ``.env`` exists yet."""


def lost_unseen(path: str, program: str) -> bool:
    """Whether ``program`` deleting, emptying or moving over ``path`` is asked whether or not
    the guard can see the file there (asking needs no facts): a key or keystore always, a
    ``.env`` unless it is copied over (its setup step, asked when one exists). A direnv
    ``.envrc`` is a script written as everyday work: asked only when it exists."""
    kind = secret_kind(path)
    if kind == "env" and path.rstrip("/").rsplit("/", 1)[-1].lower() == ".envrc":
        return False
    return kind == "key" or (kind == "env" and program not in _COPIERS)
