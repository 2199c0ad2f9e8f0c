"""JSON with comments, as VS Code and the dev container spec write it, whole or an edit's
part of it.

``.vscode/tasks.json`` and ``devcontainer.json`` allow ``//`` comments; an edit gives the
lines it changes, often a mapping's members without the braces around them (``"command":
"npm run build && ...",``). Both are read with the JSON parser: the text as it is, or else
its members inside braces, never with patterns over the values.
"""

from __future__ import annotations

import json
import re

__all__ = ["jsonc_data"]

_COMMENT = re.compile(r"^\s*//.*$", re.MULTILINE)


def jsonc_data(text: str) -> object:
    """The data of ``text`` (a whole JSON-with-comments text, or a run of a mapping's
    members); raises ValueError when it is neither."""
    bare = _COMMENT.sub("", text).strip()
    try:
        return json.loads(bare)
    except ValueError:
        if not bare.startswith('"'):
            raise
    return json.loads("{" + bare.rstrip(",") + "}")  # (ValueError: not members either)
