"""AppleScript given to ``osascript``: the shell commands it runs, and the few statements
that do nothing but show or quit something.

AppleScript hands a command to a shell with ``do shell script "..."`` (as root when
``with administrator privileges`` follows) and to a Terminal window with ``do script
"..."``; JavaScript for Automation with ``doShellScript("...")``. A command written out
as a literal is judged like any other (`codecalls.shell_commands`), so it can only add to
the verdict. Code whose every statement is a notification, a beep, a delay or an app told
to quit or come to the front is quiet (`read_applescript`): not asked as inline code, and
never granted. Anything else is not read, and stays asked.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.codeacts import MAX_CODE, NOT_READ, CodeReading

__all__ = ["applescript_commands", "quiet_osascript_options", "read_applescript"]

_TEXT = r'"((?:[^"\\]|\\.)*)"'
"""An AppleScript string: double quotes, backslash escapes."""
_SHELL = re.compile(rf"\bdo\s+shell\s+script\s+{_TEXT}(?=([^\n\r]*))", re.IGNORECASE)
"""``do shell script "CMD" [with administrator privileges]``: CMD, and the rest of its line."""
_TERMINAL = re.compile(rf"\bdo\s+script\s+{_TEXT}", re.IGNORECASE)
"""Terminal's ``do script "CMD"``: CMD typed into a window."""
_JXA = re.compile(r"""\bdoShellScript\s*\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""")
"""JavaScript for Automation's ``app.doShellScript("CMD")``."""
_ADMIN = re.compile(r"\badministrator\s+privileges\b", re.IGNORECASE)


def _unescaped(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def applescript_commands(code: str) -> list[str]:
    """The shell commands ``code`` spells out as literals (``sudo CMD`` for one run with
    administrator privileges)."""
    found: list[str] = []
    for match in _SHELL.finditer(code):
        command = _unescaped(match.group(1))
        found.append("sudo " + command if _ADMIN.search(match.group(2) or "") else command)
    found.extend(_unescaped(m.group(1)) for m in _TERMINAL.finditer(code))
    for match in _JXA.finditer(code):
        found.append(_unescaped(match.group(1) if match.group(1) is not None else match.group(2)))
    return found


_APP = r'application\s+(?:id\s+)?"[^"\\]*"'
_QUIET = re.compile(
    r"(?:display\s+notification\s+\"[^\"\\]*\"(?:\s+(?:with\s+title|subtitle|sound\s+name)"
    r"\s+\"[^\"\\]*\")*"
    r"|beep(?:\s+\d+)?"
    r"|delay\s+\d+(?:\.\d+)?"
    rf"|tell\s+{_APP}\s+to\s+(?:quit|activate)"
    rf"|(?:quit|activate)\s+{_APP})",
    re.IGNORECASE,
)
"""The statements that only show something or quit or raise an app: nothing else."""


def read_applescript(code: str) -> CodeReading:
    """``code`` read as AppleScript: quiet when every line is one of `_QUIET`, else not
    read (no act is claimed for it: a shell command it spells out is judged on its own)."""
    if len(code) > MAX_CODE:
        return NOT_READ
    lines = [line.strip() for line in re.split(r"[\n\r]+", code)]
    statements = [line for line in lines if line and not line.startswith("--")]
    if statements and all(_QUIET.fullmatch(s) for s in statements):
        return CodeReading(parsed=True, quiet=True)
    return NOT_READ


def quiet_osascript_options(args: tuple[str, ...]) -> bool:
    """``osascript -e CODE [-e CODE]...`` and nothing else: no script file, no other
    language (``-l JavaScript``), no arguments handed to the script."""
    if not args or len(args) % 2:
        return False
    return all(args[index] == "-e" for index in range(0, len(args), 2))
