"""What an expanded heredoc or here-string does besides feeding its text. Bash expands a
heredoc whose word is unquoted (``<<EOF``, not ``<<'EOF'``) as it would a double-quoted
string, so a backtick pair in its body runs a command before the reader sees a line, but
the grammar keeps such a body plain text (it finds ``$(...)`` there, never backticks):
``cat <<EOF > notes.md`` with `` `make` `` in its text runs make. And the text fed is the
value of the variables in it: ``cat <<< "$GITHUB_TOKEN"`` prints the token as ``echo
"$GITHUB_TOKEN" | cat`` does, so a text naming a secret's variable is judged as that echo
(`SECRET_VARIABLE` screens: the pack's rules decide). A text that expands any other
variable passes its value on as ``echo "$NAME"`` does, which is never granted (its value
may be a secret the rules cannot name: ``cat <<< "$DB_PASS"``), so it is judged as the
echo of those variables alone (`passed_values`)."""

from __future__ import annotations

import re

__all__ = ["SECRET_VARIABLE", "backtick_scripts", "expands", "passed_values"]

SECRET_VARIABLE = re.compile(
    r"\$\{?[A-Za-z0-9_]*(?:SECRET|TOKEN|PASSW|API_?KEY|AUTH|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL"
    r"|DATABASE_URL|DB_URL|_DSN|CONNECTION_STRING)"
)
"""A variable whose name says it holds a secret (the words of the pack's
``secret-variable-print``), expanded in a text: only such a text is judged as an echo."""

_QUOTES = frozenset("'\"\\")
_EXPANSION = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
_READ_AS_WORDS = frozenset({"HOME"})
"""Variables the walk reads as it reads them in a word (``$HOME``: the home folder)."""


def passed_values(text: str) -> str | None:
    """The variables an expanded ``text`` passes on, as the words ``echo`` would print
    (``$DB_PASS $USER``), or None when it names none but those read as words."""
    names = dict.fromkeys(n for n in _EXPANSION.findall(text) if n not in _READ_AS_WORDS)
    return " ".join(f"${n}" for n in names) or None


def expands(start: str) -> bool:
    """Whether a heredoc whose word is ``start`` (``EOF``, ``'EOF'``, ``"EOF"``, ``\\EOF``)
    has its body expanded: any quoting of the word keeps the body literal."""
    return _QUOTES.isdisjoint(start)


def backtick_scripts(body: str) -> list[str]:
    """The command texts of ``body``'s backtick pairs, as bash reads them in an expanded
    heredoc: ``\\``` is a literal backtick outside a pair; inside one, ``\\```, ``\\$`` and
    ``\\\\`` stand for the character after the backslash. An unclosed pair runs the rest
    (bash reports the error only after reading it), so it is judged all the same."""
    if "`" not in body:
        return []
    found: list[str] = []
    at, size = 0, len(body)
    while at < size:
        char = body[at]
        if char == "\\":
            at += 2
            continue
        if char != "`":
            at += 1
            continue
        inner: list[str] = []
        at += 1
        while at < size and body[at] != "`":
            if body[at] == "\\" and at + 1 < size and body[at + 1] in "`$\\":
                at += 1
            inner.append(body[at])
            at += 1
        found.append("".join(inner))
        at += 1
    return [text for text in found if text.strip()]
