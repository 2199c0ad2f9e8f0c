"""`PolicyApprovalProvider`: answers approval requests by rules, for CI and headless runs.

Rules are globs on the event, the asking handler, the tool name, the command and the path;
the first rule that matches decides, and when none does the default (deny unless told
otherwise) applies. An allow rule never matches a command that chains or redirects with
shell operators its pattern does not itself contain, so ``git status*`` cannot approve
``git status; rm -rf ~``; and paths are resolved before they are matched (``..``
collapsed, symlinks followed, relative paths taken from the workspace), so
``/workspace/*`` cannot approve ``/workspace/../etc/passwd``. A path that cannot be
resolved never matches an allow rule.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from amplifier_hooks.approvals.models import (
    AllowOrDeny,
    ApprovalDismissed,
    ApprovalRequest,
    pick_option,
)
from amplifier_hooks.logs import get_logger
from amplifier_hooks.toolcalls import (
    command_allowed_by,
    path_candidates,
    resolve_path,
    resolve_workspace,
)

logger = get_logger()


class PolicyRule(BaseModel):
    """One rule: every glob must match (``"*"`` also matches a missing field)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    decision: AllowOrDeny
    event: str = "*"
    source: str = "*"
    tool: str = "*"
    command: str = "*"
    path: str = "*"

    def matches(self, request: ApprovalRequest, workspace: Path | None = None) -> bool:
        """True if this rule applies to ``request``; relative paths are taken from
        ``workspace`` (a resolved directory; the current directory if None)."""
        fields = {"event": request.event, "source": request.source, **request.raw}
        for name in ("event", "source", "tool"):
            pattern: str = getattr(self, name)
            if pattern == "*":
                continue
            value = fields.get(name)
            if value is None or not fnmatchcase(value, pattern):
                return False
        if self.command != "*":
            command = fields.get("command")
            if command is None:
                return False
            if self.decision == "allow":
                if not command_allowed_by(command, self.command):
                    return False
            elif not fnmatchcase(command, self.command):
                return False
        if self.path != "*":
            raw = fields.get("path")
            if raw is None:
                return False
            base = workspace if workspace is not None else resolve_workspace(None)
            if not self._path_matches(raw, base):
                return False
        return True

    def _path_matches(self, raw: str, workspace: Path) -> bool:
        resolved = resolve_path(raw, workspace)
        candidates = [] if resolved is None else path_candidates(resolved, workspace)
        if self.decision == "deny":
            # A deny rule may also catch the path as written: denying more is safe, and
            # a path that cannot be resolved still meets the rules meant for it.
            candidates.append(raw)
        pattern = os.path.expanduser(self.path)
        return any(fnmatchcase(candidate, pattern) for candidate in candidates)


class PolicyApprovalProvider:
    """Answers by the first matching rule; no match means ``default`` (deny)."""

    via: Literal["policy"] = "policy"

    def __init__(
        self,
        rules: Iterable[PolicyRule | Mapping[str, Any]] = (),
        *,
        default: AllowOrDeny = "deny",
        workspace: str | os.PathLike[str] | None = None,
        uses_memory: bool = True,
    ) -> None:
        if default not in ("allow", "deny"):
            raise ValueError(f"policy default must be 'allow' or 'deny', got {default!r}")
        if workspace is not None and not os.fspath(workspace).strip():
            raise ValueError("policy workspace must be a directory path, not blank")
        self.rules = [self._rule(rule, i) for i, rule in enumerate(rules)]
        self.default: AllowOrDeny = default
        self.workspace = workspace
        """What relative paths are taken from (None: the current directory at the time)."""
        self.uses_memory = uses_memory
        """False for a fixed answer (``--approvals allow|deny``): the gate then neither
        answers from remembered decisions nor remembers, so what the run says applies."""

    @staticmethod
    def _rule(rule: PolicyRule | Mapping[str, Any], index: int) -> PolicyRule:
        if isinstance(rule, PolicyRule):
            return rule
        try:
            return PolicyRule.model_validate(rule)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'rule'}: {e['msg']}" for e in exc.errors()
            )
            raise ValueError(f"approval policy rule #{index + 1} is invalid: {problems}") from None

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> PolicyApprovalProvider:
        """Build from ``{"default": "deny", "workspace": "/repo", "rules": [...]}``."""
        unknown = set(config) - {"default", "rules", "workspace"}
        if unknown:
            raise ValueError(f"unknown approval policy keys: {sorted(unknown)}")
        rules = config.get("rules") or []
        if not isinstance(rules, list):
            raise ValueError("approval policy 'rules' must be a list")
        workspace = config.get("workspace")
        if workspace is not None and not isinstance(workspace, str):
            raise ValueError("approval policy 'workspace' must be a path string")
        return cls(rules, default=config.get("default", "deny"), workspace=workspace)

    def decide(self, request: ApprovalRequest) -> tuple[AllowOrDeny, int | None]:
        """The decision for ``request`` and the (0-based) index of the rule that made it."""
        workspace = resolve_workspace(self.workspace)
        for index, rule in enumerate(self.rules):
            if rule.matches(request, workspace):
                return rule.decision, index
        return self.default, None

    async def request_approval(self, request: ApprovalRequest) -> str:
        """The option that carries the policy's decision, just this once."""
        decision, index = self.decide(request)
        logger.info(
            "approval policy applied",
            source=request.source,
            hook_event=request.event,
            decision=decision,
            rule=None if index is None else index + 1,
        )
        option = pick_option(request.options, decision)
        if option is None:
            raise ApprovalDismissed(
                f"policy says {decision} but no option {request.options} means {decision}"
            )
        return option
