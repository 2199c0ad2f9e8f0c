"""An edit that narrows what the project's code scanners look at, or hides code from them.

A static analyser sees only what its configuration points it at: SonarQube's
``sonar.sources`` and ``sonar.exclusions``, ESLint's security plugins, audit-ci's
severities, hadolint's ignored rules. One line moves the analysis to ``docs``, excludes
``**/*``, ignores every rule whose key says security, drops ``plugin:security``, or stops
failing on critical advisories, and every later finding goes unreported while the
pipeline stays green. So does a suppression comment put on a line (``# nosec``,
``# nosemgrep``, ``NOSONAR``), and a call spelled in pieces a scanner's pattern cannot
match (``getattr(__import__("sub" + "process"), "r" + "un")``). Each is a bar the project
set for its changes, lowered (`gates`' `GATE_LOWERED`, asked).
"""

from __future__ import annotations

import posixpath
import re

from amplifier_hooks.guard.changedtext import added, dropped, more

__all__ = ["narrows_scan"]

_SONAR_SOURCES = re.compile(r"^\s*sonar\.sources\s*=\s*(?P<list>[^\n]*)$", re.M)
_ALL_FILES = re.compile(
    r"(?:exclusions?|excludes?|paths-ignore|skip-(?:dirs|files)|ignore(?:d|_paths)?)"
    r"[^\n]*?[=:,\s\[-]\s*[\"']?(?:\*\*(?:/\*)?|\*|/|\.)[\"']?\s*[,\]]?\s*$"
    r"|^\s*-?\s*[\"']?\*\*(?:/\*)?[\"']?\s*$",
    re.M | re.I,
)
"""An exclusion of everything: ``sonar.exclusions=**/*``, ``paths-ignore: ['**']``, a
``.semgrepignore`` line of ``**``."""
_IGNORED_RULES = re.compile(r"ruleKey\s*=\s*[^\n]*\*", re.I)
"""SonarQube's issues ignored by a rule key with a wildcard (``*security*:*``)."""
_SECURITY_PLUGIN = re.compile(
    r"plugin:security/[\w-]+|eslint-plugin-security|\bno-unsanitized\b|plugin:@microsoft/sdl"
    r"|eslint-plugin-xss|plugin:xss/|\bsecurity/detect-[\w-]+[\"']?\s*:\s*[\"']?(?:error|2|warn|1)"
)
"""ESLint's security rule sets, and a security rule switched on."""
_SEVERITY_ON = re.compile(r"[\"'](?:low|moderate|high|critical)[\"']\s*:\s*true", re.I)
"""audit-ci's severities it fails on."""
_LINT_RULE = re.compile(r"\b(?:DL|SC)\d{4}\b|\bB\d{3}\b")
"""A hadolint or ShellCheck rule's id, a Bandit test's."""
_SUPPRESSION = re.compile(
    r"(?:#|//|--|/\*)\s*(?:nosec|nosemgrep|NOSONAR|noqa:\s*S\d+|checkov:skip|tfsec:ignore"
    r"|trivy:ignore|kics-scan\s+ignore|gitleaks:allow|pragma:\s*allowlist\s+secret)\b"
    r"|\b(?:codeql|lgtm)\s*\[|@SuppressWarnings\(\s*\"(?:java:S\d|squid:|find_sec_bugs|FindSecBugs)",
    re.I,
)
"""A comment that tells a scanner to pass over its line."""
_PIECED_CALL = re.compile(
    r"__import__\(\s*[\"'][^\"'\n]*[\"']\s*\+|getattr\([^,\n]+,\s*[\"'][^\"'\n]*[\"']\s*\+\s*[\"']"
    r"|\b(?:eval|exec|require|Function)\(\s*[\"'][^\"'\n]*[\"']\s*\+\s*[\"']"
    r"|\bglobals\(\)\s*\[\s*[\"'][^\"'\n]*[\"']\s*\+"
)
"""A module or function named in pieces (``"sub" + "process"``): code spelled so a
scanner's pattern does not match it."""
_SCANNER_FILE = re.compile(
    r"(?:^|/)(?:sonar-project\.properties|\.semgrepignore|\.semgrep\.ya?ml|codeql-config\.ya?ml"
    r"|\.trivy(?:ignore)?\.ya?ml|trivy\.ya?ml|\.snyk|\.bandit|bandit\.ya?ml|\.gitleaks\.toml"
    r"|\.grype\.ya?ml|\.checkov\.ya?ml|\.hadolint\.ya?ml|osv-scanner\.toml|\.kics\.ya?ml"
    r"|\.tfsec\.ya?ml|\.zap/[^/]+|\.secrets\.baseline|\.trufflehog\.ya?ml|audit-ci\.jsonc?)$"
)
_ESLINT = re.compile(r"(?:^|/)(?:\.eslintrc(?:\.\w+)?|eslint\.config\.\w+)$")


def narrows_scan(paths: tuple[str, ...], old: str, new: str) -> bool:
    """Whether an edit of ``paths`` (``old`` made ``new``) narrows a scanner's reach or
    hides code from it."""
    if more(_SUPPRESSION, old, new) or more(_PIECED_CALL, old, new):
        return True
    scanner = any(_SCANNER_FILE.search(path) for path in paths)
    if scanner and (added(_ALL_FILES, old, new) or added(_IGNORED_RULES, old, new)):
        return True
    if any(posixpath.basename(p) in _IGNORE_LISTS for p in paths) and _code_ignored(old, new):
        return True
    if scanner and old and _sources_dropped(old, new):
        return True
    names = {posixpath.basename(path) for path in paths}
    if names & {"audit-ci.json", "audit-ci.jsonc"} and dropped(_SEVERITY_ON, old, new):
        return True
    if names & {".hadolint.yaml", ".hadolint.yml", ".bandit"} and more(_LINT_RULE, old, new):
        return True
    return any(_ESLINT.search(path) for path in paths) and dropped(_SECURITY_PLUGIN, old, new)


_IGNORE_LISTS = frozenset({".semgrepignore", ".gitleaksignore", ".trufflehogignore",
                           ".secretlintignore", ".bearerignore"})  # fmt: skip
"""A scanner's list of paths (or findings) it passes over."""
_NOT_CODE = re.compile(
    r"(?:^|/)(?:tests?|spec|__tests__|fixtures?|testdata|docs?|examples?|vendor|third_party"
    r"|node_modules|dist|build|target|coverage|\.venv|venv)(?:/|$)|\.(?:md|min\.js|lock|snap)$",
    re.I,
)
"""What a scanner may rightly pass over: tests, fixtures, docs, vendored and built files."""


def _code_ignored(old: str, new: str) -> bool:
    """Whether a line added to an ignore list names the project's own code (``src/**``,
    ``app/``, a finding's fingerprint) rather than tests, docs or built files."""
    before = {line.strip() for line in old.splitlines()}
    return any(
        line and line not in before and not line.startswith("#") and not _NOT_CODE.search(line)
        for line in (raw.strip() for raw in new.splitlines())
    )


def _sources_dropped(old: str, new: str) -> bool:
    """A folder taken out of ``sonar.sources``: the analysis no longer reads it."""

    def sources(text: str) -> set[str]:
        return {d.strip() for m in _SONAR_SOURCES.finditer(text) for d in m["list"].split(",")}

    before, after = sources(old), sources(new)
    return bool(after) and bool(before - after - {""})
