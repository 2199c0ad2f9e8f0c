"""Files whose names or folders say they hold people's personal data.

A data file (``.csv``, ``.sql``, ``.jsonl``, a spreadsheet, a dump) kept in an export,
dump or backup folder under a name of people (``exports/ghost-members.csv``,
``dumps/wordpress-users.sql``), or named as a whole export of them
(``patients_full.csv``, ``chase_export_full.csv`` in ``bank/``), holds real people's
names, addresses and e-mails taken out of a service. So does any file named for data
the law protects most (a data-protection request, ``gdpr_requests.csv``; social security
numbers, payroll, salaries, passports, medical records) and anything in a folder kept for
them (``hr/``, ``payroll/``, ``i9_scans/``). Reading one puts it in the model's
transcript, which the person may not be allowed to share, so such a read is never
granted, and a table of it (``.csv``, ``.jsonl``, a spreadsheet) read is asked
(``people-data-read``; a count, a dump restored or a test folder's file is not). A
project's fixtures and samples (``data/users.csv``, ``tests/fixtures/users.json``) are
test data by their folders and names, and stay granted.
Only the name and its folders are read.
"""

from __future__ import annotations

import re

__all__ = ["people_export", "test_data"]

_DATA = re.compile(r"\.(?:csv|tsv|sql|json|jsonl|ndjson|xlsx|xls|parquet|dump|bak)(?:\.gz|\.zip)?$")
_PEOPLE = re.compile(
    r"(?:^|[-_.])(?:users?|members?|customers?|patients?|subscribers?|contacts?|employees?"
    r"|people|clients?|leads|accounts?|players?|staff|students?|participants?|respondents?"
    r"|applicants?|candidates?|donors?)(?:[-_.]|$)"
)
_WHOLE = re.compile(
    r"(?:^|[-_.])(?:export|exports|dump|full|all|identified|identifiable|reidentified|prod"
    r"|production)(?:[-_.]|$)"
)
"""A name that says it is the whole of a service's data (``_full``, ``export``, production's:
``prod-users.json``), or that
the people in it can be told apart (a study's ``participants_identified.csv``; not a
``deidentified`` one)."""
_PROTECTED = re.compile(
    r"(?:^|[-_.])(?:gdpr|pii|phi|dsar|ccpa|ssns?|payroll|salar(?:y|ies)|passports?|i-?9"
    r"|w-?2s?|medical|diagnos[ie]s|health[-_]records?|payments?[-_]cards?|card[-_]?holders?"
    r"|card[-_]?(?:data|numbers?)|pans|cvvs?)(?:[-_.]|$)"
)
"""Names of what the law protects most: a data-protection request's or a sample of
personal data, social security numbers, pay, identity documents, health records, payment
cards' numbers."""
_CHECKED = re.compile(r"(?:^|[-_.])(?:mrns?|crosswalks?|kyc|aml|sars)(?:[-_.]|$)")
"""A table named for the key that ties a study's codes back to patients (an MRN
crosswalk), or for identity checks and suspicious-activity reports (KYC, AML, SARs): the
code that runs them (``kyc.py``) is no table and stays granted."""
_EXPORTS = frozenset({"export", "exports", "dump", "dumps", "backup", "backups", "gdpr", "bank"})
"""Folders a service's data is taken out into (not a project's ``data`` or ``fixtures``)."""
_WORD = re.compile(r"[-_.]")
_KEPT = frozenset({"hr", "payroll", "personnel", "i9", "i9_scans", "medical-records",
                   "patient-records", "phi", "pii"})  # fmt: skip
"""Folders kept for people's records: nothing below one is read under a grant."""
_SAMPLES = frozenset({"fixtures", "fixture", "samples", "sample", "synthetic", "fake", "mock",
                      "mocks", "testdata", "test-data", "golden"})  # fmt: skip


def people_export(path: str) -> bool:
    """Whether ``path`` (in any case) names a file of people's personal data."""
    folder, _, name = path.lower().rpartition("/")
    folders = folder.split("/")
    if name in _KEPT or not _KEPT.isdisjoint(folders):  # (`grep -r SSN hr/`: the folder)
        return True
    if _PROTECTED.search(name):
        return True
    if not _DATA.search(name) or not _SAMPLES.isdisjoint(folders):
        return False
    if _CHECKED.search(name):
        return True
    exported = any(not _EXPORTS.isdisjoint(_WORD.split(f)) for f in folders)  # `prod_dump/`
    if _PEOPLE.search(name) is None:
        return _WHOLE.search(name) is not None and exported
    return _WHOLE.search(name) is not None or exported


def test_data(path: str) -> bool:
    """Whether ``path`` is in a folder of test data (fixtures, samples, golden files)."""
    return not _SAMPLES.isdisjoint(path.lower().split("/")[:-1])
