"""`PolicyApprovalProvider`: answers approval requests by rules, for CI and headless runs.

Rules are globs on the event, the asking handler, the tool name, the command and the path;
the first rule that matches decides, and when none does the default (deny unless told
otherwise) applies. An allow rule never matches a command that chains or redirects with
shell operators its pattern does not itself contain, so ``git status*`` cannot approve
``git status; rm -rf ~``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fnmatch import fnmatchcase
from typing import Any, Literal

import structlog
from pydantic import BaseModel, ConfigDict, ValidationError

from amplifier_hooks.approvals.models import (
    ApprovalDismissed,
    ApprovalRequest,
    Verdict,
    pick_option,
)

logger = structlog.get_logger("amplifier_hooks")

_SHELL_OPERATORS = (";", "&", "|", "`", "$(", "\n", ">", "<")


class PolicyRule(BaseModel):
    """One rule: every glob must match (``"*"`` also matches a missing field)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    decision: Verdict
    event: str = "*"
    source: str = "*"
    tool: str = "*"
    command: str = "*"
    path: str = "*"

    def matches(self, request: ApprovalRequest) -> bool:
        """True if this rule applies to ``request``."""
        fields = {"event": request.event, "source": request.source, **request.raw}
        for name in ("event", "source", "tool", "command", "path"):
            pattern: str = getattr(self, name)
            if pattern == "*":
                continue
            value = fields.get(name)
            if value is None or not fnmatchcase(value, pattern):
                return False
        if self.decision == "allow" and self.command != "*":
            command = fields.get("command", "")
            sneaky = [op for op in _SHELL_OPERATORS if op in command and op not in self.command]
            if sneaky:
                return False
        return True


class PolicyApprovalProvider:
    """Answers by the first matching rule; no match means ``default`` (deny)."""

    via: Literal["policy"] = "policy"

    def __init__(
        self,
        rules: Iterable[PolicyRule | Mapping[str, Any]] = (),
        *,
        default: Verdict = "deny",
    ) -> None:
        if default not in ("allow", "deny"):
            raise ValueError(f"policy default must be 'allow' or 'deny', got {default!r}")
        self.rules = [self._rule(rule, i) for i, rule in enumerate(rules)]
        self.default: Verdict = default

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
        """Build from ``{"default": "deny", "rules": [{"tool": "bash", ...}, ...]}``."""
        unknown = set(config) - {"default", "rules"}
        if unknown:
            raise ValueError(f"unknown approval policy keys: {sorted(unknown)}")
        rules = config.get("rules") or []
        if not isinstance(rules, list):
            raise ValueError("approval policy 'rules' must be a list")
        return cls(rules, default=config.get("default", "deny"))

    def verdict(self, request: ApprovalRequest) -> tuple[Verdict, int | None]:
        """The decision for ``request`` and the (0-based) index of the rule that made it."""
        for index, rule in enumerate(self.rules):
            if rule.matches(request):
                return rule.decision, index
        return self.default, None

    async def request_approval(self, request: ApprovalRequest) -> str:
        """The option that carries the policy's verdict, just this once."""
        verdict, index = self.verdict(request)
        logger.info(
            "approval policy applied",
            source=request.source,
            hook_event=request.event,
            verdict=verdict,
            rule=None if index is None else index + 1,
        )
        option = pick_option(request.options, verdict)
        if option is None:
            raise ApprovalDismissed(
                f"policy says {verdict} but no option {request.options} means {verdict}"
            )
        return option
