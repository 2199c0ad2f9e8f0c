"""A backslash and a newline inside a word, joined as bash joins them.

bash removes a backslash-newline pair before it splits words (outside single quotes), so
``r\\<newline>m -rf ~`` runs ``rm -rf ~``. The syntax tree splits the word there instead
(``r``, then ``m``), and the program would be misnamed. Only a pair inside a word is joined
(a character other than a blank on both sides): the usual continuation after a blank
(``docker run \\<newline>  -it x``) already splits words where bash does. A line with a
here-document is left as it is (its body keeps or joins the pair by its delimiter's
quoting), and so is a comment.
"""

from __future__ import annotations

__all__ = ["joined"]

_BLANKS = frozenset(" \t\n")


def joined(text: str) -> str:
    """``text`` with each backslash-newline inside a word removed (``text`` itself when
    there is none, or a here-document)."""
    if "\\\n" not in text or "<<" in text:
        return text
    out: list[str] = []
    quote = ""  # "'" or '"' while inside one
    i, size = 0, len(text)
    while i < size:
        char = text[i]
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "\\" and i + 1 < size:
            if text[i + 1] == "\n" and _inside_word(out, text, i + 2):
                i += 2
                continue
            out.append(text[i : i + 2])
            i += 2
            continue
        elif char == "#" and not quote and (not out or out[-1][-1:] in _BLANKS):
            end = text.find("\n", i)
            end = size if end < 0 else end
            out.append(text[i:end])
            i = end
            continue
        elif char in "'\"" and quote in ("", char):
            quote = "" if quote else char
        out.append(char)
        i += 1
    return "".join(out)


def _inside_word(out: list[str], text: str, after: int) -> bool:
    before = out[-1][-1:] if out else ""
    return (
        bool(before)
        and before not in _BLANKS
        and after < len(text)
        and (text[after] not in _BLANKS)
    )
