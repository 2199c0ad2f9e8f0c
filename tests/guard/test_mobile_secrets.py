"""Mobile signing secrets by name (`secrets`): App Store Connect keys (``*.p8``), Android
signing password files (``key.properties``), Play and Google service-account key files by
their well-known names and secret build settings (``Secrets.xcconfig``) are read as
secrets; a provisioning profile and the app's config stay public. The signing tools'
looks (`table.signing`, `keyusers`) stay free; their other modes stay judged."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.keyusers import unshown_secrets
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.secrets import secret_kind
from amplifier_hooks.guard.table import read_call
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("AuthKey_2X9R4HXF34.p8", "key"),
        ("AUTHKEY_ABC.P8.bak", "key"),
        ("android/key.properties", "key"),
        ("keystore.properties", "key"),
        ("release-keystore.properties.orig", "key"),
        ("fastlane/api_key.json", "key"),
        ("google-play-key.json", "key"),
        ("play-store-credentials.json", "key"),
        ("pc-api-7419-deploy.json", "key"),
        ("acme-firebase-adminsdk-x1y2z-0a1b2c3d4e.json", "key"),
        ("~/.android/adbkey", "key"),
        ("ios/Flutter/Secrets.xcconfig", "env"),
        ("secrets.properties", "env"),
        ("AuthKey_*.p8", "key"),
    ],
)
def test_a_mobile_signing_secret_is_named(name: str, kind: str) -> None:
    assert secret_kind(name) == kind


@pytest.mark.parametrize(
    "name",
    [
        "key.properties.example",
        "local.properties",
        "gradle.properties",
        "google-services.json",
        "GoogleService-Info.plist",
        "3f2a9c1e.mobileprovision",
        "adbkey.pub",
        "Debug.xcconfig",
        "package.json",
        "keybindings.json",
        "*.properties",
        "*.xcconfig",
        "*.json",
    ],
)
def test_public_mobile_files_are_not_secrets(name: str) -> None:
    assert secret_kind(name) is None


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("cat android/key.properties", "secret-file-read"),
        ("sed -n 1,5p android/keystore.properties", "secret-file-read"),
        ("jq -r .private_key fastlane/google-play-key.json", "secret-file-read"),
        ("cat ios/Flutter/Secrets.xcconfig", "env-file-print"),
        ("git log -p -- android/key.properties", "secret-file-read"),
        ("keytool -importkeystore -srckeystore a.jks -destkeystore b.p12", "secret-file-read"),
        ("keytool -list -keystore a.jks -importkeystore -destkeystore b.p12", "secret-file-read"),
        ("eas env:list --environment production --include-sensitive", "credential-print-mobile"),
        ("fastlane spaceauth -u dev@example.com", "credential-print-mobile"),
        ("cat ~/.expo/state.json", "credential-read"),
    ],
)
def test_a_mobile_secret_read_is_denied(verdict: Judge, command: str, rule: str) -> None:
    got = verdict(command)
    assert (got.decision, got.rule) == ("deny", rule), (command, got)


@pytest.mark.parametrize(
    "command",
    ["./gradlew properties", "cd android && ./gradlew -q :app:properties", "gradle properties"],
)
def test_the_gradle_properties_task_is_asked(verdict: Judge, command: str) -> None:
    got = verdict(command)
    assert (got.decision, got.rule) == ("ask", "credential-print-gradle-properties"), got


@pytest.mark.parametrize(
    "command", ["./gradlew tasks --all", "./gradlew :app:dependencies", "gradle --version"]
)
def test_other_gradle_looks_are_not_asked_for_properties(verdict: Judge, command: str) -> None:
    assert verdict(command).rule != "credential-print-gradle-properties"


def test_a_mobile_secret_read_by_a_file_tool_is_denied(verdict: Judge) -> None:
    got = verdict("/work/project/fastlane/AuthKey_ABC.p8", tool="read_file")
    assert got.decision == "deny", got


@pytest.mark.parametrize(
    "command",
    [
        "keytool -list -v -keystore ~/.android/debug.keystore -storepass android",
        "keytool -list -keystore android/app/upload.jks -storepass:env STORE_PASSWORD",
        "keytool -printcert -jarfile app-release.apk",
        "apksigner verify --verbose --print-certs app-release.apk",
        "cat android/key.properties.example",
        "cat android/app/google-services.json",
        "fastlane run validate_play_store_json_key json_key:fastlane/play-store-credentials.json",
    ],
)
def test_a_signing_look_stays_free(verdict: Judge, command: str) -> None:
    got = verdict(command)
    assert got.decision in (None, "allow"), (command, got)


@pytest.mark.parametrize(
    ("program", "args"),
    [
        ("keytool", ("-genkeypair", "-keystore", "x.jks")),
        ("keytool", ("-list", "-providerpath", "evil.jar", "-keystore", "x.jks")),
        ("keytool", ("-printcert", "-sslserver", "example.com:443")),
        ("keytool", ("-list", "-J-Dx=y")),
        ("keytool", ()),
        ("security", ("cms", "-D", "-i", "p.mobileprovision", "-o", "out.plist")),
        ("security", ("find-generic-password", "-s", "x")),
        ("apksigner", ("sign", "--ks", "x.jks", "app.apk")),
        ("apksigner", ("verify", "--in")),
    ],
)
def test_a_signing_tool_outside_its_looks_is_doubtful(program: str, args: tuple[str, ...]) -> None:
    assert read_call(program, args).doubt is not None


def test_keytool_list_reads_its_keystore() -> None:
    acts = read_call("keytool", ("-list", "-keystore", "x.jks", "-storepass:file", "pw.txt")).acts
    assert {a.target for a in acts} == {"x.jks", "pw.txt"}


@pytest.mark.parametrize(
    ("program", "args", "unshown"),
    [
        ("keytool", ("-list", "-keystore", "a.jks"), {"-list", "-keystore", "a.jks"}),
        ("keytool", ("-exportcert", "-keystore", "a.jks"), set()),
        ("keytool", ("-list", "-exportcert", "-keystore", "a.jks"), set()),
        ("fastlane", ("supply", "--json_key", "k.json"), {"k.json"}),
        ("fastlane", ("supply", "--json_key=k.json"), {"--json_key=k.json"}),
        ("fastlane", ("run", "x", "api_key_path:k.json"), {"api_key_path:k.json"}),
        ("fastlane", ("run", "x", "other:k.json"), set()),
        ("cat", ("k.json",), set()),
    ],
)
def test_what_a_key_user_never_shows(program: str, args: tuple[str, ...],
                                     unshown: set[str]) -> None:  # fmt: skip
    piece = Piece(text=" ".join((program, *args)), program=program, args=args)
    assert unshown_secrets(piece) == unshown
