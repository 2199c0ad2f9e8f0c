"""The code mobile build files hold: what Xcode, CocoaPods, fastlane and Gradle run, or
fetch and run, of their own accord.

Xcode runs a scheme's pre- and post-action scripts (``scriptText`` of a
``ShellScriptAction`` in a ``.xcscheme``) and a target's run-script phases
(``shellScript`` in ``project.pbxproj``) at every build; ``pod install`` evaluates the
Podfile (Ruby) and the podspecs of the sources it names; fastlane evaluates the Fastfile
(Ruby, with ``sh`` to run commands) and the lanes it imports; ``./gradlew`` downloads and
runs the distribution ``gradle-wrapper.properties`` names, and Gradle runs its build
scripts, the scripts they apply and the plugins of the repositories they list.

Each reader gives (language, code) pairs for `planted`: ``shell`` scripts, ``ruby`` or
``fastlane`` code, and two kinds of fetched code: `FETCHED_SCRIPT` (a URL whose code runs
as it is, unreviewed and unpinned: a script applied from a URL, a wrapper distribution
from another host than Gradle's) and `FETCHED_SOURCE` (a dependency source a person
should confirm: a pod or fastlane lanes from a git URL, a plugin repository on plain
http). The text is a build file's, not a shell command line: its literals are found by
their shapes (the file formats are not grammars the guard has).
"""

from __future__ import annotations

import html
import re
import shlex
import textwrap
from urllib.parse import urlsplit

__all__ = ["FETCHED_SCRIPT", "FETCHED_SOURCE", "fastfile_code", "gradle_code", "pbxproj_code",
           "podfile_code", "wrapper_code", "xcscheme_code"]  # fmt: skip

FETCHED_SCRIPT = "fetched-script"
"""Code fetched from a URL and run as it is, at every build."""
FETCHED_SOURCE = "fetched-source"
"""A source code is fetched from at install or build time, for a person to confirm."""

Code = list[tuple[str, str]]

# -- Xcode ----------------------------------------------------------------------------------

_SCRIPT_TEXT = re.compile(r"""\bscriptText\s*=\s*(?:"([^"]*)"|'([^']*)')""")
"""A scheme action's script: an XML attribute (entities escaped)."""
_SHELL_SCRIPT = re.compile(r'\bshellScript\s*=\s*"((?:[^"\\]|\\.)*)"')
"""A build phase's script: an old-style property list string (C escapes)."""
_PLIST_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'"}


def xcscheme_code(text: str) -> Code:
    """The scripts a scheme's pre- and post-actions run (``scriptText``)."""
    return [("shell", _with_settings(html.unescape(a or b))) for a, b in _SCRIPT_TEXT.findall(text)]


def pbxproj_code(text: str) -> Code:
    """The scripts a project's run-script build phases run (``shellScript``)."""
    return [("shell", _with_settings(_plist_string(s))) for s in _SHELL_SCRIPT.findall(text)]


_SETTING = re.compile(r"\$\{([A-Z][A-Z0-9_]*)\}|\$([A-Z][A-Z0-9_]*)\b")
_ASSIGNED = re.compile(r"^\s*(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=", re.MULTILINE)
_OWN_VARIABLES = frozenset({"HOME", "PWD", "OLDPWD", "USER", "LOGNAME", "SHELL", "PATH",
                            "TMPDIR", "IFS", "CDPATH", "ENV", "BASH_ENV", "ZDOTDIR"})  # fmt: skip
"""Variables a script gets from the person's environment, kept as they are."""


_LITERAL = re.compile(
    r"""^\s*(?:export\s+)?([A-Z][A-Z0-9_]*)=(?:"([^"$`\\]*)"|'([^']*)'|([^\s"'$`\\;&|<>()]+))\s*$""",
    re.MULTILINE,
)
"""``NAME="value"`` on a line of its own, the value with nothing the shell expands."""


def _literals(script: str) -> dict[str, str]:
    return {m.group(1): m.group(2) or m.group(3) or m.group(4) or ""
            for m in _LITERAL.finditer(script)}  # fmt: skip


