"""Names, not contents: a Glob tool lists the names a pattern meets in a folder
(``*.pub`` in ``~/.ssh``), as ``ls`` does, so ``credential-read`` leaves it (no grant
either); exiftool run only to print (`exifwords`) writes none of its words. A read of a
key, a search of its text, exiftool writing or running Perl stay stopped."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard import Places, Policy, judge
from amplifier_hooks.guard.exifwords import exif_reads_only
from amplifier_hooks.guard.findnames import glob_lists_names
from tests.guard.conftest import DEV_PLACES, _default_pack, decided


def _tool(tool: str, given: dict[str, str]) -> tuple[str | None, str | None]:
    found = judge({"tool_name": tool, "tool_input": given}, _default_pack("default"), DEV_PLACES)
    return found.decision, found.rule


@pytest.mark.parametrize("pattern", ["*.pub", "**/*", "*"])
def test_a_glob_of_names_in_a_credential_folder_is_free(pattern: str) -> None:
    assert _tool("Glob", {"pattern": pattern, "path": "/home/dev/.ssh"})[0] is None


@pytest.mark.parametrize("pattern", ["id_*", "**/id_*", "*.pem", "**/credentials*"])
def test_a_glob_aimed_at_keys_stays_denied(pattern: str) -> None:
    assert _tool("Glob", {"pattern": pattern, "path": "/home/dev/.ssh"})[0] == "deny"


@pytest.mark.parametrize(
    ("pattern", "names"),
    [("*.pub", True), ("src/**/*.py", True), ("id_*", False), (".env*", False),
     ("../.ssh/*", False), ("~/.ssh/*.pub", False), ("**/*secret*", False)],
)  # fmt: skip
def test_glob_lists_names(pattern: str, names: bool) -> None:
    assert glob_lists_names(pattern) is names


def test_a_glob_in_the_home_folder_is_never_granted(pack: Policy, places: Places) -> None:
    home = str(places.known.home)
    data = {"tool_name": "Glob", "tool_input": {"pattern": "*.pub", "path": home + "/.ssh"}}
    assert judge(data, pack, places).decision != "allow"


@pytest.mark.parametrize(
    ("tool", "given"),
    [
        ("Grep", {"pattern": "PRIVATE", "path": "/home/dev/.ssh"}),
        ("Read", {"file_path": "/home/dev/.ssh/id_ed25519"}),
        ("Read", {"file_path": "/home/dev/.aws/credentials"}),
    ],
)
def test_contents_of_credentials_stay_denied(tool: str, given: dict[str, str]) -> None:
    assert _tool(tool, given) == ("deny", "credential-read")


@pytest.mark.parametrize(
    "args",
    [
        ("-if", "$GPSLatitude", "-p", "$FileName", "-r", "static/"),
        ("-json", "-GPSLatitude", "-EXIF:Make", "a.jpg"),
        ("-p", "${FileName} $/", "--Comment", "a.jpg"),
        ("-if", "$Make eq 'Canon' and not $GPSLatitude", "-p", "$Directory", "img"),
    ],
)
def test_exiftool_printing_reads_only(args: tuple[str, ...]) -> None:
    assert exif_reads_only(args)


@pytest.mark.parametrize(
    "args",
    [
        ("-Comment=x", "a.jpg"),
        ("-TagsFromFile", "b.jpg", "a.jpg"),
        ("-o", "out.jpg", "a.jpg"),
        ("-O", "out.jpg", "a.jpg"),  # (options, case aside)
        ("-w", "txt", "img/"),
        ("-p", "${FileName;$_=`id`}", "img/"),  # Perl in a format
        ("-if", 'system "id"', "img/"),  # Perl in a condition
        ("-if", "$Make =~ s/x/`id`/e", "img/"),
        ("-config", "x.pl", "a.jpg"),
        ("-@", "args.txt"),
        ("-p",),  # a format missing
        ("-geotag", "t.gpx", "img/"),
    ],
)
def test_exiftool_writing_or_running_perl_is_not_read_so(args: tuple[str, ...]) -> None:
    assert not exif_reads_only(args)


def test_exiftool_print_is_free_and_its_writes_stay_judged() -> None:
    assert decided("exiftool -if '$GPSLatitude' -p '$FileName' -r static/")[0] is None
    assert decided("exiftool -if '$GPSLatitude' -o ~/.bashrc a.jpg")[0] == "deny"
    assert decided("exiftool -w ~/out/%f.txt static/")[0] == "ask"
