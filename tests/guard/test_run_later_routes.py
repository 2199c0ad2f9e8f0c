"""Asked classes of session 22 (asks2), each beside the everyday call next to it, which
stays free: a VS Code task made to run when the folder opens by a shell editor, as a file
tool's edit of it is; rg's preprocessor from outside the project (a program run on every
file searched); a keystore's password typed on the command line; a command sed's ``e``
runs from a sed script computed at run time."""

from __future__ import annotations

import pytest

from tests.guard.conftest import HOME, Judge

ASKED = [
    (
        'sed -i \'s/"runOn": "default"/"runOn": "folderOpen"/\' .vscode/tasks.json',
        "editor-task-autorun",
    ),
    (
        'cat > .vscode/tasks.json <<\'EOF\'\n{"tasks": [{"label": "dev", "command": "npm run dev", '
        '"runOptions": {"runOn": "folderOpen"}}]}\nEOF',
        "editor-task-autorun",
    ),
    (
        'echo \'{"tasks": [{"command": "make", "runOptions": {"runOn": "folderOpen"}}]}\' '
        "> .vscode/tasks.json",
        "editor-task-autorun",
    ),
    ("rg --pre ~/bin/conv.sh TODO src/", "search-preprocessor"),
    ('rg --pre="$CONV" -n TODO', "search-preprocessor"),
    ("rg --pre /opt/tools/conv TODO", "search-preprocessor"),
    (
        "keytool -list -v -keystore android/app/release.keystore -storepass changeit",
        "keystore-password-argv",
    ),
    ('keytool -list -keystore "$KS" -storepass s3cret', "keystore-password-argv"),
    ("sed -n \"$(printf '\\x31\\x65\\x20\\x69\\x64')\" README.md", "sed-computed-command"),
    ('sed -n "$(echo 1e date)" README.md', "sed-computed-command"),
]

STOPPED = [  # a secret by name read outright is denied, as before
    "keytool -exportcert -alias upload -keystore up.jks -storepass s3cret -rfc",
    "apksigner sign --ks release.jks --ks-pass pass:s3cret app.apk",
]

FREE = [
    'sed -i \'s/"label": "build"/"label": "compile"/\' .vscode/tasks.json',
    'sed -i \'s/"runOn": "folderOpen"/"runOn": "default"/\' .vscode/tasks.json',
    'echo \'{"tasks": [{"label": "build", "command": "make"}]}\' > .vscode/tasks.json',
    "rg --pre zcat TODO logs/",
    "rg --pre ./scripts/pdftext.sh invoice docs/",  # the project's, as `bash ./x.sh` is
    "rg --pre cat -n TODO src/",
    "rg -n TODO src/",
    "keytool -list -v -keystore ~/.android/debug.keystore -alias androiddebugkey "
    "-storepass android -keypass android",
    "keytool -list -keystore android/app/release.jks -storepass:env KEYSTORE_PASSWORD",
    "sed -n \"$(printf '\\x31\\x70')\" README.md",  # computed, but runs nothing (1p)
    'S=5; sed -n "${S}p" README.md',
    "sed -n '1e date' README.md",  # the command is in view: judged as itself
    "cat /etc/openvpn/client/client.conf",  # a profile read like any file under /etc
]


@pytest.mark.parametrize(("command", "rule"), ASKED)
def test_asked(verdict: Judge, command: str, rule: str) -> None:
    result = verdict(command)
    assert (result.decision, result.rule) == ("ask", rule), result.pieces


@pytest.mark.parametrize("command", STOPPED)
def test_stopped(verdict: Judge, command: str) -> None:
    assert verdict(command).decision in ("ask", "deny")


@pytest.mark.parametrize("command", FREE)
def test_free(verdict: Judge, command: str) -> None:
    result = verdict(command)
    assert result.decision not in ("ask", "deny"), result.pieces


def test_a_preprocessor_is_never_granted(verdict: Judge) -> None:
    for command in ("rg --pre gzip TODO logs/", "rg --pre ./x.sh TODO", "rg --pre cat TODO"):
        assert verdict(command).decision is None


def test_a_vscode_setting_written_by_sed_is_read_too(verdict: Judge) -> None:
    result = verdict(
        f'sed -i \'s#"python.defaultInterpreterPath": "[^"]*"#'
        f'"python.defaultInterpreterPath": "{HOME}/x/python"#\' '
        ".vscode/settings.json"
    )
    assert (result.decision, result.rule) == ("ask", "editor-settings-program")
