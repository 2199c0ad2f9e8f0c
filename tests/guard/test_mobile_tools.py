"""The pack on mobile work's tools beyond the project: the stores (fastlane, EAS, Expo,
CodePush, Firebase, Gradle Play Publisher, the stores' APIs), the team's signing, and the
devices and simulators attached. Each class beside the everyday call next to it, which
stays free (no opinion: none of these programs is granted)."""

from __future__ import annotations

import pytest

from tests.guard.conftest import Judge

ASKED = [
    ("fastlane supply --track production --aab app-release.aab", "store-fastlane-upload"),
    ("bundle exec fastlane deliver --ipa build/App.ipa --force", "store-fastlane-upload"),
    ("fastlane pilot upload --ipa build/App.ipa", "store-fastlane-testflight"),
    ("fastlane pilot distribute --build_number 7", "store-fastlane-testflight"),
    ("bundle exec fastlane run upload_to_testflight", "store-fastlane-run-upload"),
    ("fastlane run firebase_app_distribution app:1:2:android:3", "store-fastlane-run-upload"),
    ("cd ios && bundle exec fastlane beta", "store-fastlane-release-lane"),
    ("fastlane android deploy", "store-fastlane-release-lane"),
    ("fastlane match change_password", "store-signing-change"),
    ("fastlane match appstore --force", "store-signing-change"),
    ("eas submit -p ios --latest", "store-eas-release"),
    ("eas update --branch production --message fix", "store-eas-release"),
    ("eas update:republish --group abc --branch production", "store-eas-release"),
    ("eas channel:edit production --branch release-2", "store-eas-release"),
    ("eas branch:delete staging", "store-eas-release"),
    ("eas build -p all --profile production --auto-submit", "store-eas-release"),
    ("npx eas-cli@latest submit -p android", "store-eas-release-runner"),
    ("npx eas update --auto", "store-eas-release-runner"),
    ("eas credentials -p ios", "store-eas-credentials"),
    ("npx eas-cli credentials", "store-eas-credentials-runner"),
    ("expo publish --release-channel production", "store-expo-publish"),
    ("npx expo publish", "store-expo-publish-runner"),
    ("appcenter codepush release-react -a o/app -d Production", "store-ota-release"),
    ("firebase appdistribution:distribute app.apk --groups qa", "store-ota-release"),
    ("flutter pub publish --force", "store-pub-publish"),
    ("dart pub lish", "store-pub-publish"),
    ("dart pub global activate --source git https://example.org/tool.git", "install-from-url-pub"),
    ("flutter pub global activate -sgit https://example.org/tool.git", "install-from-url-pub"),
    ("./gradlew :app:publishListing", "store-gradle-publish"),
    ("./gradlew promoteReleaseArtifact --promote-track production", "store-gradle-publish"),
    ("gradle :app:publishReleaseBundle", "store-gradle-publish"),
    ("/usr/libexec/PlistBuddy -c 'Set :destination upload' Export.plist", "store-export-upload"),
    ("plutil -replace destination -string upload Export.plist", "store-export-upload-plutil"),
    ("curl -X POST https://api.appstoreconnect.apple.com/v1/reviewSubmissions -d @s.json",
     "store-api-change"),
    ("curl -XPATCH https://androidpublisher.googleapis.com/androidpublisher/v3/applications/a/edits/1/tracks/production",
     "store-api-change"),
    ("security delete-certificate -c 'Apple Development: A'", "signing-identity-delete"),
    ("security delete-identity -Z ABCDEF", "signing-identity-delete"),
    ("adb uninstall io.acme.app", "device-app-remove"),
    ("adb -s emulator-5554 shell pm clear io.acme.app", "device-app-remove"),
    ("adb shell 'pm uninstall -k --user 0 com.example'", "device-app-remove"),
    ("adb shell run-as io.acme.app rm -rf databases", "device-file-delete"),
    ("adb shell 'run-as io.acme.app rm files/a.db'", "device-file-delete"),
    ("adb backup -all -f device.ab", "device-backup"),
    ("adb install -r -g /tmp/tool.apk", "device-install-outside"),
    ("fastboot flash boot boot.img", "device-flash"),
    ("fastboot boot twrp.img", "device-flash"),
    ("xcrun simctl erase all", "device-simulator-erase"),
    ("xcrun simctl delete booted", "device-simulator-erase"),
    ("xcrun devicectl device uninstall app --device X io.acme.app", "device-apple-uninstall"),
    ("emulator -avd Pixel -wipe-data", "device-emulator-erase"),
    ("avdmanager delete avd -n Pixel", "device-emulator-erase"),
    ("ideviceinstaller -U io.acme.app", "device-emulator-erase-flag"),
    ("ideviceinstaller uninstall io.acme.app", "device-emulator-erase"),
]  # fmt: skip

