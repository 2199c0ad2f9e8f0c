"""Which hosts a provider's secret belongs to: ``$GITHUB_TOKEN`` is GitHub's, sent to
``api.github.com`` every day; sent to ``api.0penai-proxy.example`` it is given away.

A secret variable is known by its name (`secret_shapes.SECRET_KEY`: it ends in TOKEN,
KEY, SECRET, PASSWORD, ...) and its provider by the name's first word (`PROVIDERS`). A
request that carries it to a host that is neither the provider's nor this machine sends
it to someone else. A variable of no provider the table names is not judged here.
"""

from __future__ import annotations

import re

from amplifier_hooks.secret_shapes import SECRET_KEY

__all__ = [
    "BODY_KEYED",
    "PROVIDERS",
    "belongs",
    "foreign_secret",
    "secrets_go_home",
    "uses_variable",
]

PROVIDERS: dict[str, tuple[str, ...]] = {
    "GITHUB": ("github.com", "githubusercontent.com", "ghcr.io", "ghe.com"),
    "GH": ("github.com", "githubusercontent.com", "ghcr.io", "ghe.com"),
    "OPENAI": ("openai.com", "openai.azure.com"),
    "ANTHROPIC": ("anthropic.com",),
    "CLAUDE": ("anthropic.com",),
    "GEMINI": ("googleapis.com",),
    "GOOGLE": ("googleapis.com", "google.com"),
    "MISTRAL": ("mistral.ai",),
    "GROQ": ("groq.com",),
    "COHERE": ("cohere.ai", "cohere.com"),
    "HF": ("huggingface.co", "hf.co"),
    "HUGGINGFACE": ("huggingface.co", "hf.co"),
    "SLACK": ("slack.com",),
    "STRIPE": ("stripe.com",),
    "NPM": ("npmjs.org", "npmjs.com"),
    "PYPI": ("pypi.org",),
    "DOCKER": ("docker.io", "docker.com"),
    "CLOUDFLARE": ("cloudflare.com",),
    "CF": ("cloudflare.com",),
    "DIGITALOCEAN": ("digitalocean.com",),
    "DO": ("digitalocean.com",),
    "SENTRY": ("sentry.io",),
    "VERCEL": ("vercel.com",),
    "NETLIFY": ("netlify.com",),
    "HEROKU": ("heroku.com",),
    "LINEAR": ("linear.app",),
    "NOTION": ("notion.com", "notion.so"),
    "TWILIO": ("twilio.com",),
    "SENDGRID": ("sendgrid.com",),
    "DATADOG": ("datadoghq.com", "datadoghq.eu"),
    "DD": ("datadoghq.com", "datadoghq.eu"),
    "CIRCLECI": ("circleci.com",),
    "TRAVIS": ("travis-ci.com",),
    "JIRA": ("atlassian.net", "atlassian.com"),
    "ATLASSIAN": ("atlassian.net", "atlassian.com"),
    "DISCORD": ("discord.com",),
    "TELEGRAM": ("telegram.org",),
    "HUBSPOT": ("hubapi.com", "hubspot.com"),
    "MAILCHIMP": ("mailchimp.com",),
    "SALESFORCE": ("salesforce.com", "force.com"),
    "SEGMENT": ("segment.io", "segment.com"),
    "ZENDESK": ("zendesk.com",),
    "INTERCOM": ("intercom.io",),
    "AIRTABLE": ("airtable.com",),
    "PAGERDUTY": ("pagerduty.com",),
    "OPSGENIE": ("opsgenie.com",),
    "ASANA": ("asana.com",),
    "MAILGUN": ("mailgun.net",),
    "POSTMARK": ("postmarkapp.com",),
    "RESEND": ("resend.com",),
    "SHOPIFY": ("myshopify.com", "shopify.com"),
    "PLAYFAB": ("playfabapi.com",),
    "APCA": ("alpaca.markets",),
    "ALPACA": ("alpaca.markets",),
    "OANDA": ("oanda.com",),
    "TRADIER": ("tradier.com",),
    "PLAID": ("plaid.com",),
    "DWOLLA": ("dwolla.com",),
    "WISE": ("wise.com", "transferwise.com", "transferwise.tech"),
    "ADYEN": ("adyen.com", "adyenpayments.com"),
    "PERSONA": ("withpersona.com",),
    "ONFIDO": ("onfido.com",),
    "GADS": ("googleapis.com",),
    "META": ("facebook.com",),
    "FB": ("facebook.com",),
    "FACEBOOK": ("facebook.com",),
    "TIKTOK": ("tiktok.com", "tiktokapis.com"),
    "LINKEDIN": ("linkedin.com",),
}
"""A secret variable's first word and the hosts its secret is for (the host, or a name
ending with ``.`` and it). Providers people run themselves under any name (GitLab, Gitea,
Jenkins) are not here: their secrets go to hosts no table can list."""

BODY_KEYED = frozenset({"PLAID", "META", "FB", "FACEBOOK"})
"""Providers whose API takes its keys in the request's body or query, not in a header
(Plaid's ``client_id`` and ``secret`` in its JSON, Meta's Graph API's ``access_token``
parameter): sent to the provider's own hosts, that is its API called."""

_USES = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")


def providers_host(hosts: tuple[str, ...]) -> bool:
    """Whether one of ``hosts`` is a known provider's (`PROVIDERS`): its keys are named."""
    return any(belongs(host, owned) for host in hosts for owned in PROVIDERS.values())


def uses_secret(words: tuple[str, ...]) -> bool:
    """Whether ``words`` use a variable named as a secret (`SECRET_KEY`)."""
    return any(SECRET_KEY.match(m.group(1)) for w in words for m in _USES.finditer(w))


def uses_variable(word: str) -> bool:
    """Whether ``word`` expands a variable (``$NAME``, ``${NAME}``; a command's output,
    ``$(date +%s)``, is none)."""
    return "$" in word and _USES.search(word) is not None


def foreign_secret(words: tuple[str, ...], hosts: tuple[str, ...]) -> str | None:
    """The first provider's secret variable ``words`` use that none of ``hosts`` (the
    request's, not this machine's) belongs to; None when every one goes home, or no host
    is known."""
    if not hosts:
        return None
    for word in words:
        for found in _USES.finditer(word):
            name = found.group(1)
            owned = PROVIDERS.get(name.partition("_")[0].upper())
            if owned is None or SECRET_KEY.match(name) is None:
                continue
            if not all(belongs(host, owned) for host in hosts):
                return name
    return None


def belongs(host: str, owned: tuple[str, ...]) -> bool:
    """Whether ``host`` is one of ``owned`` or a name under one (``api.github.com``)."""
    return any(host == mark or host.endswith(f".{mark}") for mark in owned)


def secrets_go_home(
    words: tuple[str, ...], hosts: tuple[str, ...], providers: frozenset[str] | None = None
) -> bool:
    """Whether ``words`` use at least one secret variable and each is a provider's (of
    ``providers``, when given) whose hosts all of ``hosts`` are (``-H "x-api-key:
    $ANTHROPIC_API_KEY"`` to ``api.anthropic.com``): the request authenticates to the
    provider, as its SDK does."""
    found = False
    for word in words:
        for used in _USES.finditer(word):
            name = used.group(1)
            if SECRET_KEY.match(name) is None:
                continue
            first = name.partition("_")[0].upper()
            owned = PROVIDERS.get(first)
            if owned is None or not hosts or not all(belongs(h, owned) for h in hosts):
                return False
            if providers is not None and first not in providers:
                return False
            found = True
    return found
