"""The guard: shell-aware rules that judge what a tool call does, not how it is spelled.

Pure: a tool call, the compiled rules (`Policy`) and the places (workspace, home,
protected files) in; a `Verdict` (deny, ask, allow or no opinion, with the rule and a
reason per piece) out. `parse_command` reads a shell command as bash would (tree-sitter-
bash), sees through wrappers (``sudo``, ``env``, ``sh -c``, ``xargs``, ``find -exec``...);
`load_pack` loads the shipped rules. The hook module ``ah-guard`` applies it.
See docs/guard.md.
"""

from amplifier_hooks.guard.calls import ToolCall
from amplifier_hooks.guard.model import (
    Decision,
    ParsedCommand,
    Piece,
    PieceVerdict,
    Places,
    Verdict,
)
from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.policy import (
    PACKS,
    Policy,
    combine,
    compile_policy,
    judge,
    load_pack,
    load_rules,
)
from amplifier_hooks.guard.rules import Rule

__all__ = [
    "PACKS",
    "Decision",
    "ParsedCommand",
    "Piece",
    "PieceVerdict",
    "Places",
    "Policy",
    "Rule",
    "ToolCall",
    "Verdict",
    "combine",
    "compile_policy",
    "judge",
    "load_pack",
    "load_rules",
    "parse_command",
]
