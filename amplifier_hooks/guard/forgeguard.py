"""A repository's own guard on its forge, and the calls that take it down.

Branch protection, rulesets, required checks, an environment's reviewers, Actions' own
permissions and secret scanning are what stops an unreviewed change, a failing check or a
leaked secret on GitHub (protected branches, push rules and approval rules on GitLab).
A ``gh api``/``glab api`` call (read by `forgeapi`) that removes or weakens one is marked
`GUARD_OFF` (denied); one that gives another party lasting access (an admin collaborator,
a deploy key that writes, a webhook that receives every event, the repository
transferred) `ACCESS_GRANT` (denied); approving a deployment that waits for a person's
review `SELF_APPROVE` (denied); minting a token whose value prints where the model reads
it (a runner's registration token, a project access token) `TOKEN_MINT` (denied); the
repository or project itself deleted `REPO_DELETE` (denied, as ``gh repo delete``); any
other change of these settings `SETTINGS` (asked). ``gh workflow disable`` of a security
scan's workflow is `GUARD_OFF`, and ``gh repo deploy-key add --allow-write``
`ACCESS_GRANT`.
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase

from amplifier_hooks.guard.fedcode import echoed_text
from amplifier_hooks.guard.forgeapi import ApiCall, read_api_call
from amplifier_hooks.guard.marking import mark_each
from amplifier_hooks.guard.model import Piece

__all__ = ["ACCESS_GRANT", "FORGES", "GUARD_OFF", "PACKAGE_DELETE", "REPO_DELETE", "SELF_APPROVE",
           "SETTINGS", "TOKEN_MINT", "forge_mark", "mark_forge_calls"]  # fmt: skip

FORGES = frozenset({"gh", "glab"})
"""The forges' CLIs whose calls are read."""
GUARD_OFF = "@forge-guard-off"
ACCESS_GRANT = "@forge-access-grant"
SELF_APPROVE = "@forge-self-approve"
TOKEN_MINT = "@forge-token-mint"
REPO_DELETE = "@forge-repo-delete"
PACKAGE_DELETE = "@forge-package-delete"
"""A package of the forge's registry deleted whole, every version of it."""
_PACKAGES = ("orgs/*/packages/*/*", "user/packages/*/*", "users/*/packages/*/*")
"""GitHub's endpoints of one package (``.../packages/npm/NAME``); ``/versions/ID`` below
one is a single version."""
SETTINGS = "@forge-settings"

_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_SCAN = re.compile(r"codeql|security|secret|gitleaks|trufflehog|semgrep|trivy|grype|snyk|"
                   r"scorecard|zizmor|dependency-review|sast|scan", re.IGNORECASE)  # fmt: skip
_SETTINGS_PLACES = (
    "branches/*/protection*", "rulesets*", "environments*", "actions/permissions*",
    "actions/secrets*", "actions/variables*", "actions/runners*", "actions/workflows/*",
    "actions/runs/*/pending_deployments", "actions/oidc/*", "hooks*",
    "collaborators*", "outside_collaborators*", "keys*", "invitations*", "vulnerability-alerts",
    "code-scanning/*", "secret-scanning/*", "automated-security-fixes", "teams/*", "memberships/*",
    "protected_branches*", "protected_tags*", "push_rule", "approval_rules*", "approvals",
    "members*", "deploy_keys*", "variables*", "access_tokens*", "deploy_tokens*",
    "dependabot/*", "security-advisories*",
)  # fmt: skip
"""The endpoints (below a repository, an organization, a project or a group) that hold
the forge's settings of who may change what, and its security alerts and advisories (an
alert dismissed, an advisory published for everyone)."""


def mark_forge_calls(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each forge call that changes the repository's guard marked (the
    same tuple when none is)."""
    return mark_each(pieces, FORGES, _mark_at)


def _mark_at(pieces: tuple[Piece, ...], index: int) -> tuple[str, ...]:
    piece = pieces[index]
    if piece.tool != "bash" or piece.program is None:
        return ()
    stdin = piece.fed
    if stdin is None and index > 0 and piece.program in pieces[index - 1].pipes_to:
        stdin = echoed_text(pieces[index - 1])  # (what a pipe feeds it: `echo '{..}' | gh api`)
    mark = forge_mark(piece.program, piece.args, stdin)
    return () if mark is None else (mark,)


def forge_mark(program: str, args: tuple[str, ...], stdin: str | None) -> str | None:
    """The mark of what ``program ARGS`` does to the repository's guard (None: nothing)."""
    words = [a for a in args if not a.startswith("-")]
    if "--help" in args or ("-h" in args and words[:1] != ["api"]):
        return None  # `glab repo transfer --help`: its usage, nothing done
    if words[:1] == ["api"]:
        call = read_api_call(tuple(args[args.index("api") :]), stdin)
        return None if call is None or call.method not in _WRITES else _api_mark(call)
    if program == "gh" and words[:2] == ["workflow", "disable"]:
        return GUARD_OFF if any(_SCAN.search(w) for w in words[2:]) else None
    if program == "gh" and words[:3] == ["repo", "deploy-key", "add"]:
        writes = any(a in ("-w", "--allow-write") for a in args)
        return ACCESS_GRANT if writes else SETTINGS
    if program == "gh" and words[:2] in (
        ["ssh-key", "add"],
        ["gpg-key", "add"],
        ["repo", "unarchive"],
    ):
        return SETTINGS  # a key on the person's account: every repository they reach
    if program == "glab" and words[:2] == ["repo", "transfer"]:
        return ACCESS_GRANT
    return None


