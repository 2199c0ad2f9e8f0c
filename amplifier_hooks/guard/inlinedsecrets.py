"""An edit that puts a literal value where the code read a secret from the environment.

``process.env.E2E_PASSWORD`` made ``'Hunter2-Prod!2024'``, ``os.environ["API_TOKEN"]`` made
``"tok_..."``, dbt's ``{{ env_var('SNOWFLAKE_PASSWORD') }}`` made ``"Tr4nsf0rm!"``: the
value is now in the source, committed with it and read by everyone who has the repository
(and by the model, which wrote it). An edit whose old text reads a variable named as a
secret (its name holds ``PASSWORD``, ``TOKEN``, ``SECRET``, ``KEY``...) and whose new text
no longer reads it but holds a quoted literal the old text did not is marked
`SECRET_INLINED` (asked), and so is one that hands a command's secret option a literal
(``--keychain-profile AC_NOTARY`` made ``--password "abcd-efgh-ijkl-mnop"``). A value the
shapes of `secret_shapes` know is judged by them already, however it is written; this is the
value no shape names. A password given a literal that reads as a real one (three kinds of
character of lower case, upper case, digits and signs; no placeholder) where the old text
had none (``Password=Pr0d!Sa#2024;`` in a connection string, ``DB_PASSWORD =
"Xk9#..."``) is marked too; tests, examples and docs are not read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import change_pairs, edit_pairs

__all__ = ["SECRET_INLINED", "inlines_secret"]

SECRET_INLINED = "@secret-inlined"
_READ = re.compile(
    r"""(?:process\.env\.|process\.env\[\s*["'`]|import\.meta\.env\.|os\.environ\[\s*["']
       |os\.environ\.get\(\s*["']|os\.getenv\(\s*["']|getenv\(\s*["']|ENV\[\s*["']
       |ENV\.fetch\(\s*["']|System\.getenv\(\s*["']|System\.(?:get|fetch)_env!?\(\s*["']
       |GetEnvironmentVariable\(\s*["']
       |env::var\(\s*["']|os\.Getenv\(\s*["']|Cypress\.env\(\s*["']|env_var\(\s*["']
       |\$\{(?:env:)?|\$\{\{\s*secrets\.)
       (?P<name>[A-Za-z_][A-Za-z0-9_]*)""",
    re.VERBOSE,
)
_SECRET_NAME = re.compile(
    r"PASS|SECRET|TOKEN|KEY|CREDENTIAL|AUTH|PWD|MNEMONIC|SEED_PHRASE|RPC_URL", re.I
)
"""A variable that holds a secret (a wallet's mnemonic, an RPC URL with its API key)."""
_NAME_ONLY = re.compile(r"[A-Z][A-Z0-9_]*")
"""A literal that names a variable or a stored secret (Hardhat's ``vars.get("KEY")``)."""
_LITERAL = re.compile(r"""(["'`])([^"'`\s]{6,})\1""")
_OPTION = re.compile(
    r"""--(?:password|passwd|pass|token|api-key|api_key|apikey|secret|client-secret"""
    r"""|access-token|auth-token)(?:=|\s+)(?P<q>["']?)(?P<value>[^\s"'$@{<][^\s"']{5,})(?P=q)"""
    r"""(?=\s|$|\\)""",
    re.I,
)
"""A literal handed to a command's secret option (``notarytool --password "abcd-efgh-..."``),
not a variable's value, a file (``@file``) or a keychain reference (``@keychain:``)."""
_PASSWORD = re.compile(
    r"""(?i)(?:^|[\s;{,("'])[\w.-]*pass(?:word|wd)?["']?\s*[:=]\s*(?P<q>["']?)"""
    r"""(?P<value>[^\s"';,}<>$]{8,})"""
)
"""A password's key (``Password=``, ``DB_PASSWORD =``, ``password:``) given a literal."""
_PLACEHOLDER = re.compile(
    r"(?i)change|example|sample|dummy|placeholder|redacted|secret|password|your|xxx|\*\*|\.\.\.|"
    r"test|fake|todo|env|\{|%"
)
_CODE = re.compile(r"\(|\[|^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
"""A value that is code (a call, an index, ``settings.DB_PASSWORD``), not a literal."""
_KINDS = (re.compile(r"[a-z]"), re.compile(r"[A-Z]"), re.compile(r"\d"), re.compile(r"[^\w]"))
_NOT_READ = re.compile(
    r"(?:^|/)(?:tests?|spec|__tests__|fixtures?|examples?|docs?)/|\.(?:md|rst|txt|example|sample"
    r"|template|dist)$|(?:^|/)\.env[^/]*$|[._-](?:test|spec)\.\w+$",
    re.I,
)
_MAX_TEXT = 64 * 1024


def inlines_secret(inputs: Mapping[str, Any], paths: tuple[str, ...] = ()) -> bool:
    """Whether a file tool's edit ``inputs`` (of ``paths``) replace a read of a secret's
    variable with a literal value, or give a password a literal that reads as a real one."""
    if not (paths and all(_NOT_READ.search(p) for p in paths)):
        for old, new in change_pairs(inputs):
            if len(old) + len(new) <= _MAX_TEXT and _password_given(old, new):
                return True
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        given = {m.group("value") for m in _OPTION.finditer(old)}
        if any(m.group("value") not in given for m in _OPTION.finditer(new)):
            return True  # a script's `--password 'literal'` where none was
        read = {m.group("name") for m in _READ.finditer(old)}
        secret = {name for name in read if _SECRET_NAME.search(name)}
        if not secret:
            continue
        still = {m.group("name") for m in _READ.finditer(new)}
        if secret <= still:
            continue
        old_literals = {m.group(2) for m in _LITERAL.finditer(old)}
        if any(
            m.group(2) not in old_literals
            and "${" not in m.group(2)  # (a reference still)
            and not _NAME_ONLY.fullmatch(m.group(2))  # `vars.get("DEPLOYER_KEY")`: a name
            for m in _LITERAL.finditer(new)
        ):
            return True
    return False


def _password_given(old: str, new: str) -> bool:
    """Whether ``new`` gives a password a literal ``old`` does not hold, one that reads as
    a real password (three kinds of character, no placeholder)."""
    for found in _PASSWORD.finditer(new):
        value = found["value"]
        if value in old or _PLACEHOLDER.search(value) or _CODE.search(value):
            continue
        if sum(1 for kind in _KINDS if kind.search(value)) >= 3:
            return True
    return False
