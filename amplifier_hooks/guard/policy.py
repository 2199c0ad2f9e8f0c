"""The compiled rules and the one function that judges a call with them.

Rules are indexed by program once; judging a piece tries the rules of its program and the
rules that name none, deny rules first, then ask, then allow, and stops at the first that
holds. Across pieces deny > ask > allow, and an allow needs every piece allowed.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, TypeAdapter, model_validator

from amplifier_hooks.guard.callpieces import pieces_for, pieces_of_call
from amplifier_hooks.guard.calls import ToolCall
from amplifier_hooks.guard.facts import Facts
from amplifier_hooks.guard.grant import links_then_changes, withheld
from amplifier_hooks.guard.losses import RULES as LOSS_RULES
from amplifier_hooks.guard.losses import review as review_losses
from amplifier_hooks.guard.mcptable import ToolTable
from amplifier_hooks.guard.memo import begin, end
from amplifier_hooks.guard.model import (
    DECISION_RANK,
    Piece,
    PieceVerdict,
    Places,
    Verdict,
    new_tuple,
)
from amplifier_hooks.guard.passedchecks import passed
from amplifier_hooks.guard.paths import Located, refresh
from amplifier_hooks.guard.planted import PLANTED, planted_verdicts
from amplifier_hooks.guard.readsonly import reads_only
from amplifier_hooks.guard.remote import pattern_pushes
from amplifier_hooks.guard.repo import RepoFacts
from amplifier_hooks.guard.rulematch import (
    Matcher,
    PathCheck,
    Plan,
    Prefilter,
    args_hold,
    flags_hold,
    plan,
)
from amplifier_hooks.guard.rules import Rule
from amplifier_hooks.guard.workflows import CI_STEP

__all__ = [
    "PACKS",
    "Policy",
    "compile_policy",
    "judge",
    "judge_pieces",
    "load_pack",
    "load_rules",
    "pieces_for",
]

PACKS = ("default",)
"""The packs shipped in ``amplifier_hooks/guard/packs/``."""

OPAQUE = "guard-opaque"
INDEX_SIZE = 4096
"""Kinds of piece whose rules `Policy` remembers (cleared when full)."""


class _PackFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rules: list[Rule]

    @model_validator(mode="after")
    def _ids_once(self) -> _PackFile:
        _once(self.rules)
        return self


def _once(rules: list[Rule]) -> list[Rule]:
    """``rules`` when no two share an id: within one file a second rule of an id would
    silently replace the first (`Policy`), so a rule the writer meant would never run."""
    counts = Counter(r.id for r in rules)
    twice = sorted(rule_id for rule_id, count in counts.items() if count > 1)
    if twice:
        raise ValueError(f"rule ids must be unique in a file; more than once: {', '.join(twice)}")
    return rules


_RULES = TypeAdapter(list[Rule])

_YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML has it: the same data, read about six times faster
(a pack is read at every start of a process that judges: `test`, a hook server)."""