def _api_mark(call: ApiCall) -> str | None:
    if call.method == "DELETE" and any(fnmatchcase(call.endpoint, p) for p in _PACKAGES):
        return None if "/versions/" in call.endpoint else PACKAGE_DELETE
    scope, rest = _scoped(call.endpoint)
    if scope is None:
        return None
    if rest not in ("", "transfer") and not any(fnmatchcase(rest, p) for p in _SETTINGS_PLACES):
        return None
    method, given = call.method, call.settings
    known = given or {}
    if rest.startswith("actions/runners/") and rest.endswith(("-token", "_token")):
        return TOKEN_MINT
    if method == "POST" and (fnmatchcase(rest, "*access_tokens") or rest == "deploy_tokens"):
        return TOKEN_MINT
    if rest == "transfer" or fnmatchcase(rest, "*/transfer"):
        return ACCESS_GRANT
    if rest.startswith("actions/runs/") and rest.endswith("pending_deployments"):
        return SELF_APPROVE if known.get("state") == "approved" else SETTINGS
    if method == "DELETE" and rest == "" and scope in ("repos", "projects"):
        return REPO_DELETE
    if method == "DELETE":
        return GUARD_OFF if _guarding(rest) else SETTINGS
    if _weakens(rest, known):
        return GUARD_OFF
    if _grants(rest, method, known):
        return ACCESS_GRANT
    return SETTINGS


def _scoped(endpoint: str) -> tuple[str | None, str]:
    """The owner's kind (``repos``, ``orgs``, ``projects``, ``groups``) and the endpoint
    below the repository, organization, project or group it names."""
    parts = endpoint.split("/")
    if parts[0] == "repos" and len(parts) >= 3:
        return "repos", "/".join(parts[3:])
    if parts[0] in ("orgs", "projects", "groups") and len(parts) >= 2:
        return parts[0], "/".join(parts[2:])
    return None, endpoint


_GUARDING = (
    "branches/*/protection*", "rulesets/*", "environments/*", "vulnerability-alerts",
    "protected_branches/*", "protected_tags/*", "push_rule", "approval_rules/*",
)  # fmt: skip


def _guarding(rest: str) -> bool:
    """Whether deleting ``rest`` deletes a protection."""
    return any(fnmatchcase(rest, p) for p in _GUARDING) and not fnmatchcase(
        rest, "environments/*/*"
    )


def _weakens(rest: str, known: dict[str, object]) -> bool:
    """Whether setting ``known`` on ``rest`` removes or weakens a protection."""
    if fnmatchcase(rest, "rulesets/*"):
        return known.get("enforcement") in ("disabled", "evaluate")
    if fnmatchcase(rest, "branches/*/protection*"):
        emptied = ("required_status_checks", "required_pull_request_reviews",
                   "contexts", "checks", "required_status_checks.contexts")  # fmt: skip
        return (
            any(k in known and known[k] in (None, "", []) for k in emptied)
            or known.get("enforce_admins") is False
            or known.get("allow_force_pushes") is True
            or known.get("allow_deletions") is True
            or known.get("required_approving_review_count") == 0
        )
    if fnmatchcase(rest, "environments/*"):
        cleared = "reviewers" in known and known["reviewers"] in ([], "", None)
        return cleared or known.get("prevent_self_review") is False
    if rest == "actions/permissions":
        return known.get("enabled") is False
    if rest == "actions/permissions/workflow":
        return known.get("can_approve_pull_request_reviews") is True
    if rest == "":
        return any(
            k.startswith("security_and_analysis.") and v == "disabled" for k, v in known.items()
        )
    if fnmatchcase(rest, "protected_branches*"):
        return known.get("allow_force_push") is True
    if rest == "approvals":
        return known.get("approvals_before_merge") == 0
    return False


def _grants(rest: str, method: str, known: dict[str, object]) -> bool:
    """Whether setting ``known`` on ``rest`` gives another party lasting access."""
    if rest == "hooks":
        return method == "POST"
    if fnmatchcase(rest, "hooks/*"):
        return "config.url" in known
    if fnmatchcase(rest, "collaborators/*") or fnmatchcase(rest, "memberships/*"):
        return known.get("permission", known.get("role")) in ("admin", "maintain")
    if rest == "keys" and method == "POST":  # GitHub's deploy keys write unless read_only
        return known.get("read_only") is not True
    if rest == "deploy_keys" and method == "POST":  # GitLab's only with can_push
        return known.get("can_push") is True
    if rest.startswith("members"):
        level = known.get("access_level")
        return isinstance(level, int) and level >= 40
    return False
