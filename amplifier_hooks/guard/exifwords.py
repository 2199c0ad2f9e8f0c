"""exiftool run only to print (``exiftool -if '$GPSLatitude' -p '$FileName' -r static/``):
its words are tags to show, a format, a condition, and the files and folders it reads,
none of them written (`pathwords`). Read as exiftool reads them, case aside.

exiftool writes when a word assigns a tag (``-Comment=x``, ``-TAG<FILE``), names an output
(``-o``, ``-w``), copies tags in (``-tagsFromFile``), keeps or deletes originals, geotags,
or reads more words from a file (``-@``) or settings from Perl (``-config``); a condition
(``-if``) and a format's ``${TAG;EXPR}`` are Perl, run for each file. Such a call is not
read here (None): its words stay judged as any program's.
"""

from __future__ import annotations

import re

__all__ = ["exif_reads_only", "exif_tag_files"]

_ACTING = frozenset(
    {"-o", "-out", "-w", "-w!", "-w+", "-textout", "-textout!", "-textout+", "-W", "-W!",
     "-W+", "-tagout", "-overwrite_original", "-overwrite_original_in_place",
     "-tagsfromfile", "-delete_original", "-delete_original!", "-restore_original",
     "-geotag", "-geosync", "-geotime", "-srcfile", "-@", "-config", "-stay_open",
     "-execute", "-common_args", "-use", "-userparam", "-k", "-pause", "-api", "-fast",
     "-efile", "-efile!", "-p-", "-diff", "-php", "-plot"}
)  # fmt: skip
"""Options that write a file, run Perl, or take more words from elsewhere (lower case)."""
_VALUED = frozenset({"-p", "-printformat", "-if", "-ext", "-ext+", "--ext", "-d", "-dateformat",
                     "-c", "-coordformat", "-sep", "-separator", "-charset", "-lang", "-x",
                     "-exclude", "-i", "-ignore", "-fileorder", "-listitem"})  # fmt: skip
"""Options whose value is the next word (a format, a condition, an ending, a tag)."""
_FORMATS = frozenset({"-p", "-printformat"})
_CONDITIONS = frozenset({"-if"})
_TAG = re.compile(r"--?[A-Za-z][\w:*-]*#?")
"""A tag asked for (``-GPSLatitude``, ``-EXIF:All``) or left out (``--Comment``), or a
plain switch (``-r``, ``-json``)."""
_PLAIN_FORMAT = re.compile(r"(?:[^$]|\$[\w:/]+|\$\{[\w:]+\}|\$\$)*")
"""A format of text and tags (``$FileName``, ``${GPSLatitude}``, ``$/`` a new line); no
``${TAG;EXPR}``, whose EXPR is Perl."""
_CONDITION = re.compile(
    r"\s*(?:(?:\$[\w:]+|'[^'\\]*'|\"[^\"$@\\]*\"|-?\d+(?:\.\d+)?|eq|ne|lt|gt|le|ge|==|!=|<=|>=|<|>"
    r"|and|or|not|!)\s*)+"
)
"""A condition of tags compared with literals (``$GPSLatitude``, ``$Make eq 'Canon'``):
no call, no code."""


_TAG_FROM_FILE = re.compile(r"-[A-Za-z][\w:*-]*#?\+?<=(.+)")
"""``-TAG<=FILE``: the tag set to FILE's contents (``-TAG<SRC`` copies another tag)."""


def exif_tag_files(args: tuple[str, ...]) -> tuple[str, ...]:
    """The files whose contents ``exiftool ARGS`` copies into tags (``-Comment<=F``): read,
    and carried by the image it writes wherever it goes."""
    return tuple(m[1] for a in args if (m := _TAG_FROM_FILE.fullmatch(a)) is not None)


def exif_reads_only(args: tuple[str, ...]) -> bool:
    """``exiftool ARGS`` only prints what it reads (module doc)."""
    waiting = ""
    for arg in args:
        if waiting:
            if waiting in _FORMATS and _PLAIN_FORMAT.fullmatch(arg) is None:
                return False
            if waiting in _CONDITIONS and _CONDITION.fullmatch(arg) is None:
                return False
            waiting = ""
            continue
        lowered = arg.lower()
        if lowered.startswith("-if"):  # (-if2, -if3: the same condition, rerun)
            lowered = "-if" if lowered[3:].isdigit() or lowered == "-if" else lowered
        if lowered in _ACTING or not arg.startswith("-"):
            if lowered in _ACTING:
                return False
            continue  # a file or folder read
        if lowered in _VALUED:
            waiting = lowered
        elif _TAG.fullmatch(arg) is None:  # `-TAG=`, `-TAG<`, `-TAG+=`: a write
            return False
    return not waiting
