"""Python names spelled in look-alike characters: ``shutil.rmtree(...)`` with ``rmtree`` in
fullwidth letters (U+FF52 U+FF4D ...).

Python reads an identifier after NFKC normalisation, so a name written in fullwidth or
other compatibility letters is the ASCII name it normalises to: the call runs, while a
person (or a screen for ``rmtree``, ``system``) reading the text sees other characters.
No ordinary code spells an ASCII name that way, so such a name is itself the finding
(`DISGUISED`, rule ``app-disguised-names``). Letters of other scripts that stay as they
are (``π``, ``données``), and look-alikes inside strings and comments, are not names of
this kind: only the tokens Python reads as names count.
"""

from __future__ import annotations

import io
import tokenize
import unicodedata

__all__ = ["DISGUISED", "disguised_names"]

DISGUISED = "disguised-names"
"""The language of a planted piece that names what the disguised names read as."""
_MAX_NAMES = 8


def disguised_names(text: str) -> list[str]:
    """The ASCII names ``text``'s Python identifiers in look-alike characters read as
    (fullwidth ``rmtree`` is ``rmtree``), in order, at most `_MAX_NAMES`; empty when there are
    none or the text does not tokenize."""
    if text.isascii():
        return []
    found: list[str] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            name = token.string
            if token.type != tokenize.NAME or name.isascii():
                continue
            normal = unicodedata.normalize("NFKC", name)
            if normal != name and normal.isascii() and normal not in found:
                found.append(normal)
                if len(found) >= _MAX_NAMES:
                    break
    except (tokenize.TokenError, SyntaxError, ValueError):
        return found
    return found
