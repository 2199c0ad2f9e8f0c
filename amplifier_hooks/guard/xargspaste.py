"""``xargs -I{} sh -c 'cd packages/{} && npm test'``: the script a shell runs once per line
of xargs's input, with the replace string in it. The guard cannot see the lines, so the
call is asked (`unwrap`); but the script around them is known, and read with each
``{}`` an unknown word, its other commands are judged, and where the input is only a
listing of project paths (`listers`) they are the whole story (`flow`).
"""

from __future__ import annotations

from amplifier_hooks.guard.words import Word

__all__ = ["ITEM", "PASTES", "pasted_script"]

PASTES = "xargs pastes its input into the script"
"""The start of the reason a shell's script under ``xargs -I`` is opaque."""
ITEM = "${XARGS_ITEM}"
"""What stands for a line of xargs's input in the script: a word the shell computes."""


def pasted_script(options: tuple[Word, ...], script: Word) -> str | None:
    """The script with xargs's replace string (``-I R``, ``-IR``, ``-i``, ``--replace``)
    as an unknown word; None where the options or the script are not literal text."""
    if script.dynamic or any(w.dynamic for w in options):
        return None
    replace: str | None = None
    texts = [w.text for w in options]
    for index, text in enumerate(texts):
        if text == "-I" and index + 1 < len(texts):
            replace = texts[index + 1]
        elif text.startswith("-I") and len(text) > 2:
            replace = text[2:]
        elif text in ("-i", "--replace"):
            replace = "{}"
        elif text.startswith(("-i", "--replace=")):
            replace = text.split("=", 1)[1] if text.startswith("--") else text[2:]
    if not replace or replace not in script.text:
        return None
    return script.text.replace(replace, ITEM)
