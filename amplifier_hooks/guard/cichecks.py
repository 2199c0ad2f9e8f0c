"""What a CI configuration's text changes besides its scripts, and that a person must see.

Each check reads the text a write or an edit puts into a CI configuration (`ciconfigs`)
and names a mark the pack's rules decide:

- `INCLUDE_REMOTE`: a GitLab pipeline includes a file from a URL (``include: remote:``),
  pipeline code that whoever serves it can change at any time;
- `SCAN_OFF`: a security scan's job (SAST, secret detection, dependency and container
  scanning, CodeQL, gitleaks, ...) is made never to run (``when: never``, ``if: false``):
  the repository's own guard against leaked secrets and vulnerable code, switched off;
- `JOB_OFF`: any other job made never to run (a skipped job reports success to the
  check that requires it);
- `SCAN_OPTIONAL`: such a job may now fail without failing the pipeline
  (``allow_failure: true``, ``continue-on-error: true``), and `JOB_OPTIONAL` any other
  job or step (a lint, a test, a migration check: the check the branch requires passes
  whatever it finds);
- `LIBRARY_UNPINNED`: a Jenkinsfile loads a shared library from a branch (``@main``) or
  without a version, code that changes under the pipeline;
- `AGENT_UNGUARDED`: an AI agent's action or CLI on CI given its permission checks off
  (``--dangerously-skip-permissions``) or every shell command (``allowed_tools: Bash``):
  it reads text anyone can write (an issue, a comment) and holds the repository's token;
- `POST_UPGRADE`: Renovate's ``postUpgradeTasks``, commands the bot runs with its token on
  every update, committing whatever they write.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from amplifier_hooks.guard.ciconfigs import ci_data
from amplifier_hooks.guard.groovysteps import jenkins_libraries
from amplifier_hooks.guard.wfchecks import workflow_marks

__all__ = [
    "AGENT_UNGUARDED",
    "INCLUDE_REMOTE",
    "JOB_OFF",
    "JOB_OPTIONAL",
    "LIBRARY_UNPINNED",
    "POST_UPGRADE",
    "SCAN_OFF",
    "SCAN_OPTIONAL",
    "ci_marks",
]

INCLUDE_REMOTE = "@ci-include-remote"
JOB_OFF = "@ci-job-off"
SCAN_OFF = "@ci-scan-off"
SCAN_OPTIONAL = "@ci-scan-optional"
JOB_OPTIONAL = "@ci-job-optional"
LIBRARY_UNPINNED = "@ci-library-unpinned"
POST_UPGRADE = "@renovate-post-upgrade"
AGENT_UNGUARDED = "@ci-agent-unguarded"

_UNGUARDED = ("--dangerously-skip-permissions", "bypassPermissions", "--yolo",
              "--dangerously-bypass-approvals-and-sandbox", "--approval-mode=yolo",
              "--allow-all-tools", "danger-full-access")  # fmt: skip
"""An agent CLI's switches that turn its permission checks off (as `agent-cli-unguarded`)."""
_TOOL_KEYS = frozenset({"allowed_tools", "allowedTools", "allowed-tools"})
_TOOLS_OPTION = re.compile(r"""--allowed-?[Tt]ools[= ]+("[^"]*"|'[^']*'|\S+)""")
_ANY_SHELL = frozenset(
    {"Bash", "Bash(*)", "Bash(*:*)", "Bash(:*)", "*", "shell", "run_shell_command"}
)
"""An allowed tool that is every shell command."""

_SCAN = re.compile(
    r"sast|secret[_-]?(?:detection|scan)|dependency[_-]?scan|container[_-]?scan|dast|"
    r"codeql|gitleaks|trufflehog|semgrep|trivy|grype|snyk|bandit|gosec|security|"
    r"license[_-]?scan|fuzz|scorecard|zizmor",
    re.IGNORECASE,
)
"""A job's name that says it scans for vulnerabilities or secrets."""
_PINNED = re.compile(r"^(?:v?\d+(?:\.\d+)*(?:[-+][\w.]+)?|[0-9a-f]{40})$")
"""A library's version that does not move: a release's tag or a commit."""


