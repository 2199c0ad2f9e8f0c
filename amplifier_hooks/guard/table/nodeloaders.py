"""Node's module-loading options given a ``data:`` URL: the module is the URL's own text.

``node --import=data:text/javascript,CODE app.js`` (also ``--require``/``-r``,
``--loader``, ``--experimental-loader``, in ``NODE_OPTIONS`` as on the command line) runs
CODE before the program, as ``node -e CODE`` would: that command is what the parser reads
and the rules judge (the inline code rules, and the acts of the code the reader sees).
"""

from __future__ import annotations

import base64
import binascii
import shlex
from urllib.parse import unquote

__all__ = ["loaded_code_commands"]

_LOADERS = frozenset({"--import", "--require", "-r", "--loader", "--experimental-loader"})
_MAX_CODE = 64_000


def loaded_code_commands(args: tuple[str, ...]) -> tuple[str, ...]:
    """``node -e CODE`` for each ``data:`` URL node's loading options give it, before
    its script (the script's own arguments are not node's)."""
    found: list[str] = []
    index = 0
    while index < len(args):
        name, equals, value = args[index].partition("=")
        if not args[index].startswith("-"):
            break  # the script: what follows is its own
        index += 1
        if name not in _LOADERS:
            continue
        if not equals:
            if index >= len(args):
                break
            value, index = args[index], index + 1
        code = _data_code(value)
        if code is not None:
            found.append(f"node -e {shlex.quote(code)}")
    return tuple(found)


def _data_code(url: str) -> str | None:
    """The text a ``data:`` URL holds (percent-decoded, or base64 with ``;base64``);
    None for any other URL or one that does not decode."""
    if url[:5].lower() != "data:" or "," not in url:
        return None
    media, _, body = url[5:].partition(",")
    if media.lower().endswith(";base64"):
        try:
            text = base64.b64decode(unquote(body), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            return None  # (the piece itself is still asked as inline code)
    else:
        text = unquote(body)
    return text[:_MAX_CODE] or None
