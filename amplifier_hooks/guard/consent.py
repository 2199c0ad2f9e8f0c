"""An edit that takes a visitor's consent or privacy away on the site's pages.

A site asks before its tags set cookies, share data with ad networks or record a session.
An edit that turns the consent defaults to granted (gtag's ``ad_storage: 'denied'`` made
``'granted'``), stops asking (Matomo's ``requireCookieConsent`` made
``setCookieConsentGiven``, a banner that accepts everything on its own), records sessions
with their inputs unmasked (``maskAllInputs: true`` made ``false``), or hands a person's
email or phone to an ad pixel (``fbq('init', ID, { em: user.email })``, gtag's ``user_id``
set to an email) changes what every visitor gives away from the next deploy; so does a
mailing that stops honouring a person's choice (the ``List-Unsubscribe`` header dropped, an
``email_opt_out`` or suppression check taken out of a send loop, an audience's
``marketing_opt_in = TRUE`` filter dropped), or that stops waiting for the visitor's answer
(a comparison of their consent, or the consent banner, taken out). Each is marked
`CONSENT_WEAKENED` (asked).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs, edit_pairs

__all__ = ["CONSENT_WEAKENED", "weakens_consent"]

CONSENT_WEAKENED = "@consent-weakened"
_CONSENT = (
    r"(?:ad_storage|analytics_storage|ad_user_data|ad_personalization|personalization_storage)"
)
_DENIED = re.compile(rf"{_CONSENT}['\"]?\s*:\s*['\"]denied['\"]")
_GRANTED = re.compile(rf"{_CONSENT}['\"]?\s*:\s*['\"]granted['\"]")
_ASKS = re.compile(
    r"requireCookieConsent|requireConsent|if\s*\(\s*!\s*\w*[Cc]onsent\w*"
    r"|<\w*(?:Consent|Cookie)(?:Banner|Manager|Gate|Wall|Dialog|Modal|Provider)\b"
)
"""The site asking first: a consent manager's own call, a check that nothing was granted,
the banner's component (the tags it loads only on its ``onAccept``)."""
_CHECKED = re.compile(
    rf"(?:\b\w*[Cc]onsent\w*(?:\.\w+)*|\b{_CONSENT})['\"\]]*\s*(?:={{2,3}}|!={{1,2}}|\bis\b)"
)
"""A visitor's consent compared before something is sent (``consent.ad_storage ===
'granted'``): one comparison fewer is a send that no longer waits for it."""
_AUTO = re.compile(
    r"setCookieConsentGiven|setConsentGiven|acceptAll\s*\(\s*\)|opt_in_capturing\s*\(\s*\)"
)
_MASKED = re.compile(r"maskAllInputs\s*:\s*true|maskAllText\s*:\s*true")
_UNMASKED = re.compile(r"maskAllInputs\s*:\s*false|maskAllText\s*:\s*false")
_UNMASKED_FIELD = re.compile(
    r"\bdata-hj-allow\b|\bdata-clarity-unmask=[\"']?true|\bdata-dd-privacy=[\"']?allow"
    r"|\bdata-sentry-unmask\b|\bdata-rr-unmask\b"
)
"""One field shown to a session recorder (Hotjar's ``data-hj-allow``): what is typed in it
is in every recording."""
_COLLECTING = re.compile(
    r"(?:crashlytics_collection_enabled|analytics_collection_enabled"
    r"|FirebaseCrashlyticsCollectionEnabled|FirebaseAnalyticsCollectionEnabled)[\"']?"
    r"(?:\s*android:value=|\s*[:=]|</key>\s*<)\s*[\"']?(?:true|YES)\b",
    re.I,
)
"""Crash or analytics data collected from the start, before any consent is asked."""
_PIXEL_PERSON = re.compile(
    r"(?:fbq\s*\(\s*['\"]init['\"][^)]*\b(?:em|ph)\s*:|user_id\s*:\s*[\w?.]*\.?email\b"
    r"|lintrk\s*\([^)]*email"
    r"|gtag\s*\([^)]*\b(?:email|phone|phone_number|shipping_address|address)\s*:)",
    re.S,
)
_OPT_OUT = re.compile(
    r"List-Unsubscribe|\b\w*(?:opt_?out|opted_?out|unsubscribed|suppressed|suppression"
    r"|do_not_(?:email|contact|mail)|marketing_consent|email_consent|opt_?in|opted_?in)\w*\b",
    re.IGNORECASE,
)
"""A mailing's or an audience's respect of a person's choice: the unsubscribe header, an
opt-out check, the opt-in an upload of customers to an ad platform filters on."""
_OPT_OUT_OFF = re.compile(
    r"\b(?:honou?r_?unsubscribes?|list_?unsubscribe\w*|respect_?opt_?outs?|check_?suppressions?)"
    r"[\"']?\s*[:=]\s*(?:false|no|off|0)\b",
    re.IGNORECASE,
)
"""A mailer's setting that stops honouring them (``honor_unsubscribes: false``)."""
_MAX_TEXT = 64 * 1024


_FORCED_ON = re.compile(
    r"\bset(?:Analytics|Crashlytics|Performance|AdvertisingId|AutoInit|DataCollection)\w*"
    r"(?:CollectionEnabled|Enabled)\s*\(\s*true\s*\)|\b\w*[Cc]ollectionEnabled\s*=\s*true\b"
)
_CHOSEN = re.compile(
    r"\bset(?:Analytics|Crashlytics|Performance|AdvertisingId|AutoInit|DataCollection)\w*"
    r"(?:CollectionEnabled|Enabled)\s*\(\s*(?!true\b|false\b)\w|\b\w*[Cc]ollectionEnabled\s*=\s*(?!true\b|false\b)\w"
)
"""An app's analytics or crash collection switched on for everyone where it followed the
person's choice (Firebase's ``setAnalyticsCollectionEnabled(consent.analyticsGranted)``)."""


def weakens_consent(inputs: Mapping[str, Any]) -> bool:
    """Whether an edit turns consent defaults to granted, stops asking for consent,
    unmasks a session recording's inputs, gives an ad pixel a person's email or phone, or
    drops a mailing's unsubscribe header or opt-out check."""
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if _DENIED.search(old) and _GRANTED.search(new) and not _DENIED.search(new):
            return True
        if _ASKS.search(old) and not _ASKS.search(new):
            return True
        if len(_CHECKED.findall(new)) < len(_CHECKED.findall(old)):
            return True  # `if (consent.ad_storage === 'granted')` made `if (true)`
        if more(_AUTO, old, new):
            return True
        if _MASKED.search(old) and _UNMASKED.search(new):
            return True
        if more(_PIXEL_PERSON, old, new) or more(_UNMASKED_FIELD, old, new):
            return True
        if old and more(_COLLECTING, old, new):
            return True
        if more(_FORCED_ON, old, new) and _CHOSEN.search(old):
            return True  # `setAnalyticsCollectionEnabled(consent.analyticsGranted)` made `(true)`
        if len(_OPT_OUT.findall(new)) < len(_OPT_OUT.findall(old)):
            return True
    return any(
        more(_OPT_OUT_OFF, old, new)
        for old, new in change_pairs(inputs)
        if len(old) + len(new) <= _MAX_TEXT
    )
