"""An edit that takes out a step which hides personal data or credentials before they
are logged, exported or sent to telemetry: a collector's ``redaction`` processor dropped
from its pipeline, a log filter that calls ``redact_pii`` deleted, an attribute's
``action: delete`` or ``action: hash`` removed, a ``scrub``, ``mask`` or ``anonymize``
step gone, and in a de-identification recipe's file, a step, an entity or a transform it
applied taken out (``REMOVE PatientName``, ``- PERSON``).

From the next deploy on, the data it hid reaches logs, vendors and dashboards in the
clear. The guard cannot tell which step matters; it sees one that was in the old text
and is not in the new, and the edit is asked (`switchedoff`'s protection switched off).
A whole file written has no old text to compare and is not read here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import dropped
from amplifier_hooks.guard.ignorefiles import edit_pairs
from amplifier_hooks.guard.testpaths import test_code

__all__ = ["drops_redaction"]

_REDACTION = re.compile(
    r"\b\w*(?:redact|scrub|anonymi[sz]|pseudonymi[sz])\w*"
    r"|\bmask_\w+|\bmask(?:ing)?[_-]?(?:pii|email|phone|card|ssn)\w*"
    r"|\baction:\s*(?:delete|hash)\b"
    r"|\bfilter=(?:nbstripout|git-crypt|transcrypt|sops|crypt)\b"
    r"|Mask(?:ing)?(?:Policy|Enricher|Operator|Filter|Destructur)"
    r"|\b\w*[Ss]anitizer\b|\bfilter_param\w*[^\n]*\b(?:password|secret|token)"
    r"|\bSecret(?:String|Box|Vec)\b|\bSecret<|\bSetSensitive\w*HeadersLayer\b"
    r"|#\[serde\(skip_serializing\)\]|\b\w+_masked\b|\bsha2\(",
    re.IGNORECASE,
)
"""A step that hides data: its name, an attribute processor's delete or hash, or a
``.gitattributes`` filter that strips notebooks' outputs or encrypts files on commit, a
session recorder's input or request sanitizer, a framework's list of parameters kept out
of its logs (Phoenix's and Rails' ``filter_parameters``), Rust's ``SecretString`` (its
``Debug`` prints ``[REDACTED]``), tower-http's sensitive-header layer, serde's
``skip_serializing`` on a field (a password's hash kept out of every response)."""
_MAX_TEXT = 200_000


def drops_redaction(paths: Iterable[str], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit takes out a step of `_REDACTION` that its old text holds (a test's
    file is no deploy, and is read only for its recorder's filters)."""
    paths = tuple(paths)
    tests = all(test_code(p) for p in paths)
    recipe = any(_RECIPE.search(p) for p in paths)
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if dropped(_RECORDER, old, new):
            return True
        if tests:
            continue
        if dropped(_REDACTION, old, new) or (recipe and dropped(_DEID_STEP, old, new)):
            return True
        if _REDACTOR.search(old) and len(_REPLACING.findall(new)) < len(_REPLACING.findall(old)):
            return True  # `fun redact(...)` kept, its `.replace(EMAIL, "<email>")` lines gone
    return False


_RECORDER = re.compile(
    r"\b(?:filter_sensitive_data|filter_headers|filter_query_parameters"
    r"|filter_post_data_parameters|before_record\w*|define_cassette_placeholder"
    r"|filter_request_headers|filter_record_headers)\b[^\n]*"
)
"""A test recorder's filter (VCR's ``filter_sensitive_data``, vcrpy's ``filter_headers``):
the cassettes it writes are committed, and without it the real tokens they recorded are in
the repository's history. Read in a test's file too."""


_REDACTOR = re.compile(
    r"(?:fun|def|function|func|fn|void|String|string|static)\s+\w*(?:redact|mask|scrub|sanitiz"
    r"|anonymi[sz]|obfuscat)\w*\s*\(",
    re.I,
)
_REPLACING = re.compile(r"\.replace\w*\(|\bre\.sub\(|\bg?sub!?\(|\.Replace\(|Regex\.Replace\(")
"""A redacting function's replacements: fewer, and what they hid passes through."""
_RECIPE = re.compile(
    r"deid|de-?identif|anonymi[sz]|pseudonymi[sz]|presidio|redact|scrub|/phi/", re.I
)
"""A de-identification recipe's or configuration's file."""
_DEID_STEP = re.compile(
    r"^[ \t]*(?:(?:REMOVE|BLANK|REPLACE|JITTER|HASH|ADD)[ \t]+\S+|-[ \t]*[A-Z][A-Z0-9_]{2,}"
    r"|enabled[ \t]*:[ \t]*true)[ \t]*$",
    re.M,
)
"""A recipe's step (``REMOVE PatientName``: a DICOM recipe's), an entity it finds
(``- US_SSN``: Presidio's), a transform switched on (``date_shift: enabled: true``)."""
