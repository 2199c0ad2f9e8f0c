"""Programs that write a named file in place or over an output they are told to write
(`overwrites`, `emptiers`, `outputfiles`, `mediaoutputs`), judged on a real repository: over
a tracked file with changes not committed, or an untracked one, the work is lost (asked, as
``> FILE`` is); over an ignored build output nothing is lost (never asked or denied)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard import Places, Policy, load_pack
from tests.guard.conftest import committed, git, judged_in, project_places, write

PACK: Policy = load_pack("default")
SUFFIXES = ("txt", "png", "pdf", "mp4", "wav")
PLACES = {"modified": "src/x", "untracked": "drafts/x", "ignored": "build/x"}
"""Where each kind of file is (``.SUFFIX`` added)."""

IN_PLACE = [
    "sed -i d F.txt",
    "sed -i 3q F.txt",
    "awk -i inplace 'NR==1' F.txt",
    "vim -es -c '%d' -c wq F.txt",
    "perl -pi -e 's/a/b/' F.txt",
    "sort -o F.txt other.txt",
    "uniq other.txt F.txt",
    "echo x | tee F.txt",
    "cp other.txt F.txt",
    "dd if=other.txt of=F.txt",
    "sed -n 'w F.txt' other.txt",
    "git diff --output=F.txt",
    "tree -o F.txt",
    ": > F.txt",
    "mogrify -resize 50% F.png",
    "magick mogrify -strip F.png",
    "convert F.png -resize 25% F.png",
    "optipng -o7 F.png",
    "exiftool -all= -overwrite_original F.txt",
    "qpdf --replace-input --decrypt F.pdf",
    "gs -sDEVICE=pdfwrite -o F.pdf in.pdf",
    "pandoc -f markdown -t plain -o F.txt README.md",
    "ffmpeg -y -i in.mp4 -c copy F.mp4",
    "ffmpeg -hide_banner -y -i F.mp4 -t 5 F.mp4",
    "sox in.wav F.wav trim 0 5",
    "sox -n F.wav synth 1 sine 440",
    "rec F.wav trim 0 5",
]


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> Places:
    """A repository with, for each suffix, a changed tracked file, an untracked one and an
    ignored one in ``build/``."""
    project = tmp_path_factory.mktemp("rewrites") / "project"
    files = {f"{PLACES['modified']}.{s}": "committed\n" for s in SUFFIXES}
    files |= {".gitignore": "build/\n", "other.txt": "b\na\n", "README.md": "# r\n",
              "in.pdf": "%PDF\n", "in.mp4": "mp4\n", "in.wav": "RIFF\n"}  # fmt: skip
    committed(project, files)
    for suffix in SUFFIXES:
        write(project / f"{PLACES['modified']}.{suffix}", "work not committed\n")
        write(project / f"{PLACES['untracked']}.{suffix}", "never committed\n")
        write(project / f"{PLACES['ignored']}.{suffix}", "built\n")
    assert "src/x.txt" in git(project, "status", "--porcelain")
    return project_places(project)


@pytest.mark.parametrize("command", IN_PLACE)
@pytest.mark.parametrize("kind", ["modified", "untracked"])
def test_rewriting_work_is_asked(places: Places, command: str, kind: str) -> None:
    found = judged_in(command.replace("F.", PLACES[kind] + "."), PACK, places)
    assert found.decision == "ask"
    assert found.rule in ("overwrite-loses-work", "truncate-loses-work")


@pytest.mark.parametrize("command", IN_PLACE)
def test_rewriting_an_ignored_build_output_stays_free(places: Places, command: str) -> None:
    found = judged_in(command.replace("F.", PLACES["ignored"] + "."), PACK, places)
    assert found.decision not in ("ask", "deny"), found.rule
