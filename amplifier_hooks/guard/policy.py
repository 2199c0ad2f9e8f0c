"""The compiled rules and the one function that judges a call with them.

Rules are indexed by program once; judging a piece tries the rules of its program and the
rules that name none, deny rules first, then ask, then allow, and stops at the first that
holds. Across pieces deny > ask > allow, and an allow needs every piece allowed.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, TypeAdapter

from amplifier_hooks.guard.calls import ToolCall, file_piece
from amplifier_hooks.guard.facts import Facts, code_flags
from amplifier_hooks.guard.model import (
    DECISION_RANK,
    Decision,
    Piece,
    PieceVerdict,
    Places,
    Verdict,
)
from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.paths import Located
from amplifier_hooks.guard.rules import Matcher, Rule

__all__ = ["PACKS", "Policy", "compile_policy", "judge", "load_pack", "load_rules"]

PACKS = ("default",)
"""The packs shipped in ``amplifier_hooks/guard/packs/``."""

UNREADABLE = "guard-unreadable"
OPAQUE = "guard-opaque"


class _PackFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rules: list[Rule]


_RULES = TypeAdapter(list[Rule])


class Policy:
    """Rules compiled for fast decisions. Build with `Policy.of`, `load_pack` or
    `Policy.extend`; a later rule with a pack rule's id replaces it."""

    def __init__(self, rules: Iterable[Rule]) -> None:
        by_id: dict[str, Rule] = {}
        for rule in rules:
            by_id.pop(rule.id, None)
            by_id[rule.id] = rule
        self.rules: tuple[Rule, ...] = tuple(by_id.values())
        ordered = sorted(self.rules, key=lambda r: -DECISION_RANK[r.decision])
        # Index by what a piece is (tool, program, and whether it is piped, wrapped, opaque
        # or a function of its own): a piece meets only the rules that could hold for it.
        self._index: dict[tuple[str, str, bool, bool, bool, bool], tuple[Matcher, ...]] = {}
        self._matchers = {r.id: Matcher(r) for r in ordered}
        self._ordered = ordered

    def _candidates(self, piece: Piece) -> tuple[Matcher, ...]:
        tool, program = piece.tool, piece.program or ""
        piped = bool(piece.pipes_to) or piece.feeds_code
        wrapped, opaque, function = bool(piece.wrappers), piece.opaque is not None, piece.function
        key = (tool, program, piped, wrapped, opaque, function)
        found = self._index.get(key)
        if found is None:
            found = tuple(
                self._matchers[r.id]
                for r in self._ordered
                if (r.tool is None or tool in r.tool)
                and (r.program is None or program in r.program)
                and program not in r.not_program
                and (r.pipes_to is None or piped)
                and (r.wrapped is None or wrapped)
                and (r.opaque is None or r.opaque is opaque)
                and (r.function is None or r.function is function)
                and (r.inline_code is not True or code_flags(program) is not None)
                and (not opaque or r.decision == "deny")  # only a deny speaks for the opaque
            )
            if len(self._index) < 4096:  # unknown programs are many; keep the index small
                self._index[key] = found
        return found

    @classmethod
    def of(cls, rules: Iterable[Rule | Mapping[str, Any]]) -> Policy:
        """A policy from rules or their YAML/JSON mappings (validated)."""
        return cls(_RULES.validate_python([r if isinstance(r, Rule) else dict(r) for r in rules]))

    def extend(self, rules: Iterable[Rule], disable: Iterable[str] = ()) -> Policy:
        """This policy with ``rules`` added (same id: replaced) and ``disable`` ids removed."""
        dropped = set(disable)
        if not dropped and not rules:
            return self  # a policy is never changed once built: share it
        return Policy(r for r in (*self.rules, *rules) if r.id not in dropped)

    def ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.rules)

    def decide(self, piece: Piece, places: Places) -> PieceVerdict:
        """The first rule, strongest decision first, that holds for ``piece``."""
        facts = Facts(piece, places)
        for matcher in self._candidates(piece):
            hit = matcher.matches(facts)
            if hit is not False:
                rule = matcher.rule
                return PieceVerdict(piece.text, piece.program, rule.decision, rule.id,
                                    _reason(rule, piece, hit))  # fmt: skip
        if piece.opaque is not None:
            why = f"the guard cannot tell what this runs: {piece.opaque}"
            return PieceVerdict(piece.text, piece.program, "ask", OPAQUE, why)
        return PieceVerdict(piece.text, piece.program, None, None, None)


def _reason(rule: Rule, piece: Piece, hit: Located | bool) -> str:
    if "{" not in rule.reason:
        return rule.reason
    fields = {"program": piece.program or "", "path": hit.path if isinstance(hit, Located) else ""}
    try:
        return rule.reason.format_map(fields)
    except (KeyError, ValueError, IndexError):
        return rule.reason


def load_rules(source: str | Path) -> list[Rule]:
    """Rules from a YAML file: a list, or a mapping with ``rules:``."""
    data = yaml.safe_load(Path(source).read_text(encoding="utf-8"))
    if isinstance(data, list):
        return _RULES.validate_python(data)
    return _PackFile.model_validate(data).rules


def load_pack(name: str = "default") -> Policy:
    """A shipped pack by name (``none``: no rules). Read and compiled once per process:
    the pack ships with the code, and a policy is never changed once built."""
    if name != "none" and name not in PACKS:
        raise ValueError(f"unknown guard pack {name!r}; packs: {', '.join(PACKS)}, none")
    return _shipped_pack(name)


@functools.lru_cache(maxsize=len(PACKS) + 1)
def _shipped_pack(name: str) -> Policy:
    if name == "none":
        return Policy(())
    text = (
        resources.files("amplifier_hooks.guard")
        .joinpath(f"packs/{name}.yaml")
        .read_text(encoding="utf-8")
    )
    return Policy(_PackFile.model_validate(yaml.safe_load(text)).rules)


@functools.lru_cache(maxsize=64)
def compile_policy(
    pack: str, rules: tuple[Rule, ...] = (), disable: tuple[str, ...] = ()
) -> Policy:
    """``pack`` extended by ``rules`` without the ``disable`` ids, compiled once for every
    session that configures the same (rules are frozen, so the key is their content)."""
    return load_pack(pack).extend(rules, disable)


def judge(call: ToolCall | Mapping[str, Any], policy: Policy, places: Places) -> Verdict:
    """The decision on one tool call (a `ToolCall` or ``tool:pre`` event data). Pure."""
    tool_call = ToolCall.of(call)
    if tool_call.is_shell:
        parsed = parse_command(tool_call.command or "")
        if parsed.problem is not None:
            reason = f"the guard cannot read this command: {parsed.problem}"
            piece = PieceVerdict(parsed.text[:200], None, "deny", UNREADABLE, reason)
            return Verdict("deny", UNREADABLE, reason, (piece,))
        pieces = parsed.pieces
    else:
        pieces = (file_piece(tool_call),)
    verdicts = tuple(policy.decide(p, places) for p in pieces)
    return combine(verdicts)


def combine(verdicts: tuple[PieceVerdict, ...]) -> Verdict:
    """deny > ask > allow over pieces; allow only when every piece is allowed."""
    if not verdicts:
        return Verdict(None, None, None, ())
    best: PieceVerdict | None = None
    for verdict in verdicts:
        if best is None or DECISION_RANK[verdict.decision] > DECISION_RANK[best.decision]:
            best = verdict
    assert best is not None
    decision: Decision | None = best.decision
    if decision == "allow" and any(v.decision is None for v in verdicts):
        return Verdict(None, None, None, verdicts)
    return Verdict(decision, best.rule, best.reason, verdicts)
