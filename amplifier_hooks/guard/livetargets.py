"""An edit that points the code at production where it pointed at a sandbox or a test system.

``fhirBase`` moved from the EHR vendor's sandbox host to a hospital's production tenant,
a Mirth channel's destination from ``hl7-test-listener.dev.local`` to ``lis-prod``, a
mode's default turned from ``"sandbox"`` to ``"production"``, a test settings file given
``STRIPE_LIVE_SECRET_KEY``: one changed word, and the next local run, test or deploy
reads and writes real people's records or moves real money. So does a production
database's variable (``PROD_DATABASE_URL``) read outside production's own settings, and a
mail backend that keeps mail here (``locmem``) made one that sends it. An edit whose old text names
a sandbox or test target (a host, a mode, a key's name) that its new text no longer holds,
and whose new text adds a production one, or another host in its place, is marked
`LIVE_TARGETED` (asked). A project's docs and tests are not read: they name both.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs
from amplifier_hooks.guard.testpaths import test_code, test_settings

__all__ = ["LIVE_TARGETED", "targets_live"]

LIVE_TARGETED = "@live-targeted"
_TOKEN = re.compile(r"[A-Za-z0-9][\w.-]*[A-Za-z0-9]")
"""A word of code or configuration: a host, an identifier, a string's value."""
_REHEARSAL = re.compile(
    r"(?<![a-z])(?:sandbox|test|testing|staging|stage|stg|dev|devel|development|qa|uat"
    r"|demo|mock|fake|dummy|ehr-code)(?![a-z])",
    re.I,
)
"""The words that name a system kept for trying things (Cerner's sandbox host is
``fhir-ehr-code``)."""
_LIVE = re.compile(r"(?<![a-z])(?:prod|production|live|prd)(?![a-z])", re.I)
_HOST = re.compile(
    r"^(?:[a-z0-9-]+\.)+(?:com|net|org|io|local|internal|corp|lan|cloud|app|health|gov|edu|co"
    r"|us|uk|de|fr|eu|ai|svc|dev|cluster)$",
    re.I,
)
"""A host's name (not a dotted identifier of code: ``mock.patch``)."""
_DOCS = re.compile(r"\.(?:md|mdx|rst|txt|adoc|html?)$|(?:^|/)(?:docs?|CHANGELOG[^/]*)(?:/|$)", re.I)
_MAX_TEXT = 16 * 1024


