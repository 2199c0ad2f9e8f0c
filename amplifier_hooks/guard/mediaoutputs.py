"""The files media and document converters write over: their in-place modes and the
options that name their outputs, so `losses` judges each as an overwrite by git's facts
(an original git holds unchanged comes back; an untracked or changed one is lost: asked).

=========================  ==============================================================
program                    files written
=========================  ==============================================================
mogrify (magick mogrify)   every image it is given, in place; in ``-path DIR`` with
                           ``-path``; ``-format EXT`` writes NAME.EXT instead
convert, magick            its last image operand
optipng                    every PNG, in place, unless ``-out FILE`` or ``-dir DIR``
jpegoptim                  every JPEG, in place, unless ``-d DIR``/``--dest``, ``--stdout``
                           or ``-n``
pngquant                   ``-o FILE``; with ``--force``, NAME + ``--ext`` (``-fs8.png``)
exiftool                   its files, in place, with ``-overwrite_original`` (and
                           ``_in_place``) or ``-delete_original`` (the kept originals go)
qpdf                       its input with ``--replace-input``; the operand after
                           ``--pages ... --`` (``--empty``)
ffmpeg, ffmpeg -y          with ``-y``, each output (a word that is no input or value)
gs, ps2pdf                 ``-o FILE``, ``-sOutputFile=FILE``
pandoc                     ``-o FILE``, ``--output=FILE``
soffice, libreoffice       DIR/NAME.EXT for each input, ``--outdir DIR`` (else here)
svgo                       each SVG and ``-f DIR``'s, in place, unless ``-o``
imagemin                   ``--out-dir=DIR``/NAME for each input
cwebp, dwebp, avifenc      ``-o FILE`` (avifenc: its second operand)
sox, rec                   its last audio file operand, after one or more inputs (``-n``,
                           the null file, counts as one; as the output it writes nothing)
=========================  ==============================================================

A word that is a URL, a stream (``-``, ``pipe:``) or a pattern of numbered files
(``%d``) is no file here.
"""

from __future__ import annotations

import posixpath
import re

__all__ = ["MEDIA_WRITERS", "ffmpeg_files", "media_outputs"]

_IMAGE = re.compile(r"\.(?:png|jpe?g|gif|webp|tiff?|bmp|svg|heic|heif|avif|ico|psd|eps|pdf"
                    r"|jxl|jp2|tga|xcf|ppm|pgm|pbm|dng|cr2|nef|raw)\*?$|/\*$|^\*$",
                    re.IGNORECASE)  # fmt: skip
"""A word naming an image (or a glob of them, or every file of a folder)."""
_DLX = frozenset({"npx", "bunx", "pnpx"})
MEDIA_WRITERS = frozenset({"mogrify", "magick", "convert", "optipng", "jpegoptim", "pngquant",
                           "exiftool", "qpdf", "ffmpeg", "gs", "gsc", "ps2pdf", "pandoc",
                           "soffice", "libreoffice", "lowriter", "localc", "svgo", "imagemin",
                           "cwebp", "dwebp", "avifenc", "sox", "rec", *_DLX})  # fmt: skip
"""Programs read here (a package runner: for the program it runs)."""


