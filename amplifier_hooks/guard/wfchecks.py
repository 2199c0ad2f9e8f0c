"""What the text written into a GitHub workflow lets others do, read from the text itself
(never from the file's name: an everyday edit of a workflow stays free).

Each check names a mark the pack's rules decide (`cichecks` adds them to a workflow's
pieces, on every route that writes one: a file tool, a patch, a shell write):

- `INJECTION`: an expression of text anyone can write (an issue's or a pull request's
  title or body, a comment, a branch's name) expanded inside a ``run:`` script (or
  ``actions/github-script``'s ``script:``): the runner pastes it into the script before
  the shell reads it, so a title is a command (``>> $GITHUB_ENV`` included);
- `TRIGGER`: ``pull_request_target`` made a trigger where the file had none: the workflow
  then runs for strangers' pull requests with the secrets and a token that can write (a
  new workflow that runs no code, ``actions/labeler``, stays free);
- `TOKEN_WIDENED`: ``permissions: write-all``, or a write scope (contents, actions,
  id-token, packages) in a workflow others' pull requests, issues or comments start;
- `TUNNEL`: a debug tunnel's action (tmate, upterm, ngrok): a shell on the runner, with
  its token and secrets, for whoever reads the log's address;
- `ARTIFACT_RUN`: a ``workflow_run`` workflow that downloads another run's artifacts (a
  pull request's build made them) and runs steps with them, holding the secrets;
- `UPLOAD_CHECKOUT`: an artifact of the whole checkout with its hidden files
  (``.git/config`` holds the checkout's token);
- `ACTION_MOVING`: a third-party action at a branch (``@main``), code its owner changes
  under the workflow (``actions/*`` and version tags, ``@v4``, stay free);
- `SELF_HOSTED`: a job moved to a self-hosted runner in a workflow pull requests start,
  or whose triggers are not in view.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from amplifier_hooks.guard.ciconfigs import MAX_TEXT, ci_data
from amplifier_hooks.guard.workflows import on_disk

__all__ = [
    "ACTION_MOVING",
    "ARTIFACT_RUN",
    "INJECTION",
    "SELF_HOSTED",
    "TOKEN_WIDENED",
    "TRIGGER",
    "TUNNEL",
    "UPLOAD_CHECKOUT",
    "workflow_marks",
]

INJECTION = "@ci-script-injection"
TRIGGER = "@ci-trigger-untrusted"
TOKEN_WIDENED = "@ci-token-widened"
TUNNEL = "@ci-debug-tunnel"
ARTIFACT_RUN = "@ci-artifact-run"
UPLOAD_CHECKOUT = "@ci-upload-checkout"
ACTION_MOVING = "@ci-action-moving"
SELF_HOSTED = "@ci-self-hosted-pr"

_UNTRUSTED = re.compile(
    r"github\.head_ref|github\.event\.(?:"
    r"(?:issue|pull_request|discussion)\.(?:title|body)|"
    r"pull_request\.head\.(?:ref|label|repo\.default_branch)|"
    r"(?:comment|review|review_comment)\.body|"
    r"(?:head_commit|commits\[?[^.]*\]?)\.(?:message|author\.(?:name|email))|"
    r"pages\b.*\.page_name|"
    r"workflow_run\.(?:head_branch|display_title|head_commit\.(?:message|author)))"
)
"""An expression's context whose value anyone who opens an issue or a pull request sets."""
_EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.DOTALL)
_SCRIPT_KEYS = frozenset({"run", "script"})
_OTHERS = frozenset({"pull_request", "pull_request_target", "issue_comment", "issues",
                     "pull_request_review", "pull_request_review_comment", "workflow_run",
                     "discussion", "discussion_comment"})  # fmt: skip
"""Triggers others start (a pull request, an issue, a comment, a run of those)."""
_SCOPES = frozenset({"contents", "actions", "id-token", "packages"})
_TUNNELS = ("tmate", "upterm", "ngrok", "csexton/debugger-action")
_DOWNLOADS = ("actions/download-artifact", "dawidd6/action-download-artifact")
_MOVING = frozenset({"main", "master", "head", "dev", "develop", "trunk", "latest"})
_OWN = frozenset({"actions", "github"})
"""GitHub's own actions' owners."""