def targets_live(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit of ``paths`` swaps a sandbox or test target for a live one."""
    pairs = [(o, n) for o, n in change_pairs(inputs) if len(o) + len(n) <= _MAX_TEXT]
    if any(_RUN_LOCALLY.search(p) or test_code(p) or test_settings(p) for p in paths) and any(
        more(_SHARED_DATABASE, o, n) or more(_TESTS_LET_OUT, o, n) for o, n in pairs
    ):
        return True  # a test fixture or a local profile given staging's or production's database
    if paths and all(_DOCS.search(path) or test_code(path) for path in paths):
        return False
    production = any(_LIVE.search(p.rpartition("/")[2]) for p in paths)
    local = any(_LOCAL_SETTINGS.search(p) for p in paths)
    return any(
        _swapped(old, new) or (not production and more(_LIVE_VARIABLE, old, new))
        or (local and more(_LIVE_SECRET, old, new))
        or _mail_sent(old, new) or more(_DEFAULT_LIVE, old, new)
        for old, new in change_pairs(inputs)
        if old and len(old) + len(new) <= _MAX_TEXT
    )  # fmt: skip


_RUN_LOCALLY = re.compile(
    r"(?:^|/)(?:launchSettings\.json|appsettings\.(?:Development|Local)\.json"
    r"|(?:config/)?(?:environments/)?(?:dev|development|local)(?:\.\w+)+)$"
)
"""What a developer's own runs read besides test settings: a .NET launch profile, a
framework's development settings."""
_SHARED_DATABASE = re.compile(
    r"(?:Server|Host|Data Source|Address)\s*=\s*(?:tcp:)?[\w.-]*?(?<![a-z])(?:prod|production"
    r"|live|prd|staging|stg)(?![a-z])[\w.-]*"
    r"|\b(?:postgres(?:ql)?|mysql|mongodb(?:\+srv)?|redis|sqlserver)://[^\s\"'@/]*@?[\w.-]*?"
    r"(?<![a-z])(?:prod|production|live|prd|staging|stg)(?![a-z])",
    re.I,
)
"""A database of staging's or production's, by its host's name: a test's fixture drops and
seeds its tables, a local run writes its rows."""
_TESTS_LET_OUT = re.compile(
    r"\bWebMock\.allow_net_connect!|\ballow_http_connections_when_no_cassette\s*=\s*true"
    r"|\bDatabaseCleaner\.allow_(?:production|remote_database_url)\s*=\s*true"
    r"|\bnock\.enableNetConnect\(\s*\)|\bDATABASE_CLEANER_ALLOW_\w+"
)
"""A test suite let out: real requests to the services it calls (a card charged, a mail
sent), or its cleaner's truncation allowed on a remote or production database."""
_LIVE_VARIABLE = re.compile(
    r"\b(?:PROD|PRODUCTION|LIVE)_\w*(?:DATABASE|DB|DSN|URL|URI|HOST)\w*\b", re.I
)
"""A production database's address read from the environment (``PROD_DATABASE_URL``), in
a file that is not production's own settings (a migration's ``env.py``, a test's)."""
_LIVE_SECRET = re.compile(r"\b(?:[A-Z0-9]+_)*(?:PROD|PRODUCTION|LIVE)_\w*(?:KEY|TOKEN|SECRET)\w*\b")
_LOCAL_SETTINGS = re.compile(
    r"(?:^|/)(?:config/)?(?:environments/)?(?:dev|development|test|local)(?:\.\w+)+$"
)
"""A production account's key (``POSTMARK_PROD_KEY``) read by the development or test
settings (``config/dev.exs``, ``config/environments/development.rb``): the next local run
acts on production's account, sends its mail."""
_DEFAULT_LIVE = re.compile(
    r"^[ \t]*default:[ \t]*\n(?:[ \t]+[^\n]*\n){0,4}?[ \t]+[^\n]*"
    r"(?<![a-z])(?:prod|production)(?![a-z])",
    re.I | re.M,
)
"""A ``default:`` block (a helmfile's environment, a profile) that names production: a
plain run, given no environment, acts on it."""
_FAKE_MAIL = re.compile(
    r"EMAIL_BACKEND[^\n]*(?:locmem|console|dummy|filebased|memory)"
    r"|delivery_method\s*=\s*:(?:test|letter_opener\w*|file|logger|mailcatcher)\b"
    r"|\bperform_deliveries\s*=\s*false\b",
    re.I,
)
_MAIL_BACKEND = re.compile(r"EMAIL_BACKEND\s*=|delivery_method\s*=|perform_deliveries\s*=", re.I)


def _mail_sent(old: str, new: str) -> bool:
    """Django's mail backend, or Rails' ``delivery_method``, turned from one that keeps mail
    here (locmem, console, a file, ``:test``, ``:letter_opener``) to one that sends it: the
    next test or local run mails real people."""
    return (
        bool(_FAKE_MAIL.search(old))
        and bool(_MAIL_BACKEND.search(new))
        and not _FAKE_MAIL.search(new)
    )


def _swapped(old: str, new: str) -> bool:
    before, after = set(_TOKEN.findall(old)), set(_TOKEN.findall(new))
    gone = {word for word in before - after if _REHEARSAL.search(word)}
    if not gone:
        return False
    come = after - before
    if any(_LIVE.search(word) and not _REHEARSAL.search(word) for word in come):
        return True
    hosts_gone = any(_HOST.match(word) for word in gone)
    return hosts_gone and any(_HOST.match(w) and not _REHEARSAL.search(w) for w in come)
