"""An edit that makes a page print a value as HTML, unescaped.

Templates escape what they print; ``<%= raw comment.body %>``, ``.html_safe``,
``@Html.Raw(Model.Bio)``, ``{!! $post->body !!}``, ``{{ body|safe }}``, React's
``dangerouslySetInnerHTML``, Vue's ``v-html`` print it as markup, so a comment or a
profile whose text holds a ``<script>`` runs it in every reader's session (a stored XSS).
An edit that adds such a print of a value (a literal string's is the page's own markup),
where the old text escaped or sanitized it or did not print it so, is marked
`HTML_UNESCAPED` (asked). A test's file renders for no reader and is not read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs
from amplifier_hooks.guard.testpaths import test_code

__all__ = ["HTML_UNESCAPED", "prints_unescaped"]

HTML_UNESCAPED = "@html-unescaped"
_RAW = re.compile(
    r"<%==|<%=\s*raw\s*\(?\s*(?![\"'])[@\w]|\.html_safe\b|@Html\.Raw\(\s*(?![\"'])\w"
    r"|\{!!\s*(?:\$|request\(|old\(|html_entity_decode\(|input\()|\{\{[^}\n]*\|\s*safe\s*\}\}|\bdangerouslySetInnerHTML\s*=\s*\{\{\s*__html\s*:"
    r"\s*(?![\"'`])\w|\bv-html\s*=|\bMarkup\(\s*(?![\"'])\w|\bmark_safe\(\s*(?![\"'])\w"
    r"|\binnerHTML\s*=\s*(?![\"'`])\w|\btemplate\.HTML\(\s*(?![\"'`])\w"
    r"|\bautoescape_on\(\s*vec!\[\s*\]\s*\)|\bautoescape\s*=\s*False\b"
    r"|\btemplate\s*:\s*(?:props|this\.\$props|route|data)\.[\w.]+",
)
"""A value printed as markup, in the words of ERB, Razor, Blade, Jinja and Django, React,
Vue, Flask's ``Markup``, the DOM and Go's ``html/template``; a Vue component whose template
is a value it is given (compiled at run time: its ``{{ }}`` run as code)."""
_WORDS = ("<%=", "html_safe", "Html.Raw", "{!!", "safe", "dangerouslySetInnerHTML", "v-html",
          "Markup(", "innerHTML", "template.HTML", "autoescape", "template")  # fmt: skip
"""A word each of `_RAW`'s prints holds: a text with none is not read (a long write's cost)."""
_SANITIZED = re.compile(
    r"\b(?:sanitize|DOMPurify|bleach|escape|strip_tags|HtmlSanitizer)\w*"
    r"|->(?:links|render)\(|\b(?:csrf_field|method_field)\(",
    re.I,
)
"""A print whose value is cleaned first, or markup the framework builds itself (Laravel's
paginator's ``{!! $users->links() !!}``, ``{!! csrf_field() !!}``)."""
_MAX_TEXT = 64 * 1024


def prints_unescaped(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit adds a value printed as HTML, unescaped (module doc)."""
    if paths and all(test_code(p) for p in paths):
        return False
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT or not any(word in new for word in _WORDS):
            continue
        if not more(_RAW, old, new):
            continue
        added = [line for line in new.splitlines() if _RAW.search(line) and line not in old]
        if not any(_SANITIZED.search(line) for line in added):
            return True
    return False
