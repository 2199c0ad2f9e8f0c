"""An edit that sends people's personal data to a service outside the application.

A support app's sidebar that posts the open ticket (its requester, e-mail, messages) to an
analytics address the project never used, or a feature-flag or analytics context given a
social security or passport number: from the next deploy on, every customer's record goes
to a third party with each page view or evaluation, and the diff reads as a line of
telemetry. So does a column of people's contact or identity details (``customer_email``,
``phone``) added to a report, dashboard or export named for an outside audience
(``client_dashboard.sql``, ``partner_export.py``): every client then sees every customer.
So does a log sink of the application's own (a Timber tree, a logging handler) that posts
every line to another host: the lines carry what the app logs of its users. Text a write
or edit adds that does any of these is marked `PEOPLE_DATA_SENT` (asked): a
request to a host the old text already named is the application's own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["PEOPLE_DATA_SENT", "sends_people_data"]

PEOPLE_DATA_SENT = "@people-data-sent"
_SEND = re.compile(
    r"\b(?:fetch|sendBeacon|axios\.(?:post|put)|requests\.(?:post|put)|httpx\.(?:post|put)"
    r"|\$\.(?:post|ajax))\s*\(\s*[\"'`]https?://(?P<host>[\w.-]+)[^;]{0,400}",
)
_PEOPLE = re.compile(
    r"\b(?:ticket|requester|customer|email|e_mail|phone|address|ssn\w*|contact|patient"
    r"|user\.(?:name|fullName|email|phone)|message\.(?:content|author))\b",
    re.IGNORECASE,
)
_GOVERNMENT_ID = re.compile(
    r"\b(?:ssn\w*|social_?security\w*|tax_?id|passport\w*|national_?id\w*|date_?of_?birth)\s*:",
    re.IGNORECASE,
)
"""A field that holds a government number (never part of a third party's context)."""
_CRASH_USER = re.compile(
    r"\b(?:Crashlytics|Sentry|Bugsnag|FirebaseCrashlytics)\b[\w.()]*\.(?:setUserID|setUserId|setUser"
    r"|setCustomValue|setCustomKey|setUserEmail)\s*\([^)\n]*\b(?:email|phone\w*|ssn\w*|address)",
    re.I,
)
"""A crash reporter given a person's e-mail, phone or address: every crash report then
carries it to the vendor."""
_EVENT_PERSON = re.compile(
    r"\b(?:logEvent|trackEvent|track|capture|setUserProperty|setUserProperties|identify)\s*[({]"
    r"[^;]{0,240}?(?:\b\w*\.(?:email|phone\w*|latitude|longitude)\b|\blast_?[Ll]ocation\b"
    r"|\b(?:lat|lng|latitude|longitude|email|phoneNumber|phone_number)\s*[,)}:=])"
)
"""An analytics event or a user's properties given a person's e-mail, phone number or
position (``logEvent("checkout") { param("email", user.email) }``): every event carries it
to the vendor."""
_LOG_SINK = re.compile(
    r":\s*Timber\.(?:Tree|DebugTree)\(\)|\bextends\s+(?:Timber\.Tree|Handler|AppenderBase"
    r"|AbstractAppender|Transport)\b|\(\s*logging\.Handler\s*\)|\bILogEventSink\b"
    r"|\bnew\s+winston\.transports\.Http\b"
)
"""A log sink of the application's own: a Timber tree, a logging handler, an appender."""
_REMOTE = re.compile(r"[\"'`]https?://(?!localhost\b|127\.|10\.0\.2\.2\b)([\w.-]+)")
_DSN = re.compile(r"\bdsn[\"']?\s*[:=]\s*[\"'`]https?://[^\"'`@\s]*@(?P<host>[\w.-]+)", re.I)
_REPORTERS = re.compile(r"(?:^|\.)(?:sentry\.io|sentry-cdn\.com|bugsnag\.com|rollbar\.com)$")
"""A crash reporter's address (its DSN): a host other than the vendor's own, one the old text
did not name, receives every report (its users' data) from the next deploy on."""
_FULL_PAGE = re.compile(r"screenshot\(\s*full_?[pP]age\s*=\s*True|fullPage\s*:\s*true")
"""A whole page's screenshot (a logged-in account's, every detail on it), in code that
posts to another host."""
_POSTED = re.compile(
    r"\b(?:requests|httpx|axios)\.post\(\s*[\"'`]https?://(?!localhost\b|127\.)"
    r"|\bfetch\(\s*[\"'`]https?://(?!localhost\b|127\.)[^)]*method\s*:\s*[\"']POST"
)
"""A post to another machine in the same code."""
_COLLECTED = re.compile(
    r"\b\w*(?:ssn\w*|social_?security\w*|dob|date_?of_?birth|home_?address|passport\w*)\s*="
    r"\s*(?:scrapy\.)?Field\(",
    re.I,
)
"""A scraper's item given a field of a government number, a birth date or a home address."""
_SCRAPER = re.compile(r"(?:^|/)(?:crawlers?|spiders?|scrapers?|scraping)/|(?:^|/)items\.py$", re.I)
_THIRD_PARTY = re.compile(
    r"(?:^|/)(?:flags?|analytics|tracking|telemetry|segment|experiments?)/", re.I
)
_SHARED_OUT = re.compile(
    r"(?:client|partner|public|external|vendor|agency|shared)[\w-]*?(?:dashboard|report|export"
    r"|feed|extract|share)|(?:dashboard|report|export|feed|extract)s?[\w-]*?(?:client|partner"
    r"|public|external|vendor|agency)",
    re.I,
)
"""A report, dashboard or export named for people outside the company."""
_PERSON_COLUMN = re.compile(
    r"\b\w*(?:email|phone|ssn|social_security|date_of_birth|birth_?date|dob|home_address"
    r"|street_address|passport|national_id)\w*\b",
    re.I,
)
_MAX_TEXT = 64 * 1024


def sends_people_data(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether a write or edit adds a request of people's data to a new host, or a
    government number to a flag's or an analytics service's context."""
    third_party = any(_THIRD_PARTY.search(path) for path in paths)
    shared = any(_SHARED_OUT.search(p.rpartition("/")[2]) for p in paths)
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        known = {m["host"] for m in _SEND.finditer(old)} | set(_HOST.findall(old))
        for found in _SEND.finditer(new):
            if found["host"] not in known and _PEOPLE.search(found.group(0)):
                return True
        if third_party and more(_GOVERNMENT_ID, old, new):
            return True
        if shared and old and more(_PERSON_COLUMN, old, new):
            return True  # `o.customer_email,` added to a view of a dashboard shared with clients
        if _sink_added(old, new):
            return True  # a log tree that posts every line to another host
        if more(_CRASH_USER, old, new) or _event_given_person(old, new):
            return True
        hosts = {m["host"] for m in _DSN.finditer(old)} | set(_HOST.findall(old))
        if any(m["host"] not in hosts and not _REPORTERS.search(m["host"])
               for m in _DSN.finditer(new)):  # fmt: skip
            return True
        if more(_FULL_PAGE, old, new) and _POSTED.search(old + new):
            return True
        if any(_SCRAPER.search(p) for p in paths) and more(_COLLECTED, old, new):
            return True
    return False


_HOST = re.compile(r"https?://([\w.-]+)")
_EVENTS = ("logEvent", "trackEvent", "track(", "capture(", "setUserPropert", "identify(")
_SINKS = ("Timber.", "Handler", "Appender", "Transport", "ILogEventSink", "winston")


def _event_given_person(old: str, new: str) -> bool:
    """`_EVENT_PERSON` added; read only where the text names an analytics call (`_EVENTS`):
    its lazy reach over 240 characters is the costly part of a long write."""
    return any(word in new for word in _EVENTS) and more(_EVENT_PERSON, old, new)


def _sink_added(old: str, new: str) -> bool:
    """A log sink added that posts to a host the old text did not name."""
    if not any(word in new for word in _SINKS) or not more(_LOG_SINK, old, new):
        return False
    return bool(set(_REMOTE.findall(new)) - set(_HOST.findall(old)))
