"""An edit that puts a literal value where the code read a secret from the environment.

``process.env.E2E_PASSWORD`` made ``'Hunter2-Prod!2024'``, ``os.environ["API_TOKEN"]`` made
``"tok_..."``, dbt's ``{{ env_var('SNOWFLAKE_PASSWORD') }}`` made ``"Tr4nsf0rm!"``: the
value is now in the source, committed with it and read by everyone who has the repository
(and by the model, which wrote it). An edit whose old text reads a variable named as a
secret (its name holds ``PASSWORD``, ``TOKEN``, ``SECRET``, ``KEY``...) and whose new text
no longer reads it but holds a quoted literal the old text did not is
marked `SECRET_INLINED` (asked). A value the shapes of `secret_shapes` know is judged by
them already, however it is written; this is the value no shape names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import edit_pairs

__all__ = ["SECRET_INLINED", "inlines_secret"]

SECRET_INLINED = "@secret-inlined"
_READ = re.compile(
    r"""(?:process\.env\.|process\.env\[\s*["'`]|import\.meta\.env\.|os\.environ\[\s*["']
       |os\.environ\.get\(\s*["']|os\.getenv\(\s*["']|getenv\(\s*["']|ENV\[\s*["']
       |ENV\.fetch\(\s*["']|System\.getenv\(\s*["']|GetEnvironmentVariable\(\s*["']
       |env::var\(\s*["']|os\.Getenv\(\s*["']|Cypress\.env\(\s*["']|env_var\(\s*["'])
       (?P<name>[A-Za-z_][A-Za-z0-9_]*)""",
    re.VERBOSE,
)
_SECRET_NAME = re.compile(r"PASS|SECRET|TOKEN|KEY|CREDENTIAL|AUTH|PWD", re.I)
_LITERAL = re.compile(r"""(["'`])([^"'`\s]{6,})\1""")
_MAX_TEXT = 64 * 1024


def inlines_secret(inputs: Mapping[str, Any]) -> bool:
    """Whether a file tool's edit ``inputs`` replace a read of a secret's variable with a
    literal value."""
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        read = {m.group("name") for m in _READ.finditer(old)}
        secret = {name for name in read if _SECRET_NAME.search(name)}
        if not secret:
            continue
        still = {m.group("name") for m in _READ.finditer(new)}
        if secret <= still:
            continue
        old_literals = {m.group(2) for m in _LITERAL.finditer(old)}
        if any(m.group(2) not in old_literals for m in _LITERAL.finditer(new)):
            return True
    return False