def media_outputs(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The files ``program args`` writes over (empty: none, or not read here)."""
    if program in _DLX and args:
        program, args = posixpath.basename(args[0]).split("@", 1)[0], args[1:]
    if program == "magick" and args[:1] == ("mogrify",):
        program, args = "mogrify", args[1:]
    reader = _READERS.get(program)
    found = reader(args) if reader is not None else ()
    return tuple(w for w in found if w and "://" not in w and "%" not in w
                 and w != "-" and not w.startswith("pipe:"))  # fmt: skip


def _value(args: tuple[str, ...], names: tuple[str, ...]) -> list[str]:
    """The values of options ``names`` (``-o F``, ``-o=F``, ``--out-dir=F``)."""
    found: list[str] = []
    for index, arg in enumerate(args):
        name, equals, glued = arg.partition("=")
        if name in names and equals:
            found.append(glued)
        elif arg in names and index + 1 < len(args):
            found.append(args[index + 1])
    return found


def _images(args: tuple[str, ...]) -> list[str]:
    return [a for a in args if a[:1] not in ("-", "+") and _IMAGE.search(a)]


def _renamed(path: str, ext: str, folder: str | None = None) -> str:
    stem, _ = posixpath.splitext(posixpath.basename(path))
    return posixpath.join(posixpath.dirname(path) if folder is None else folder, stem + ext)


def _mogrify(args: tuple[str, ...]) -> tuple[str, ...]:
    paths = _value(args, ("-path",))
    folder = paths[-1] if paths else None
    fmt = _value(args, ("-format",))
    found = []
    for image in _images(args):
        if fmt:
            found.append(_renamed(image, "." + fmt[-1].lstrip("."), folder))
        else:
            found.append(
                image if folder is None else posixpath.join(folder, posixpath.basename(image))
            )
    return tuple(found)


def _convert(args: tuple[str, ...]) -> tuple[str, ...]:
    images = _images(args)
    return (images[-1],) if len(images) >= 2 else ()


def _optipng(args: tuple[str, ...]) -> tuple[str, ...]:
    if _value(args, ("-out",)):
        return tuple(_value(args, ("-out",)))
    folder = _value(args, ("-dir",))
    kinds = (".png", ".png*", "/*", ".gif", ".bmp", ".tif", ".tiff")
    found = [a for a in args if a[:1] != "-" and a.lower().endswith(kinds)]
    return tuple(posixpath.join(folder[-1], posixpath.basename(f)) if folder else f for f in found)


def _jpegoptim(args: tuple[str, ...]) -> tuple[str, ...]:
    if {"-n", "--noaction", "--stdout"} & set(args) or any(
        a.startswith(("-d", "--dest")) for a in args
    ):
        return ()
    return tuple(
        a for a in _images(args) if a.lower().endswith((".jpg", ".jpeg", ".jpg*", "/*", "*"))
    )


def _pngquant(args: tuple[str, ...]) -> tuple[str, ...]:
    out = _value(args, ("-o", "--output"))
    if out:
        return tuple(out)
    if "--force" not in args and "-f" not in args:
        return ()  # it writes NAME-fs8.png, and replaces none that is there
    exts = _value(args, ("--ext",))
    ext = (exts or ["-fs8.png"])[-1]
    return tuple(_renamed(a, ext) for a in _images(args) if not a.endswith("/*") and a not in exts)


def _exiftool(args: tuple[str, ...]) -> tuple[str, ...]:
    lowered = {a.lower() for a in args}
    if not lowered & {"-overwrite_original", "-overwrite_original_in_place",
                      "-delete_original", "-delete_original!"}:  # fmt: skip
        return ()  # it keeps each original as FILE_original
    return tuple(a for a in args if a[:1] not in ("-", "+") and "=" not in a and "<" not in a)


def _qpdf(args: tuple[str, ...]) -> tuple[str, ...]:
    operands: list[str] = []
    pages = False
    for arg in args:
        if arg == "--pages":
            pages = True
        elif arg == "--" and pages:
            pages = False
        elif not pages and arg[:1] != "-":
            operands.append(arg)
    if "--replace-input" in args:
        return tuple(operands[:1])
    return (operands[-1],) if len(operands) >= 2 or (operands and "--empty" in args) else ()


_FFMPEG_FLAGS = frozenset({"-y", "-n", "-an", "-vn", "-sn", "-dn", "-shortest", "-nostdin",
                           "-hide_banner", "-stats", "-nostats", "-re", "-copyts",
                           "-start_at_zero", "-benchmark", "-ignore_unknown", "-xerror",
                           "-autorotate", "-noautorotate", "-accurate_seek",
                           "-noaccurate_seek", "-dump", "-hex"})  # fmt: skip
"""ffmpeg's options that take no value (every other one takes the next word)."""


def ffmpeg_files(args: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """ffmpeg's inputs (``-i IN``) and outputs (a word that is no option's value)."""
    inputs: list[str] = []
    outputs: list[str] = []
    skip = ""
    for arg in args:
        if skip:
            if skip == "-i":
                inputs.append(arg)
            skip = ""
        elif arg == "-i" or (arg[:1] == "-" and arg not in _FFMPEG_FLAGS and arg != "-"):
            skip = arg
        elif arg[:1] != "-":
            outputs.append(arg)
    return inputs, outputs


def _ffmpeg(args: tuple[str, ...]) -> tuple[str, ...]:
    if "-y" not in args:
        return ()  # it asks before it writes over a file (and stops without a terminal)
    return tuple(ffmpeg_files(args)[1])


def _gs(args: tuple[str, ...]) -> tuple[str, ...]:
    found = _value(args, ("-o", "-sOutputFile"))
    found += [a[2:] for a in args if a.startswith("-o") and len(a) > 2 and "=" not in a]
    return tuple(f for f in found if not f.startswith("|"))


def _pandoc(args: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(_value(args, ("-o", "--output")))


def _soffice(args: tuple[str, ...]) -> tuple[str, ...]:
    target = _value(args, ("--convert-to",))
    if not target:
        return ()
    ext = "." + target[-1].split(":", 1)[0]
    folder = (_value(args, ("--outdir",)) or ["."])[-1]
    values = set(_value(args, ("--convert-to", "--outdir", "--infilter")))
    inputs = [a for a in args if a[:1] != "-" and a not in values]
    return tuple(_renamed(i, ext, folder) for i in inputs)


def _svgo(args: tuple[str, ...]) -> tuple[str, ...]:
    if _value(args, ("-o", "--output")):
        return ()
    folders = _value(args, ("-f", "--folder"))
    return (*folders, *(a for a in args if a[:1] != "-" and a.lower().endswith((".svg", "/*"))))


def _imagemin(args: tuple[str, ...]) -> tuple[str, ...]:
    folder = _value(args, ("--out-dir", "-o"))
    if not folder:
        return ()
    values = set(_value(args, ("--out-dir", "-o", "--plugin", "-p")))
    inputs = [a for a in args if a[:1] != "-" and a not in values]
    return tuple(posixpath.join(folder[-1], posixpath.basename(i)) for i in inputs)


def _o_option(args: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(_value(args, ("-o",)))


def _avifenc(args: tuple[str, ...]) -> tuple[str, ...]:
    operands = [a for a in args if a[:1] != "-"]
    return (operands[-1],) if len(operands) >= 2 else ()


_AUDIO = re.compile(r"\.(?:wav|wave|mp3|flac|ogg|oga|opus|aiff?|aifc|au|snd|raw|sox|caf|w64"
                    r"|wv|amr|gsm|vox|8svx|m4a|dat|voc|avr|cdda|cdr)$", re.IGNORECASE)  # fmt: skip
_NULL_FILES = frozenset({"-n", "--null", "-d", "--default-device"})


def _rec(args: tuple[str, ...]) -> tuple[str, ...]:
    """rec records from the device into its audio operand (sox with ``-d`` first)."""
    return _sox(("-d", *args))


def _sox(args: tuple[str, ...]) -> tuple[str, ...]:
    """sox's (and rec's) files are its audio operands and the null file or the device;
    the last is the output when another comes before it (effects follow with no suffix)."""
    files = [a for a in args if a in _NULL_FILES or (a[:1] != "-" and _AUDIO.search(a))]
    return (files[-1],) if files and files[-1] not in _NULL_FILES and len(files) >= 2 else ()


_READERS = {"mogrify": _mogrify, "magick": _convert, "convert": _convert, "optipng": _optipng,
            "jpegoptim": _jpegoptim, "pngquant": _pngquant, "exiftool": _exiftool,
            "qpdf": _qpdf, "ffmpeg": _ffmpeg, "gs": _gs, "gsc": _gs, "ps2pdf": _avifenc,
            "pandoc": _pandoc, "soffice": _soffice, "libreoffice": _soffice,
            "lowriter": _soffice, "localc": _soffice, "svgo": _svgo, "imagemin": _imagemin,
            "cwebp": _o_option, "dwebp": _o_option, "avifenc": _avifenc, "sox": _sox,
            "rec": _rec}  # fmt: skip
