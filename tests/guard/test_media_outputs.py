"""Media and document converters that write over their inputs or name outputs
(`mediaoutputs`): judged as overwrites by git's facts. An original git holds unchanged
comes back (no loss); an untracked or changed one is lost (asked)."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.guard import load_pack
from amplifier_hooks.guard.mediaoutputs import media_outputs
from amplifier_hooks.guard.model import Places
from tests.guard.conftest import git, judged_with_git, write

PACK = load_pack("default")


@pytest.mark.parametrize(
    ("program", "args", "outputs"),
    [
        (
            "mogrify",
            ("-resize", "50%", "-quality", "60", "assets/img/*.jpg"),
            ("assets/img/*.jpg",),
        ),
        ("mogrify", ("-path", "out", "-resize", "50%", "a/x.jpg"), ("out/x.jpg",)),
        ("mogrify", ("-format", "webp", "a/x.jpg"), ("a/x.webp",)),
        ("magick", ("mogrify", "-strip", "*.jpg"), ("*.jpg",)),
        ("convert", ("a.png", "-resize", "25%", "a.png"), ("a.png",)),
        ("convert", ("https://203.0.113.7/x.mvg", "out.png"), ()),
        ("optipng", ("-o7", "-strip", "all", "assets/img/*.png"), ("assets/img/*.png",)),
        ("optipng", ("-dir", "out", "a.png"), ("out/a.png",)),
        ("jpegoptim", ("-m60", "--strip-all", "p/*.jpg"), ("p/*.jpg",)),
        ("jpegoptim", ("-d", "out", "p/*.jpg"), ()),
        ("pngquant", ("--force", "--ext", ".png", "--quality=40-60", "i/*.png"), ("i/*.png",)),
        ("pngquant", ("--quality=40-60", "i/a.png"), ()),
        ("exiftool", ("-all:all=", "-overwrite_original", "thesis.pdf"), ("thesis.pdf",)),
        ("exiftool", ("-Comment=x", "a.jpg"), ()),
        ("qpdf", ("--replace-input", "--decrypt", "--password=x", "c/l.pdf"), ("c/l.pdf",)),
        ("qpdf", ("r.pdf", "--replace-input", "--pages", ".", "1-3", "--"), ("r.pdf",)),
        ("qpdf", ("--empty", "--pages", "cover.pdf", "--", "book.pdf"), ("book.pdf",)),
        ("ffmpeg", ("-y", "-i", "raw/b.mov", "-t", "5", "-c", "copy", "raw/a.mov"), ("raw/a.mov",)),
        ("ffmpeg", ("-i", "in.mov", "out.mp4"), ()),
        ("ffmpeg", ("-y", "-i", "t.mp4", "-f", "segment", "%d"), ()),
        ("gs", ("-sDEVICE=pdfwrite", "-o", "out.pdf", "in.pdf"), ("out.pdf",)),
        ("pandoc", ("-f", "docx", "-t", "docx", "-o", "c.docx", "c.docx"), ("c.docx",)),
        ("soffice", ("--headless", "--convert-to", "csv", "--outdir", ".", "b.csv"), ("./b.csv",)),
        ("npx", ("svgo", "--multipass", "-r", "-f", "assets/svg"), ("assets/svg",)),
        ("npx", ("svgo", "a.svg", "-o", "b.svg"), ()),
        ("npx", ("imagemin", "img/*", "--out-dir=img", "--plugin=mozjpeg"), ("img/*",)),
        ("cwebp", ("-q", "50", "a.png", "-o", "a.webp"), ("a.webp",)),
        ("sox", ("in.wav", "-r", "16000", "out.flac", "gain", "-3"), ("out.flac",)),
        ("sox", ("-m", "a.wav", "b.wav", "mix.wav"), ("mix.wav",)),
        ("sox", ("in.wav", "-n", "stat"), ()),
        ("sox", ("in.wav",), ()),
        ("rec", ("take.wav", "trim", "0", "5"), ("take.wav",)),
    ],
)
def test_outputs_by_program(program: str, args: tuple[str, ...], outputs: tuple[str, ...]) -> None:
    assert media_outputs(program, args) == outputs


def _workspace(tmp_path: Path) -> Places:
    project = tmp_path / "project"
    write(project / "assets/kept.png", "tracked")
    write(project / "assets/changed.png", "tracked")
    write(project / "docs/thesis.pdf", "tracked")
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "init")
    write(project / "assets/changed.png", "changed, not committed")
    write(project / "assets/new.png", "never committed")
    (tmp_path / "home").mkdir()
    return Places.of(str(project), home=str(tmp_path / "home"))


def _decision(command: str, places: Places) -> str | None:
    data = {"tool_name": "bash", "tool_input": {"command": command}}
    return judged_with_git(data, PACK, places).decision


def test_in_place_rewrites_ask_only_for_what_git_cannot_give_back(tmp_path: Path) -> None:
    places = _workspace(tmp_path)
    assert _decision("optipng -o7 assets/kept.png", places) != "ask"
    assert _decision("optipng -o7 assets/changed.png", places) == "ask"
    assert _decision("mogrify -resize 50% assets/new.png", places) == "ask"
    assert _decision("pngquant --force --ext .png assets/new.png", places) == "ask"
    assert _decision("exiftool -all= -overwrite_original docs/thesis.pdf", places) != "ask"
    assert _decision("ffmpeg -y -i docs/thesis.pdf assets/changed.png", places) == "ask"
    assert _decision("ffmpeg -y -i assets/kept.png assets/fresh.png", places) != "ask"
    assert _decision("gs -sDEVICE=pdfwrite -o out.pdf docs/thesis.pdf", places) != "ask"


def test_globs_of_originals(tmp_path: Path) -> None:
    places = _workspace(tmp_path)
    assert _decision("mogrify -strip assets/*.png", places) == "ask"
    assert _decision("jpegoptim -m60 --strip-all assets/*.jpg", places) != "ask"