def _with_settings(script: str) -> str:
    """``script`` with Xcode's build settings (``$SRCROOT``, ``${PODS_ROOT}``,
    ``${SCRIPT_OUTPUT_FILE_0}``: the upper-case names the script does not set, which
    Xcode sets for it to folders of the project and its build) as words of the project,
    as a Makefile's variables set elsewhere are (`makefiles`). What is left is judged
    (a grant is never given): ``$HOME`` stays the home folder; in a script that climbs
    (``$PROJECT_DIR/../..``) the settings stay unknown, as the shell has them. A name
    the script sets once to a literal is that literal (React Native's ``$WITH_ENVIRONMENT``)."""
    names = _ASSIGNED.findall(script)
    assigned = set(names)
    literal = {n: v for n, v in _literals(script).items() if names.count(n) == 1}
    climbs = "/.." in script  # a setting's folder climbed out of: which one is not known

    def word(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name in literal:  # set once to a literal: its value, as the shell reads it
            return literal[name]
        if name in assigned or name in _OWN_VARIABLES or climbs:
            return match.group(0)
        return f"xcode-setting-{name.lower()}"

    return _SETTING.sub(word, script)


def _plist_string(quoted: str) -> str:
    """An old-style property list string's text, its backslash escapes undone."""
    return re.sub(r"\\(.)", lambda m: _PLIST_ESCAPES.get(m.group(1), m.group(1)), quoted)


# -- CocoaPods and fastlane (Ruby) ----------------------------------------------------------

_POD_GIT = re.compile(
    r"""^\s*pod\s+['"][^'"]+['"][^\n]*?(?::git\s*=>|\bgit:)\s*['"]([^'"]+)['"]""", re.MULTILINE
)
"""A pod taken from a git repository (``pod 'X', :git => 'URL'``): its podspec (Ruby)
is evaluated and its code built into the app."""
_IMPORT_FROM_GIT = re.compile(r"""\bimport_from_git\b[^\n]*?\burl:\s*['"]([^'"]+)['"]""")
"""fastlane's ``import_from_git(url: ...)``: lanes cloned and evaluated at each run."""


def podfile_code(text: str) -> Code:
    """A Podfile's Ruby (``pod install`` runs it: ``post_install`` hooks and all) and
    the git sources of its pods."""
    return [("ruby", textwrap.dedent(text)),
            *((FETCHED_SOURCE, url) for url in _POD_GIT.findall(text))]  # fmt: skip


def fastfile_code(text: str) -> Code:
    """A Fastfile's Ruby (fastlane runs it: ``before_all`` and lanes) and the git
    repositories it imports lanes from."""
    return [("fastlane", textwrap.dedent(text)),
            *((FETCHED_SOURCE, url) for url in _IMPORT_FROM_GIT.findall(text))]  # fmt: skip


# -- Gradle ---------------------------------------------------------------------------------

_STRING = r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*" """.strip()
_QUOTED = re.compile(r"""'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)" """.strip())
_WORDS = rf"(?:\s*(?:{_STRING})\s*,?)+"
_EXEC_CALL = re.compile(
    rf"(?:\.exec|\bProcessBuilder)\s*\(\s*(?:arrayOf\s*\(|listOf\s*\(|new\s+String\s*\[\s*\]\s*\{{|\[)?({_WORDS})"
)
"""``Runtime.getRuntime().exec("...")`` or ``exec(arrayOf(...))`` (Kotlin),
``exec(new String[]{...})`` / ``exec([...])`` (Groovy), ``ProcessBuilder(...)``."""
_EXECUTE = re.compile(rf"(?:\[({_WORDS})\]|({_STRING}))\s*\.execute\s*\(")
"""Groovy's ``"cmd".execute()`` and ``['sh', '-c', '...'].execute()``."""
_DELETE = re.compile(rf"(?<![\w.])(?:project\.)?delete\s*(?:\(|\s)\s*({_WORDS})")
"""A ``Delete`` task's or ``project.delete``'s literal paths: ``delete("build/gen", ".x")``
(Kotlin), ``delete 'build/gen'`` (Groovy); they go as ``rm -rf`` removes them."""
_HOME = (
    r"""(?:System\.getProperty\s*\(\s*["']user\.home["']\s*\)"""
    r"""|System\.getenv\s*\(\s*["']HOME["']\s*\))"""
)
_DELETE_HOME = re.compile(rf"(?<![\w.])(?:project\.)?delete\s*(?:\(|\s)\s*"
                          rf"(?:(?:file|File)\s*\(\s*)?{_HOME}"
                          rf"\s*(?:\+\s*({_STRING}))?")  # fmt: skip
"""``delete(System.getProperty("user.home"))``: the home folder (or a path below it,
``+ "/.ssh"``), which a ``Delete`` task removes as ``rm -rf "$HOME"`` does."""
_APPLY_FROM = re.compile(rf"\bapply\s*\(?\s*from\s*[:=]\s*(?:uri\s*\(\s*)?({_STRING})")
"""``apply from: 'URL'`` (Groovy), ``apply(from = "URL")`` (Kotlin)."""
_REPO_URL = re.compile(rf"\b(?:url\s*=?\s*(?:uri\s*\(\s*)?|maven\s*\(\s*)({_STRING})")
"""A repository's URL: ``maven {{ url 'URL' }}``, ``url = uri("URL")``, ``maven("URL")``."""


def gradle_code(text: str) -> Code:
    """The commands a Gradle build script runs through the JVM (``Runtime.exec``,
    ``ProcessBuilder``, Groovy's ``execute()``), what its ``delete`` calls remove (as
    ``rm -rf``), the scripts it applies from URLs and
    the repositories it fetches plugins and libraries from on plain http."""
    found: Code = []
    for match in _EXEC_CALL.finditer(text):
        found.append(("shell", _command(_unquoted(match.group(1)))))
    for match in _EXECUTE.finditer(text):
        found.append(("shell", _command(_unquoted(match.group(1) or match.group(2)))))
    for match in _DELETE.finditer(text):
        paths = [p for p in _unquoted(match.group(1)) if p]
        if paths:
            found.append(("shell", shlex.join(["rm", "-rf", "--", *paths])))
    for match in _DELETE_HOME.finditer(text):
        below = _unquoted(match.group(1))[0] if match.group(1) else ""
        found.append(("shell", f'rm -rf -- "$HOME"{shlex.quote(below) if below else ""}'))
    for match in _APPLY_FROM.finditer(text):
        url = _unquoted(match.group(1))[0]
        if "://" in url:
            found.append((FETCHED_SCRIPT, url))
    for match in _REPO_URL.finditer(text):
        url = _unquoted(match.group(1))[0]
        if url.lower().startswith("http://"):
            found.append((FETCHED_SOURCE, url))
    return [(language, code) for language, code in found if code]


def _unquoted(words: str) -> list[str]:
    return [a or b for a, b in _QUOTED.findall(words)] or [""]


def _command(words: list[str]) -> str:
    """One string is a command line split on spaces (``exec(String)`` and ``execute()``
    split so, no shell); several are a program and its words."""
    return words[0] if len(words) == 1 else shlex.join(words)


_DISTRIBUTION = re.compile(r"^\s*distributionUrl\s*[=:]\s*(\S+)", re.MULTILINE)
_GRADLE_HOSTS = frozenset({"services.gradle.org"})
"""Where Gradle's own distributions are published."""


def wrapper_code(text: str) -> Code:
    """The distribution ``./gradlew`` downloads and runs, when it is not Gradle's own
    over https (a properties file escapes ``:`` as ``\\:``)."""
    found: Code = []
    for raw in _DISTRIBUTION.findall(text):
        url = raw.replace("\\", "")
        parts = urlsplit(url)
        if parts.scheme != "https" or (parts.hostname or "") not in _GRADLE_HOSTS:
            found.append((FETCHED_SCRIPT, url))
    return found
