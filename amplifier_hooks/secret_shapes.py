"""What a secret (or a piece of PII) looks like in text: the redaction rules, shared by
ah-redaction (which replaces them in what leaves the machine) and the guard (which will
not grant a file write that puts one into the project).

A rule is a compiled pattern plus an optional check. When the pattern has a group named
``secret``, only that group is replaced, so context such as ``Bearer `` or ``password=``
stays readable; otherwise the whole match is. A check (the Luhn test for card numbers, the
"looks like a value, not code" test for assignments) can veto a match, which keeps false
positives from corrupting source code that passes through provider requests.

Speed matters because a provider request carries the whole conversation: patterns begin
with a literal where they can (the regex engine then jumps between candidates instead of
trying every position), the "not inside a longer token" test is done in Python on the few
candidates, and a rule whose literal hints are all absent from the text is not run at all.
"""

from __future__ import annotations

import re

from amplifier_hooks.secret_rule import MARKER_PREFIX, Check, Rule, marker

__all__ = [
    "BUILTIN_RULES",
    "CREDENTIAL_RULES",
    "MARKER_PREFIX",
    "PII_RULES",
    "SECRET_KEY",
    "SECRET_RULES",
    "Check",
    "Rule",
    "credentials_in",
    "describe_rule",
    "marker",
]

# Ends a token-shaped match: it must not stop in the middle of a longer token.
_END = r"(?![A-Za-z0-9_\-])"
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")

_SECRET_KEY_WORDS = (
    r"password|passwd|passphrase|secret|secret[_-]?key|client[_-]?secret|token|"
    r"api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?token|credentials?|"
    r"(?:application|app|account|storage|master|encryption|signing)[_-]?key"
)
SECRET_KEY = re.compile(rf"(?i)^[\w.-]*?(?:{_SECRET_KEY_WORDS})$")
"""A field name that holds a secret: the name *ends* with one of the words, so
``db_password`` and ``GITHUB_TOKEN`` match while ``max_tokens`` and ``token_count`` do not."""

# Only the word that ends the key matters (``db_password=`` is found at ``password=``), so
# the pattern starts there instead of scanning back over every possible key prefix.
_ASSIGNMENT = re.compile(
    # The words of _SECRET_KEY_WORDS (but the rarer `*_key` names, which a variable's
    # name is judged by), factored so fewer alternatives are tried at each position
    # ("client_secret" ends in "secret", "auth_token" in "token").
    r"(?i)(?:pass(?:word|wd|phrase)|secret|token|(?:api|access|private|secret)[_-]?key|apikey"
    r"|credentials?)"
    r"[\"']?[ \t]*[:=][ \t]*"
    r"(?:(?P<quote>[\"'])(?P<secret_quoted>[^\"'\n]{3,})(?P=quote)"
    r"|(?P<secret>[^\s\"'`,;&(){}\[\]<>]{6,})(?![\w.(\[]))"
)


def _plain_value(match: re.Match[str]) -> bool:
    # Unquoted values that are pure words ("str", "SecretStr", "Optional") are type
    # annotations or names in code, not secrets; real secrets carry digits or symbols.
    value = match.group("secret")
    if value is None:
        value = match.group("secret_quoted")
    if value is None or value.startswith(MARKER_PREFIX):
        return False
    return not value.isalpha()


def _not_after(chars: frozenset[str], then: Check | None = None) -> Check:
    """A check: the match must not follow one of ``chars`` (and must pass ``then``)."""

    def check(match: re.Match[str]) -> bool:
        start = match.start()
        if start and match.string[start - 1] in chars:
            return False
        return then is None or then(match)

    return check


def _luhn(match: re.Match[str]) -> bool:
    digits = [int(c) for c in match.group(0) if c.isdigit()]
    if not 13 <= len(digits) <= 19 or len(set(digits)) == 1:
        return False
    total = 0
    for index, digit in enumerate(reversed(digits)):
        if index % 2:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return total % 10 == 0


def _ssn(match: re.Match[str]) -> bool:
    area, group, serial = match.group(0).split("-")
    return area not in ("000", "666") and group != "00" and serial != "0000"


def _rule(
    name: str,
    pattern: str,
    *hints: str,
    check: Check | None = None,
    pii: bool = False,
    fold: bool = False,
    token_start: bool = False,
) -> Rule:
    return Rule(
        name,
        re.compile(pattern),
        check,
        pii=pii,
        hints=hints,
        fold_hints=fold,
        token_start=token_start,
    )


