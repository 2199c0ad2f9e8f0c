"""An edit that lowers a bar the project set for its own changes.

A project keeps its next change honest with bars in ordinary files: a pass rate its evals
must reach (``min_pass_rate: 0.92``), a coverage floor (``fail_under = 85``), a multisig's
number of signers (``THRESHOLD = 3``), the vulnerability advisories its audit fails on
(cargo-deny's ``deny.toml``, ``.cargo/audit.toml``, ``.trivyignore``), the security
linters and detectors it runs (golangci's ``gosec``, Slither's detectors), the checks
OpenZeppelin's upgrade plugin makes of a new implementation, and the tests that run at
all. An edit that lowers such a bar, skips a whole test module or an eval, ignores
another advisory, turns a ``"deny"`` into ``"allow"``, admits a copyleft licence, drops a
security linter or excludes more detectors, or narrows what the code scanners read
(`scanreach`) lets the next change that fails it through,
in a diff of one number. Each is marked `GATE_LOWERED` (asked: the project may mean it, a
person says so).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import commented, dropped, live_matches, more, number_moved
from amplifier_hooks.guard.ignorefiles import change_pairs, edit_pairs
from amplifier_hooks.guard.safetylimits import SKIP_MARKER
from amplifier_hooks.guard.scanreach import narrows_scan
from amplifier_hooks.guard.testpaths import test_code

__all__ = ["GATE_LOWERED", "lowers_gate"]

GATE_LOWERED = "@gate-lowered"
_BAR = re.compile(
    r"(?P<name>\b(?:fail[_-]?under|cov[_-]?fail[_-]?under|(?:min|minimum)[_-]?(?:pass[_-]?rate"
    r"|success[_-]?rate|coverage|score|accuracy|pass|approvals?|reviewers|signers)"
    r"|(?:pass|coverage|quality|approval|signers?|confirmations?)[_-]?threshold)\b"
    r"|\bTHRESHOLD\b|\bminimum\b|\bmin(?:Coverage|CoveredRatio|LineCoverage|BranchCoverage)\b)"
    r"[\"']?\s*(?:[:=]|\s)\s*[\"']?(?P<n>\d+(?:\.\d+)?)",
    re.IGNORECASE,
)
"""A bar and its number: an eval's or a test run's pass rate, a coverage floor, the
reviews or signatures a change needs (a constant's ``THRESHOLD`` in capitals)."""
_ADVISORY = re.compile(r"\b(?:RUSTSEC-\d{4}-\d{4}|GHSA(?:-[23456789cfghjmpqrvwx]{4}){3}"
                       r"|CVE-\d{4}-\d{4,}|PYSEC-\d{4}-\d+|GO-\d{4}-\d{4}"
                       r"|SNYK-[A-Z0-9]+-[A-Z0-9]+-\d+)\b", re.I)  # fmt: skip
_AUDIT_FILES = frozenset({"deny.toml", "audit.toml", ".trivyignore", ".trivyignore.yaml",
                          ".grype.yaml", "osv-scanner.toml", ".snyk", ".nsprc", "audit-ci.json",
                          "audit-ci.jsonc", ".safety-policy.yml", ".auditignore"})  # fmt: skip
"""Files that list the advisories a project's audit lets through."""
_IGNORED_FLAG = re.compile(r"--ignore[\w-]*[=\s]+[\"']?(?:RUSTSEC|GHSA|CVE|PYSEC|GO)-", re.I)
"""An audit's command told to let an advisory through (``cargo audit --ignore RUSTSEC-``,
``pip-audit --ignore-vuln GHSA-``), in a workflow or a script."""
_DENIED = re.compile(r"=\s*\"deny\"")
_COPYLEFT = re.compile(r"\b(?:A?GPL|SSPL|EUPL|OSL|CPAL|RPL|Sleepycat|Commons-Clause)[\w.+-]*")
_LINTERS = frozenset({".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"})
_SECURITY_LINTER = re.compile(r"\b(?:gosec|govulncheck|bodyclose|sqlclosecheck)\b")
_SLITHER = re.compile(r"[\"']?detectors_to_exclude[\"']?\s*:\s*\"(?P<list>[^\"]*)\"")
_UNSAFE_UPGRADE = re.compile(
    r"\bunsafe(?:SkipStorageCheck|SkipProxyAdminCheck|AllowRenames|AllowLinkedLibraries"
    r"|AllowCustomTypes|Allow)\b\s*:"
)
"""OpenZeppelin's upgrade plugin told to skip its checks of a new implementation (storage
layout, ``delegatecall``, ``selfdestruct``): the next upgrade may corrupt the proxy."""
_WHOLE_SKIP = re.compile(
    r"^\s*pytestmark\s*=\s*\[?\s*pytest\.mark\.skip\b(?!if)|\bdescribe\.skip\(|^\s*@unittest\.skip\b"
    r"(?!If|Unless)\s*(?:\(|$)[^\n]*\n\s*class\b",
    re.M,
)
"""A whole test module or suite skipped, whatever it tests (a condition's skip, ``skipif``,
is the platform's, not the bar's)."""
_ASSURED = re.compile(r"\bsafety_assured\b")
_DEPLOY_FILES = frozenset({"app.json", "Procfile", "fly.toml", "render.yaml", "railway.json",
                           "railway.toml", "netlify.toml", "vercel.json", "app.yaml", "app.yml",
                           "deploy.yml", "deploy.rb", "Capfile", "dokku.json"})  # fmt: skip
"""A host's deploy settings: the tests they run before a release are the release's gate."""
_TEST_RUN = re.compile(
    r"\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test[\w:-]*|\b(?:pytest|rspec|jest|vitest|phpunit)\b"
    r"|\b(?:go|cargo|dotnet|mix|deno)\s+test\b|\brails\s+test\b|\brake\s+(?:test|spec)\b"
)
_EVALS = re.compile(r"(?:^|/|_)evals?(?:/|_|\.|\Z)", re.I)
"""An eval's file: any skip there lowers the bar the model is held to."""
_MAX_TEXT = 64 * 1024


_DENIAL_ASSERTED = re.compile(
    r"(?:==|===|toBe\(|toEqual\(|assertEqual\([^\n]*,)\s*40[13]\b|\bexpect\(\s*40[13]\s*\)"
    r"|\bAssert\.Equal\(\s*(?:HttpStatusCode\.(?:BadRequest|Forbidden|Unauthorized)"
    r"|StatusCodes\.Status40[013]\w*|40[013]\b)"
)
"""A test's assertion that a request is refused (``== 403``): the check that access control
holds."""
_TAUTOLOGY = re.compile(
    r"\bexpect\(\s*(?P<a>true|1|TRUE)\s*\)\s*\.\s*(?:toBe|toEqual|to\.equal)\(\s*(?P=a)\s*\)"
    r"|\bassert\s+(?:True|1\s*==\s*1)\b|\bassertTrue\(\s*(?:True|true)\s*\)"
    r"|\bexpect_true\(\s*TRUE\s*\)|\bassert\.ok\(\s*true\s*\)|\bassert!\(\s*true\s*\)"
)
"""An assertion that always holds (``expect(true).toBe(true)``, ``assert True``)."""
_ASSERTION = re.compile(
    r"\bexpect\w*\(|\bassert\w*[\s(!]|\bshould\b|\brequire\.\w+\(|\bt\.(?:Error|Fatal)"
    r"|\bAssert\.\w+\(|\bassertThat\("
)
_SKIPPED = re.compile(
    r"@pytest\.mark\.skip\b(?!if)|@unittest\.skip\b(?!If|Unless)|\b(?:it|test|describe)\.skip\("
    r"|\bx(?:it|describe|test)\(|@Disabled\b|@Ignore\b|#\[ignore\]|^[ \t]*skip\(\s*[\"']"
    r"|\[(?:Fact|Theory|Test|TestMethod)\s*\(\s*Skip\s*=|\[Ignore\b|^[ \t]*x(?:it|describe|context"
    r"|specify)\b|^[ \t]*skip\s+[\"']",
    re.M,
)
"""A test skipped whatever the platform (xUnit's ``[Fact(Skip = "...")]``, NUnit's
``[Ignore]``, RSpec's ``xit``; testthat's ``skip("...")`` as a statement of its
own; ``skip_if``, ``skipif`` and a skip inside an ``if`` are conditions, not the bar)."""
_ACCEPTS_SUCCESS = re.compile(
    r"\b20[0-4]\b|\bis_success\b|\bok\b|<\s*500\b|!=\s*500\b|HttpStatusCode\.(?:OK|Redirect|Found)\b"
)


def lowers_gate(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether a write or edit of ``paths`` lowers a bar the project set for itself."""
    names = {posixpath.basename(path) for path in paths}
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if more(_IGNORED_FLAG, old, new) or more(_UNSAFE_UPGRADE, old, new):
            return True
        if more(_ASSURED, old, new):
            return True  # strong_migrations told a drop is safe: its check no longer stops it
        if names & _DEPLOY_FILES and _gated(new) < _gated(old):
            return True  # `"predeploy": "npm run test:ci && npm run migrate"` lost its tests
        if names & _AUDIT_FILES and more(_ADVISORY, old, new):
            return True
        if "deny.toml" in names and old and _deny_loosened(old, new):
            return True
        if names & _LINTERS and old and _dropped_linter(old, new):
            return True
        if "slither.config.json" in names and old and _excluded_more(old, new):
            return True
        if more(_WHOLE_SKIP, old, new) or narrows_scan(paths, old, new):
            return True
        if any(_EVALS.search(path) for path in paths) and more(SKIP_MARKER, old, new):
            return True
        if old and dropped(_DENIAL_ASSERTED, old, new) and _ACCEPTS_SUCCESS.search(new):
            return True  # `assert r.status_code == 403` made `in (200, 403)`
        if old and any(map(test_code, paths)) and _test_emptied(old, new):
            return True
    return any(
        number_moved(_BAR, old, new, _lowered)
        for old, new in edit_pairs(inputs)
        if len(old) < _MAX_TEXT
    )


def _gated(text: str) -> int:
    return len(_TEST_RUN.findall(text))


def _test_emptied(old: str, new: str) -> bool:
    """An existing test's assertions replaced by one that always holds, or the test
    skipped whatever the platform: it passes from now on, whatever the code does."""
    if more(_TAUTOLOGY, old, new) and len(_ASSERTION.findall(new)) <= len(_ASSERTION.findall(old)):
        return True
    if live_matches(_ASSERTION, new) < live_matches(_ASSERTION, old) and _commented_out(old, new):
        return True
    return more(_SKIPPED, old, new)


def _commented_out(old: str, new: str) -> bool:
    """An assertion of ``old`` that ``new`` keeps only as a comment: the test runs, and
    checks nothing of it."""
    live = {line.strip() for line in old.splitlines() if _ASSERTION.search(line)}
    return any(
        commented(line) and _COMMENT_MARK.sub("", line.strip(), count=1).strip() in live
        for line in new.splitlines()
    )


_COMMENT_MARK = re.compile(r"^(?://|#|--)")


def _deny_loosened(old: str, new: str) -> bool:
    """cargo-deny's ``"deny"`` turned into ``"warn"``/``"allow"``, or a copyleft licence
    added to what it allows."""
    if len(_DENIED.findall(new)) < len(_DENIED.findall(old)):
        return True
    had = {found.group(0).upper() for found in _COPYLEFT.finditer(old)}
    return any(found.group(0).upper() not in had for found in _COPYLEFT.finditer(new))


def _dropped_linter(old: str, new: str) -> bool:
    """A security linter's line taken out of golangci's ``enable`` (or put under
    ``disable``)."""
    kept = {line.strip() for line in new.splitlines()}
    if any(_SECURITY_LINTER.search(line) and line.strip() not in kept for line in old.splitlines()):
        return True
    return "disable" in new and more(_SECURITY_LINTER, old, new)


def _excluded_more(old: str, new: str) -> bool:
    before = {d.strip() for m in _SLITHER.finditer(old) for d in m["list"].split(",")}
    after = {d.strip() for m in _SLITHER.finditer(new) for d in m["list"].split(",")}
    return bool(after - before - {""})


def _lowered(was: float, now: float) -> bool:
    return now < was