def ci_marks(system: str, text: str, path: str = "") -> tuple[str, ...]:
    """The marks of what ``text``, put into ``system``'s configuration at ``path``,
    changes (a file named for a scan, ``codeql.yml``, holds a scan's jobs)."""
    if system == "Jenkins":
        libraries = jenkins_libraries(text) or ()
        return (LIBRARY_UNPINNED,) if any(_unpinned(lib) for lib in libraries) else ()
    if system == "docker build":
        return ()
    data = ci_data(text)
    if data is None:  # a patch's lines: a workflow's are read line by line
        return workflow_marks(path, text) if system == "GitHub Actions" else ()
    if system == "Renovate":
        return (POST_UPGRADE,) if "postUpgradeTasks" in _keys(data) else ()
    marks: list[str] = []
    if system == "GitLab CI" and _includes_remote(data):
        marks.append(INCLUDE_REMOTE)
    marks.extend(_scan_marks(data, bool(_SCAN.search(posixpath.basename(path)))))
    if _agent_unguarded(data):
        marks.append(AGENT_UNGUARDED)
    if system == "GitHub Actions":
        marks.extend(workflow_marks(path, text))
    return tuple(dict.fromkeys(marks))


def _unpinned(library: str) -> bool:
    name, _, ref = library.partition("@")
    return name.strip() not in ("", "_") and not _PINNED.match(ref.strip())


def _keys(data: object) -> Iterator[str]:
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield from (k for k in node if isinstance(k, str))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _includes_remote(data: object) -> bool:
    if not isinstance(data, dict):
        return False
    include = data.get("include")
    items = include if isinstance(include, list) else [include]
    for item in items:
        if isinstance(item, str) and item.startswith(("http://", "https://")):
            return True
        if isinstance(item, dict) and "remote" in item:
            return True
    return False


def _scan_marks(data: object, scanning: bool) -> Iterator[str]:
    """Each job or step switched off or made optional (a GitLab job, a GitHub workflow's
    job or step, by its key or its ``name``, ``id``, ``uses`` or ``extends``): a scan's
    never running is `SCAN_OFF`, any other job's `JOB_OFF`; one let fail `SCAN_OPTIONAL`
    or `JOB_OPTIONAL`."""
    stack: list[tuple[str, object]] = [("", data)]
    while stack:
        key, node = stack.pop()
        if isinstance(node, list):
            stack.extend(("", item) for item in node)
            continue
        if not isinstance(node, dict):
            continue
        stack.extend((str(k), v) for k, v in node.items())
        label = " ".join([key, *(str(node.get(k, "")) for k in ("name", "id", "uses", "extends"))])
        scan = scanning or bool(_SCAN.search(label))
        if _never(node) and label.strip():
            yield SCAN_OFF if scan else JOB_OFF
        elif node.get("allow_failure") is True or node.get("continue-on-error") is True:
            yield SCAN_OPTIONAL if scan else JOB_OPTIONAL


def _never(job: dict[object, object]) -> bool:
    if job.get("when") == "never" or job.get("if") in (False, "false", "${{ false }}"):
        return True
    rules = job.get("rules")
    if isinstance(rules, list) and rules:
        return all(isinstance(r, dict) and r.get("when") == "never" for r in rules)
    return False


def _agent_unguarded(data: object) -> bool:
    stack: list[tuple[str, object]] = [("", data)]
    while stack:
        key, node = stack.pop()
        if isinstance(node, dict):
            stack.extend((str(k), v) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((key, item) for item in node)
        elif isinstance(node, str):
            if any(flag in node for flag in _UNGUARDED):
                return True
            lists = [node] if key in _TOOL_KEYS else []
            lists += [m.group(1).strip("\"'") for m in _TOOLS_OPTION.finditer(node)]
            if any(_every_shell(each) for each in lists):
                return True
    return False


def _every_shell(tools: str) -> bool:
    """Whether a list of allowed tools (``"Bash(npm test),Read"``) allows every command."""
    items = re.split(r"[,\n]|\s+(?![^(]*\))", tools)
    return any(item.strip().strip("\"'") in _ANY_SHELL for item in items)