# Order matters: specific formats come before general ones, so a key gets its most
# informative label (an Anthropic key is not reported as an OpenAI one), and a redacted
# marker is never matched again.
SECRET_RULES: tuple[Rule, ...] = (
    _rule(
        "private_key",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
        r"(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
        "PRIVATE KEY",
    ),
    _rule("anthropic_api_key", rf"sk-ant-[A-Za-z0-9_\-]{{20,}}{_END}", "sk-ant-", token_start=True),
    _rule(
        "openai_api_key",
        rf"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{{20,}}{_END}",
        "sk-",
        token_start=True,
    ),
    _rule(
        "aws_access_key_id",
        r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b",
        *("AKIA", "ASIA", "ABIA", "ACCA"),
        token_start=True,
    ),
    _rule(
        "github_token",
        rf"(?:gh[pousr]_[A-Za-z0-9]{{30,}}|github_pat_[A-Za-z0-9_]{{22,}}){_END}",
        *("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        token_start=True,
    ),
    _rule("slack_token", rf"xox[abposr]-[A-Za-z0-9\-]{{10,}}{_END}", "xox", token_start=True),
    _rule(
        "slack_webhook",
        r"https://hooks\.slack\.com/services/[A-Za-z0-9_/]+",
        "hooks.slack.com",
    ),
    _rule("google_api_key", rf"AIza[A-Za-z0-9_\-]{{35}}{_END}", "AIza", token_start=True),
    # npm's access tokens (granular and classic, since 2021): npm_ and 36 letters and digits
    _rule("npm_token", rf"npm_[A-Za-z0-9]{{36}}{_END}", "npm_", token_start=True),
    # PyPI's API tokens are macaroons whose base64 starts with its domain; Hugging Face's
    # and GitLab's personal tokens carry their own prefixes
    _rule("pypi_token", rf"pypi-AgE[A-Za-z0-9_\-]{{50,}}{_END}", "pypi-AgE", token_start=True),
    _rule("huggingface_token", rf"hf_[A-Za-z0-9]{{30,}}{_END}", "hf_", token_start=True),
    _rule("gitlab_token", rf"glpat-[A-Za-z0-9_\-]{{20,}}{_END}", "glpat-", token_start=True),
    _rule("figma_token", rf"figd_[A-Za-z0-9_\-]{{30,}}{_END}", "figd_", token_start=True),
    _rule("digitalocean_token", rf"do[opr]_v1_[a-f0-9]{{64}}{_END}", "_v1_", token_start=True),
    _rule("shopify_token", rf"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{{32}}{_END}", "shp", token_start=True),
    _rule("linear_api_key", rf"lin_api_[A-Za-z0-9]{{40}}{_END}", "lin_api_", token_start=True),
    # Tailscale's auth, API and OAuth client keys: tskey-KIND-ID-SECRET
    _rule(
        "tailscale_key",
        rf"tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{{6,}}-[A-Za-z0-9]{{16,}}{_END}",
        "tskey-",
        token_start=True,
    ),
    # age's (and SOPS's) private keys: Bech32 of 32 bytes, in upper case after the prefix
    _rule(
        "age_secret_key",
        rf"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{{58}}{_END}",
        "AGE-SECRET-KEY-",
        token_start=True,
    ),
    _rule(
        "sendgrid_key",
        rf"SG\.[A-Za-z0-9_\-]{{22}}\.[A-Za-z0-9_\-]{{43}}{_END}",
        "SG.",
        token_start=True,
    ),
    # Mailchimp's API keys: 32 hex digits and the data centre (`-us21`)
    _rule("mailchimp_key", rf"(?<![0-9a-f])[0-9a-f]{{32}}-us[0-9]{{1,2}}{_END}", "-us"),
    _rule(
        "stripe_key",
        rf"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{{16,}}{_END}",
        *("_live_", "_test_"),
        token_start=True,
    ),
    # A Google OAuth access token (gcloud auth print-access-token's): an hour of the account
    _rule("google_oauth_token", rf"(?<![\w-])ya29\.[A-Za-z0-9_-]{{20,}}{_END}", "ya29."),
    # A Discord bot's token: its user id in base64, a timestamp, an HMAC
    _rule(
        "discord_token",
        rf"(?<![\w-])[MNO][A-Za-z0-9_-]{{23,27}}\.[A-Za-z0-9_-]{{6}}\.[A-Za-z0-9_-]{{27,40}}{_END}",
        *("MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT"),  # the id's first digit
    ),
    # Stripe's webhook signing secret: whoever holds it forges the events an app trusts
    _rule(
        "stripe_webhook_secret", rf"whsec_[A-Za-z0-9+/]{{24,}}{_END}", "whsec_", token_start=True
    ),
    _rule(
        "jwt",
        rf"eyJ[A-Za-z0-9_\-]{{8,}}\.eyJ[A-Za-z0-9_\-]{{8,}}\.[A-Za-z0-9_\-]*{_END}",
        "eyJ",
        token_start=True,
    ),
    _rule(
        "bearer_token",
        r"(?i)bearer[ \t]+(?P<secret>[A-Za-z0-9\-._~+/]{16,}=*)",
        "bearer",
        fold=True,
        check=_not_after(_WORD_CHARS),
    ),
    _rule(
        "basic_auth",
        r"(?i)authorization[\"']?[ \t]*[:=][ \t]*[\"']?basic[ \t]+"
        r"(?P<secret>[A-Za-z0-9+/]{8,}={0,2})",
        "authorization",
        fold=True,
    ),
    _rule("url_credentials", r"(?<=://)[^/\s:@]+:(?P<secret>[^/\s@]+)@", "://"),
    # a signed URL's signature (Azure's SAS ``sig=``, S3's and GCS's presigned queries):
    # whoever holds the URL has its access, until it expires
    _rule(
        "signed_url",
        r"[?&](?:sig|X-Amz-Signature|X-Goog-Signature)=(?P<secret>[A-Za-z0-9%+/=_\-]{20,})",
        *("sig=", "Signature="),
    ),
    _rule(
        "secret_assignment",
        _ASSIGNMENT.pattern,
        *("pass", "secret", "token", "key", "credential"),
        fold=True,
        check=_plain_value,
    ),
)
"""Built-in secret rules, all on by default."""

PII_RULES: tuple[Rule, ...] = (
    _rule(
        "email",
        r"[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
        r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}\b",
        "@",
        pii=True,
    ),
    _rule(
        "credit_card",
        r"[2-6](?:[ -]?\d){12,18}(?![\d-])",
        check=_not_after(frozenset("0123456789-"), _luhn),
        pii=True,
    ),
    _rule(
        "us_ssn",
        r"[0-8]\d\d-\d\d-\d{4}(?![\w-])",
        "-",
        check=_not_after(_WORD_CHARS | {"-"}, _ssn),
        pii=True,
    ),
    _rule(
        "phone",
        r"(?:\+\d{1,3}[ .-]?)?(?:\(\d{3}\)[ .-]?|\d{3}[ .-])\d{3}[ .-]\d{4}(?![\w-])"
        r"|\+\d{10,15}\b",
        check=_not_after(_WORD_CHARS | {"+"}),
        pii=True,
    ),
)
"""Built-in PII rules, on with ``pii: true``. Cards before phones: a card number's digit
groups must not be half-taken by the phone pattern first."""

