"""The redaction rules: what a secret (or a piece of PII) looks like in text. They live in
`amplifier_hooks.secret_shapes`, where the guard reads them too (a write that puts a
credential into the project is not granted), so each shape is written once."""

from amplifier_hooks.secret_shapes import (
    BUILTIN_RULES,
    MARKER_PREFIX,
    PII_RULES,
    SECRET_KEY,
    SECRET_RULES,
    Rule,
    describe_rule,
    marker,
)

__all__ = [
    "BUILTIN_RULES",
    "MARKER_PREFIX",
    "PII_RULES",
    "SECRET_KEY",
    "SECRET_RULES",
    "Rule",
    "describe_rule",
    "marker",
]