class _OnceLoader(yaml.SafeLoader):
    """A safe loader that refuses a key written twice in one mapping: PyYAML keeps the
    last silently, so a rule's first ``not_wrapped`` (or ``args``) would be dropped."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            if isinstance(key, str) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r} (first written on line {seen[key]})",
                    key_node.start_mark,
                )  # fmt: skip
            seen.setdefault(key, line)
        return super().construct_mapping(node, deep=deep)


class Policy:
    """Rules compiled for fast decisions. Build with `Policy.of`, `load_pack` or
    `Policy.extend`; a later rule with a pack rule's id replaces it. ``builtin``: the ids
    of `losses.RULES` this policy applies (the default pack: all of them)."""

    def __init__(self, rules: Iterable[Rule], builtin: frozenset[str] = frozenset()) -> None:
        self.builtin = builtin
        by_id: dict[str, Rule] = {}
        for rule in rules:
            by_id.pop(rule.id, None)
            by_id[rule.id] = rule
        self.rules: tuple[Rule, ...] = tuple(by_id.values())
        ordered = sorted(self.rules, key=lambda r: -DECISION_RANK[r.decision])
        self._matchers = tuple(Matcher(r) for r in ordered)
        # What is left of each rule for a kind of piece (`Facts.key`: tool, program,
        # subcommand, wrappers, where its output flows, ...): a piece meets only the rules
        # that could hold for it, and only their flag, argument and path checks.
        self._index: dict[tuple[object, ...], Plan] = {}
        self._prefilters: dict[tuple[PathCheck, ...], Prefilter] = {}
        self._ci: Policy | None = None

    def for_ci_steps(self) -> Policy:
        """The rules that name `workflows.CI_STEP`: the only ones that judge a CI step (it
        runs on another machine, where this one's places mean nothing)."""
        if self._ci is None:
            self._ci = Policy(r for r in self.rules if r.wrapped and CI_STEP in r.wrapped)
        return self._ci

    def _plan(self, facts: Facts) -> Plan:
        found = self._index.get(facts.key)
        if found is None:
            if len(self._index) >= INDEX_SIZE:  # kinds are many under attack: stay bounded
                self._index.clear()
                self._prefilters.clear()
            found = plan(
                tuple(c for c in (m.for_kind(facts) for m in self._matchers) if c is not None),
                self._prefilters,
            )
            self._index[facts.key] = found
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
        kept = (r for r in (*self.rules, *rules) if r.id not in dropped)
        return Policy(kept, self.builtin - dropped)

    def ids(self) -> tuple[str, ...]:
        return (*(r.id for r in self.rules), *sorted(self.builtin - {r.id for r in self.rules}))

    def decide(self, piece: Piece, places: Places) -> PieceVerdict:
        """The first rule, strongest decision first, that holds for ``piece``."""
        refresh(places)
        return self._decide(piece, places)

    def _decide(self, piece: Piece, places: Places) -> PieceVerdict:
        # `refresh(places)` first: once per call, however many pieces and paths
        return self._decided(Facts(piece, places))

    def _decided(self, facts: Facts) -> PieceVerdict:
        piece, places = facts.piece, facts.places
        checks, cleared, sift = self._plan(facts)
        if sift is not None and not sift.maybe(facts.paths("all")):
            checks = cleared  # no deny or ask rule on paths can hold: skip them all
        checks = passed(checks, facts)  # a recurring piece: only those its words pass
        for rule, flags, args, branch, paths, env, only_reads in checks:
            if flags is not None and not flags_hold(flags, facts.flags):
                continue
            if args is not None and not args_hold(args, piece.args):
                continue
            if env is not None and not args_hold(env, piece.env):
                continue
            if only_reads is not None and reads_only(piece) is not only_reads:
                continue
            if branch is not None and not _pushes(branch, rule.branch or (), facts.branches()):
                continue
            hit = True if paths is None else paths.match(facts)
            if hit is not False:
                if rule.decision == "allow":
                    why = withheld(piece, places)
                    if why is not None:  # a grant is a promise: only what is understood
                        return PieceVerdict(piece.text, piece.program, None, None,
                                            f"not granted: {why}")  # fmt: skip
                return new_tuple(PieceVerdict, (piece.text, piece.program, rule.decision,
                                                rule.id, _reason(rule, facts, hit)))  # fmt: skip
        if piece.opaque is not None:
            why = f"the guard cannot tell what this runs: {piece.opaque}"
            return PieceVerdict(piece.text, piece.program, "ask", OPAQUE, why)
        return new_tuple(PieceVerdict, (piece.text, piece.program, None, None, None))


def _reason(rule: Rule, facts: Facts, hit: Located | bool) -> str:
    if "{" not in rule.reason:
        return rule.reason
    fields = {
        "program": facts.piece.program or "",
        "path": hit.path if isinstance(hit, Located) else _file_named(facts),
        "host": facts.remote[0] if facts.remote is not None else "",
        "branch": ", ".join(facts.branches()) if rule.branch is not None else "",
    }
    try:
        return rule.reason.format_map(fields)
    except (KeyError, ValueError, IndexError):
        return rule.reason


def _file_named(facts: Facts) -> str:
    """The file a file tool's piece names, for a rule that holds by a mark alone (an edit
    that switches a protection off names the file it edits)."""
    piece = facts.piece
    return piece.args[0] if piece.tool != "bash" and piece.args else ""


def load_rules(source: str | Path) -> list[Rule]:
    """Rules from a YAML file: a list, or a mapping with ``rules:`` (a key written twice in
    one mapping is an error that names its line)."""
    data = yaml.load(Path(source).read_text(encoding="utf-8"), Loader=_OnceLoader)
    if isinstance(data, list):
        return _once(_RULES.validate_python(data))
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
    rules = _PackFile.model_validate(yaml.load(text, Loader=_YAML_LOADER)).rules
    return Policy(rules, frozenset(LOSS_RULES))


@functools.lru_cache(maxsize=64)
def compile_policy(
    pack: str, rules: tuple[Rule, ...] = (), disable: tuple[str, ...] = ()
) -> Policy:
    """``pack`` extended by ``rules`` without the ``disable`` ids, compiled once for every
    session that configures the same (rules are frozen, so the key is their content)."""
    return load_pack(pack).extend(rules, disable)


def judge(call: ToolCall | Mapping[str, Any], policy: Policy, places: Places,
          repo: RepoFacts | None = None,
          mcp_table: ToolTable | None = None) -> Verdict:  # fmt: skip
    """The decision on one tool call (a `ToolCall` or ``tool:pre`` event data). Pure:
    ``repo`` is what git said of the paths it names (`losses.asks_of`, `repo.ask_git`;
    None: nothing, so no delete, discard or overwrite of work is granted); ``mcp_table``:
    what MCP tools' arguments are (default: the pack's table)."""
    call_memo = begin()
    try:
        refresh(places)  # once per call, however many pieces and paths
        command, pieces, unreadable = pieces_of_call(call, places, mcp_table)
        if unreadable is not None:
            return unreadable
        return _judged(command, pieces, policy, places, repo)
    finally:
        end(call_memo)


def judge_pieces(command: str | None, pieces: tuple[Piece, ...], policy: Policy,
                 places: Places, repo: RepoFacts | None = None) -> Verdict:  # fmt: skip
    """`judge` of the pieces `pieces_for` found (ah-guard asks git about them first)."""
    call_memo = begin()
    try:
        refresh(places)
        return _judged(command, pieces, policy, places, repo)
    finally:
        end(call_memo)


def _judged(command: str | None, pieces: tuple[Piece, ...], policy: Policy,
            places: Places, repo: RepoFacts | None) -> Verdict:  # fmt: skip
    facts = tuple([Facts(p, places) for p in pieces])  # the losses layer reads them too
    verdicts = tuple([
        (policy.for_ci_steps() if CI_STEP in f.piece.wrappers else policy)._decided(f)
        for f in facts
    ])  # fmt: skip
    if len(verdicts) > 1 and all(v.decision == "allow" for v in verdicts):
        late = links_then_changes(pieces)
        if late is not None:
            why = "not granted: an earlier part of this command may place a link on its way"
            verdicts = tuple(
                PieceVerdict(v.text, v.program, None, None, why) if i == late else v
                for i, v in enumerate(verdicts)
            )
    if policy.builtin:
        verdicts = review_losses(facts, verdicts, repo, command, policy.builtin)
    for piece in pieces:  # (a loop, not any(): this runs for every call)
        if PLANTED in piece.wrappers:  # said as planting: `planted`
            verdicts = planted_verdicts(pieces, verdicts, lambda p: policy._decide(p, places))
            break
    verdict = combine(verdicts)
    # (nothing is stronger than a deny, and a command that is its own lower case would be
    # judged the same again: then the lower case need not be judged)
    if (
        verdict.decision != "deny"
        and command is not None
        and command != command.lower()
        and any(_upper(p) for p in pieces)
    ):
        verdict = _folded(verdict, command, policy, places, repo)
    return verdict


def _pushes(branch: re.Pattern[str], names: tuple[str, ...], pushed: tuple[str, ...]) -> bool:
    """Whether a push updates a branch a rule names, directly or by a pattern refspec."""
    return any(branch.match(b) for b in pushed) or pattern_pushes(names, pushed)


def _upper(piece: Piece) -> bool:
    program = piece.program
    return (
        program is not None
        and not program.islower()
        and program.lower() != program
        and program not in _CASED
    )


_CASED = frozenset({"R", "Rscript"})
"""Programs the guard knows by a name with capitals: judged by that name already (the
lower case of the whole command would read their code as paths, ``print(d$arm)``)."""


def _folded(verdict: Verdict, command: str, policy: Policy, places: Places,
            repo: RepoFacts | None) -> Verdict:  # fmt: skip
    """``verdict``, or the deny or ask of the command in lower case when that is stronger:
    on a file system that ignores case (macOS, Windows) ``FIND`` runs ``find``. A grant
    still needs the exact name."""
    lowered = judge({"tool_name": "bash", "tool_input": {"command": command.lower()}},
                    policy, places, repo)  # fmt: skip
    if lowered.decision in ("deny", "ask") and (
        DECISION_RANK[lowered.decision] > DECISION_RANK[verdict.decision]
    ):
        return lowered
    return verdict


def combine(verdicts: tuple[PieceVerdict, ...]) -> Verdict:
    """deny > ask > allow over pieces; allow only when every piece is allowed."""
    if not verdicts:
        return _NO_OPINION
    best = verdicts[0]
    top = DECISION_RANK[best.decision]
    for verdict in verdicts:
        rank = DECISION_RANK[verdict.decision]
        if rank > top:
            best, top = verdict, rank
    decision = best.decision
    if decision == "allow":
        for verdict in verdicts:
            if verdict.decision is None:
                return Verdict(None, None, None, verdicts)
    return new_tuple(Verdict, (decision, best.rule, best.reason, verdicts))


_NO_OPINION = Verdict(None, None, None, ())