BUILTIN_RULES: dict[str, Rule] = {rule.name: rule for rule in (*SECRET_RULES, *PII_RULES)}


_DESCRIPTIONS = {
    "private_key": "a private key",
    "openai_api_key": "an OpenAI API key",
    "aws_access_key_id": "an AWS access key id",
    "github_token": "a GitHub token",
    "slack_webhook": "a Slack webhook URL",
    "stripe_key": "a Stripe key",
    "stripe_webhook_secret": "a Stripe webhook signing secret",
    "discord_token": "a Discord bot token",
    "google_oauth_token": "a Google OAuth access token",
    "npm_token": "an npm access token",
    "pypi_token": "a PyPI API token",
    "huggingface_token": "a Hugging Face token",
    "gitlab_token": "a GitLab personal access token",
    "figma_token": "a Figma personal access token",
    "digitalocean_token": "a DigitalOcean token",
    "shopify_token": "a Shopify access token",
    "linear_api_key": "a Linear API key",
    "sendgrid_key": "a SendGrid API key",
    "mailchimp_key": "a Mailchimp API key",
    "age_secret_key": "an age private key",
    "tailscale_key": "a Tailscale key",
    "jwt": "a JSON web token",
    "bearer_token": "a bearer token",
    "basic_auth": "a password in a URL or header",
    "secret_assignment": "a secret assigned in the text",
    "email": "an email address",
    "credit_card": "a credit card number",
    "us_ssn": "a US social security number",
    "phone": "a phone number",
}


def describe_rule(name: str) -> str:
    """What a rule finds, in words for the person (``a GitHub token``)."""
    return _DESCRIPTIONS.get(name, f"a match of {name}")


CREDENTIAL_RULES: tuple[Rule, ...] = tuple(
    BUILTIN_RULES[name]
    for name in ("private_key", "anthropic_api_key", "openai_api_key", "aws_access_key_id",
                 "github_token", "slack_token", "slack_webhook", "google_api_key", "stripe_key",
                 "stripe_webhook_secret", "discord_token", "google_oauth_token", "npm_token",
                 "pypi_token", "huggingface_token", "gitlab_token", "figma_token",
                 "digitalocean_token", "shopify_token", "linear_api_key", "sendgrid_key",
                 "mailchimp_key", "age_secret_key", "tailscale_key", "signed_url")
)  # fmt: skip
"""The rules whose every match is a live credential by its shape alone (a provider's key
format). The others (an assignment to ``password``, a bearer header, a JWT, a URL's
``user:pass@``) also match the sample values that tests and local configs hold."""


_CREDENTIALS_FOLD = any(rule.fold_hints for rule in CREDENTIAL_RULES)
"""Whether a credential rule's hints are compared lowercased (none is: a provider's key
has one spelling), so whether `credentials_in` needs the text lowercased at all."""


def credentials_in(text: str) -> tuple[str, ...]:
    """The names of the `CREDENTIAL_RULES` with a match in ``text`` (a Stripe test key,
    ``sk_test_...``, is a fixture's, not a credential)."""
    folded = text.lower() if _CREDENTIALS_FOLD else text  # (lowering 20 KB costs 0.5 ms)
    found: list[str] = []
    for rule in CREDENTIAL_RULES:
        if not rule.may_match(text, folded):
            continue
        for match in rule.pattern.finditer(text):
            if rule.accepts(match) and "_test_" not in match.group(0):
                found.append(rule.name)
                break
    return tuple(found)
