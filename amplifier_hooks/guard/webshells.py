"""Server-side code that runs what a web request sends: a web shell or a backdoor written
into a PHP file (``<?php @eval($_POST['c']);``, ``shell_exec($_GET['cmd'])``,
``eval(base64_decode($_GET['x']))``, a log-in keyed on a magic header, an administrator
account the code makes for itself), or a server setting that makes PHP load a file
before every request (``auto_prepend_file`` in ``.htaccess``, ``.user.ini``, ``php.ini``).

Anyone who finds the URL then runs commands on the server, or the hidden file runs in
every page: written by an agent, it is code planted for strangers to run (`web-backdoor`).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece

__all__ = ["WEB_BACKDOOR", "web_backdoor_pieces"]

WEB_BACKDOOR = "@web-backdoor"

_PHP = re.compile(r"\.(?:php\d?|phtml|pht|phar|inc)$", re.IGNORECASE)
_SETTINGS = frozenset({".htaccess", ".user.ini", "php.ini"})
_REQUEST = (
    r"\$_(?:GET|POST|REQUEST|COOKIE|FILES|SERVER\s*\[\s*['\"]HTTP_)|getallheaders\s*\(|php://input"
)
_RUNNERS = (
    r"\b(?:eval|assert|system|shell_exec|passthru|exec|popen|proc_open|pcntl_exec|"
    r"create_function|call_user_func(?:_array)?|include|include_once|require|require_once)\b"
)
_RUNS_REQUEST = re.compile(rf"{_RUNNERS}\s*\(?[^;]{{0,200}}?(?:{_REQUEST})", re.IGNORECASE)
"""A function that runs code or a command given the request's input in the same statement."""
_HIDDEN_EVAL = re.compile(
    r"\b(?:eval|assert)\s*\(\s*(?:@\s*)?(?:base64_decode|gzinflate|gzuncompress|gzdecode|"
    r"str_rot13|hex2bin|convert_uudecode)\s*\(",
    re.IGNORECASE,
)
"""Code run from text hidden in an encoding (the shape of every packed backdoor)."""
_BACKTICK = re.compile(rf"`[^`]*(?:{_REQUEST})[^`]*`", re.IGNORECASE)
_PREPEND = re.compile(r"\bauto_(?:prepend|append)_file\b", re.IGNORECASE)
_LOGIN = re.compile(
    r"\b(?:loginUsingId|onceUsingId|wp_set_auth_cookie|wp_set_current_user|login_user)\s*\(",
    re.IGNORECASE,
)
_KEYED = re.compile(
    rf"(?:{_REQUEST}|\$request->(?:header|input|query|get|cookie)\s*\(|request\(\)->"
    r"(?:header|input|query|get|cookie)\s*\()[^;{]{0,120}?[!=]==?\s*['\"]",
    re.IGNORECASE,
)
"""A log-in keyed on a literal the request carries: a magic header or parameter."""
_ADMIN = re.compile(r"\b(?:wp_create_user|wp_insert_user)\b[\s\S]{0,400}?administrator",
                    re.IGNORECASE)  # fmt: skip
"""A WordPress administrator account the code makes for itself (at every request)."""


_SCREEN = ("$_", "getallheaders", "php://", "$request", "request()", "eval", "assert",
           "wp_create_user", "wp_insert_user")  # fmt: skip
"""A word each pattern needs: most PHP an agent writes holds none, and is not searched."""


def web_backdoor_pieces(path: str, text: str) -> tuple[Piece, ...]:
    """A piece marked `WEB_BACKDOOR` when ``text`` written into ``path`` is such code or
    setting (none otherwise)."""
    name = path.rpartition("/")[2].lower()
    if _PHP.search(name):
        if not any(w in text for w in _SCREEN):
            return ()
        found = (
            _RUNS_REQUEST.search(text)
            or _HIDDEN_EVAL.search(text)
            or _BACKTICK.search(text)
            or _ADMIN.search(text)
            or (_LOGIN.search(text) and _KEYED.search(text))
            or None
        )
    elif name in _SETTINGS:
        found = _PREPEND.search(text)
    else:
        return ()
    if found is None:
        return ()
    why = f"{path} would run what a web request sends, or a hidden file, on the server"
    return (Piece(text=found.group(0)[:200], program=None, wrappers=(WEB_BACKDOOR,), doubt=why),)