def workflow_marks(path: str, text: str) -> tuple[str, ...]:
    """The marks of writing ``text`` into the workflow at ``path`` (resolved)."""
    if not text or len(text) > MAX_TEXT:
        return ()
    nodes = list(_nodes(text))
    current = on_disk(path) if "pull_request" in text or "runs-on" in text else ""
    triggers = _triggers(nodes) | _triggers(list(_nodes(current)))
    marks: list[str] = []
    if any(_injected(key, value) for key, value in _pairs(nodes)):
        marks.append(INJECTION)
    if _switched(nodes, current):
        marks.append(TRIGGER)
    if _widened(nodes, triggers):
        marks.append(TOKEN_WIDENED)
    uses = [str(v).lower() for k, v in _pairs(nodes) if k == "uses" and isinstance(v, str)]
    runs = any(k == "run" for k, _ in _pairs(nodes))
    if any(t in u.partition("@")[0] for u in uses for t in _TUNNELS):
        marks.append(TUNNEL)
    if "workflow_run" in triggers and runs and any(u.startswith(_DOWNLOADS) for u in uses):
        marks.append(ARTIFACT_RUN)
    if any(_uploads_checkout(node) for node in nodes):
        marks.append(UPLOAD_CHECKOUT)
    if any(_moving(u) for u in uses):
        marks.append(ACTION_MOVING)
    if _self_hosted(nodes) and (not triggers or not triggers.isdisjoint(_OTHERS)):
        marks.append(SELF_HOSTED)
    return tuple(marks)


def _nodes(text: str) -> Iterator[object]:
    """Every mapping and list of ``text`` read as YAML, or, when it is no YAML as a whole
    (a patch's added lines), of each of its lines read alone."""
    if not text:
        return
    data = ci_data(text)
    tops: list[object] = [data] if data is not None else []
    if data is None:
        for line in text.splitlines():
            item = line.strip().removeprefix("- ").strip()
            if ":" in item:
                read = ci_data(item)
                if read is not None:
                    tops.append(read)
    stack = tops
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            yield node
            stack.extend(node)


def _pairs(nodes: list[object]) -> Iterator[tuple[object, object]]:
    for node in nodes:
        if isinstance(node, dict):
            yield from node.items()


def _injected(key: object, value: object) -> bool:
    if key not in _SCRIPT_KEYS or not isinstance(value, str) or "${{" not in value:
        return False
    return any(_UNTRUSTED.search(e) for e in _EXPRESSION.findall(value))


def _triggers(nodes: list[object]) -> set[str]:
    """The triggers the ``on:`` keys among ``nodes`` name (YAML reads ``on`` as true)."""
    found: set[str] = set()
    for key, value in _pairs(nodes):
        if key is True or key == "on":
            items = value if isinstance(value, (list, dict)) else [value]
            found.update(str(item) for item in items)
        elif key in _OTHERS:  # an edit's lines below ``on:``
            found.add(str(key))
    return found


def _switched(nodes: list[object], current: str) -> bool:
    if "pull_request_target" in current or "pull_request_target" not in _triggers(nodes):
        return False
    whole = any(isinstance(n, dict) and "jobs" in n for n in nodes)
    runs = any(k == "run" or (k == "uses" and str(v).startswith("actions/checkout"))
               for k, v in _pairs(nodes))  # fmt: skip
    return runs or not whole  # an edit: the jobs it starts are not in view


def _widened(nodes: list[object], triggers: set[str]) -> bool:
    for key, value in _pairs(nodes):
        if key != "permissions":
            continue
        if value == "write-all":
            return True
        others = not triggers.isdisjoint(_OTHERS)
        if others and isinstance(value, dict) and any(value.get(s) == "write" for s in _SCOPES):
            return True
    return False


def _uploads_checkout(node: object) -> bool:
    if not isinstance(node, dict) or node.get("include-hidden-files") is not True:
        return False
    where = str(node.get("path", "."))
    return where.strip() in (".", "./", "${{ github.workspace }}") or ".git" in where


def _moving(uses: str) -> bool:
    if uses.startswith(("./", "docker://")) or "/" not in uses:
        return False
    name, _, ref = uses.partition("@")
    return name.split("/")[0] not in _OWN and (not ref or ref.strip() in _MOVING)


def _self_hosted(nodes: list[object]) -> bool:
    for key, value in _pairs(nodes):
        if key == "runs-on":
            labels = value if isinstance(value, list) else [value]
            if any(str(label) == "self-hosted" for label in labels):
                return True
    return False