DENIED = [
    ("fastlane match nuke distribution", "store-signing-nuke"),
    ("bundle exec fastlane match nuke development", "store-signing-nuke"),
    ("curl -X DELETE https://api.appstoreconnect.apple.com/v1/certificates/ABC",
     "store-certificate-revoke"),
    ("adb shell recovery --wipe_data", "device-data-wipe"),
    ("adb shell 'am broadcast -a android.intent.action.MASTER_CLEAR'", "device-data-wipe"),
    ("adb shell content delete --uri content://contacts/people", "device-provider-delete"),
    ("adb shell 'content delete --uri content://call_log/calls'", "device-provider-delete"),
    ("adb shell rm -rf /sdcard/Download", "device-storage-delete"),
    ("adb shell 'rm -r /storage/emulated/0/Pictures'", "device-storage-delete"),
    ("fastboot -w", "device-bootloader-wipe"),
    ("fastboot flashing unlock", "device-bootloader-wipe"),
    ("fastboot oem unlock", "device-bootloader-wipe"),
    ("fastboot erase userdata", "device-bootloader-wipe"),
    ("cfgutil erase", "device-erase-apple"),
]  # fmt: skip

FREE = [
    "fastlane supply --aab app.aab --track internal --validate_only true",
    "fastlane action upload_to_play_store",
    "fastlane deliver download_metadata",
    "fastlane pilot builds",
    "bundle exec fastlane test",
    "bundle exec fastlane lanes",
    "fastlane gym --scheme Runner",
    "bundle exec fastlane match development --readonly",
    "eas build -p ios --profile preview --no-wait",
    "eas update:list --branch production",
    "eas build:list --limit 5",
    "npx expo export --platform android",
    "flutter pub publish --dry-run",
    "dart pub publish -n",
    "flutter pub global activate devtools",
    "./gradlew bundleRelease",
    "./gradlew publishToMavenLocal",
    "curl -s https://api.appstoreconnect.apple.com/v1/apps -H 'Authorization: Bearer x'",
    "security find-identity -v -p codesigning",
    "adb devices -l",
    "adb logcat -d",
    "adb shell am start -n io.acme.app/.MainActivity",
    "adb shell pm list packages",
    "adb shell content query --uri content://settings/system",
    "adb shell settings get global animator_duration_scale",
    "adb install -r app/build/outputs/apk/debug/app-debug.apk",
    "fastboot devices",
    "fastboot getvar all",
    "xcrun simctl delete unavailable",
    "xcrun simctl uninstall booted io.acme.app",
    "ideviceinstaller -u 00008110-001A -l",
    "fastlane gym --configuration Release",
    "fastlane match appstore --readonly",
    "fastlane supply init",
    "xcrun simctl boot 'iPhone 16'",
    "xcrun devicectl list devices",
    "emulator -list-avds",
    "avdmanager list avd",
    "rm -rf ~/Library/Developer/Xcode/DerivedData",
    "rm -rf ~/.gradle/caches/transforms-4 ~/.gradle/caches/build-cache-1",
]


@pytest.mark.parametrize(("command", "rule"), ASKED)
def test_asked(verdict: Judge, command: str, rule: str) -> None:
    result = verdict(command)
    assert (result.decision, result.rule) == ("ask", rule), result.pieces


@pytest.mark.parametrize(("command", "rule"), DENIED)
def test_denied(verdict: Judge, command: str, rule: str) -> None:
    result = verdict(command)
    assert (result.decision, result.rule) == ("deny", rule), result.pieces


@pytest.mark.parametrize("command", FREE)
def test_everyday_stays_free(verdict: Judge, command: str) -> None:
    result = verdict(command)
    assert result.decision not in ("ask", "deny"), (result.rule, result.pieces)


@pytest.mark.parametrize("command", ["rm -rf ~/.gradle/caches", "rm -rf ~/.gradle/caches/*"])
def test_a_whole_build_cache_is_asked_as_a_tools_cache_is(verdict: Judge, command: str) -> None:
    assert verdict(command).decision == "ask"


def test_the_gradle_home_beside_its_caches_stays_denied(verdict: Judge) -> None:
    assert verdict("rm -rf ~/.gradle").decision == "deny"
    assert verdict("rm -rf ~/.gradle/caches/x/../../init.d").decision == "deny"


def test_a_release_word_under_bundle_is_a_lane_only_for_fastlane(verdict: Judge) -> None:
    assert not str(verdict("bundle exec cap production deploy").rule).startswith("store-")
