"""Files a request uploads: ``curl -T FILE URL``, ``curl -F f=@FILE URL`` (a form's file
field; ``f=<FILE`` sends its text), ``rclone copy DIR remote:`` (a local folder copied to a
remote), ``ffmpeg -i FILE ... http://host/u`` (an output on another machine gets the
inputs' streams), and a ``curl -T -`` sending what a pipeline feeds it (the files the
command before it read: `fed_upload_marks`). Each sends the project's files off the
machine, where no one here sees what becomes of them (what a build made to be shipped,
in ``dist/``, ``build/``, ``site/``..., is not marked: shipping it is the build's
purpose); a file secret by its name
(``.env``, ``id_rsa``, ``credentials.json``: `secrets.secret_kind`) is a secret sent.
`destinations.mark_destinations` marks them (`UPLOADED`, `SECRET_UPLOADED`). An upload to
this machine (``localhost``) is a test's.
"""

from __future__ import annotations

from amplifier_hooks.guard.mediaoutputs import ffmpeg_files
from amplifier_hooks.guard.secrets import secret_kind
from amplifier_hooks.guard.urlhosts import is_local

__all__ = ["SECRET_UPLOADED", "UPLOADED", "fed_upload_marks", "sends_stdin", "upload_marks",
           "uploaded_files"]  # fmt: skip

UPLOADED = "@files-uploaded"
"""A request that sends named files of the machine to another one."""
SECRET_UPLOADED = "@secret-file-uploaded"
"""One of them is a secret by its name."""
_BUILD_OUTPUTS = frozenset({"dist", "build", "out", "target", "site", "_site", "public",
                            "release", "releases"})  # fmt: skip
"""Folders a build writes what it makes into: uploading them ships the build."""
_STREAMED = (
    "http://",
    "https://",
    "ftp://",
    "sftp://",
    "rtmp://",
    "rtmps://",
    "srt://",
    "tcp://",
    "udp://",
    "rtp://",
    "icecast://",
)
"""ffmpeg's outputs that send to another machine."""
_RCLONE_UPLOADS = frozenset({"copy", "copyto", "sync", "move", "moveto", "bisync"})
_CURL_VALUED = frozenset(
    {"-o", "--output", "-H", "--header", "-u", "--user", "-X", "--request", "-d", "--data",
     "--data-binary", "--data-raw", "--data-urlencode", "-e", "--referer", "-A",
     "--user-agent", "-b", "--cookie", "-c", "--cookie-jar", "-x", "--proxy", "-w",
     "--write-out", "-m", "--max-time", "--connect-timeout", "-r", "--range", "-K",
     "--config", "--cacert", "-E", "--cert", "--key", "--retry", "-C", "--continue-at",
     "--url", "--json", "--resolve", "--connect-to", "-y", "-Y", "--limit-rate"}
)  # fmt: skip
"""curl's options that take a value (the word after them is no file or URL of its own)."""


def upload_marks(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """`UPLOADED` (and `SECRET_UPLOADED`) when ``program args`` uploads named files."""
    files = uploaded_files(program, args)
    if not files:
        return ()
    if any(secret_kind(f) is not None for f in files):
        return (UPLOADED, SECRET_UPLOADED)
    if all(_built(f) for f in files):
        return ()  # `rclone copy dist remote:releases`: what the build made to be shipped
    return (UPLOADED,)


def sends_stdin(program: str, args: tuple[str, ...]) -> bool:
    """Whether ``program args`` uploads what it is fed (``curl -T -``, ``-F f=@-``) to
    another machine: the cheap test before its feeder is looked at."""
    if program != "curl" or "-" not in "".join(args):
        return False
    for index, arg in enumerate(args):  # `--data-binary @-`: the body read from the input
        name, _, glued = arg.partition("=")
        value = glued if glued else args[index + 1] if index + 1 < len(args) else ""
        if name in _BODY and value == "@-":
            return True
    return "-" in _curl_files(args, keep_stdin=True)


_BODY = frozenset({"-d", "--data", "--data-binary", "--data-urlencode", "--json"})
"""curl's options whose ``@-`` value is the request's body, read from its input."""


def fed_upload_marks(args: tuple[str, ...], fed: tuple[str, ...]) -> tuple[str, ...]:
    """`upload_marks` of a ``curl`` sending what it is fed, where the command feeding it
    read the files ``fed`` (``qpdf --decrypt payslip.pdf - | curl -F file=@- URL``,
    ``gs -o '%pipe%curl -T - URL' doc.pdf``): those files are what is sent."""
    return upload_marks("curl", (*args, *(w for f in fed for w in ("-T", f))))


def _built(path: str) -> bool:
    """Whether ``path`` is in (or is) a folder a build writes its output to, by its
    first part (``dist``, ``build/libs``): made to be shipped, not the project's own."""
    first = path.removeprefix("./").split("/", 1)[0]
    return first in _BUILD_OUTPUTS


def uploaded_files(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The files ``program args`` sends to another machine (none: it sends no file)."""
    if program == "curl":
        return _curl_files(args)
    if program == "ffmpeg":  # `ffmpeg -i F -f data http://host/u`: F's streams sent
        inputs, outputs = ffmpeg_files(args)
        sent = any(o.lower().startswith(_STREAMED) and not is_local(o) for o in outputs)
        return tuple(i for i in inputs if "://" not in i) if sent else ()
    if program == "rclone":
        operands = [a for a in args if not a.startswith("-")]
        if "--dry-run" in args or "-n" in args or "--interactive" in args:
            return ()  # it lists what it would copy, and copies nothing (or asks first)
        if len(operands) >= 3 and operands[0] in _RCLONE_UPLOADS:
            source = operands[1]  # `rclone copy dist r:b` (an option's value may come later)
            if ":" not in source and any(":" in o for o in operands[2:]):
                return (source,)
    return ()


def _curl_files(args: tuple[str, ...], keep_stdin: bool = False) -> tuple[str, ...]:
    files: list[str] = []
    urls: list[str] = []
    at = 0
    while at < len(args):
        arg = args[at]
        value = args[at + 1] if at + 1 < len(args) else ""
        at += 1
        name, equals, glued = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        short = arg[:1] == "-" and arg[1:2] != "-"
        if name == "--upload-file" or (short and arg.endswith("T")):  # `-T F`, `-sT F`
            files.append(glued if equals else value)
            at += 0 if equals else 1
        elif short and arg.startswith("-T"):  # `-TF`
            files.append(arg[2:])
        elif name in ("-F", "--form"):
            files.extend(_form_file(glued if equals else value))
            at += 0 if equals else 1
        elif short and arg.startswith("-F"):  # `-Ff=@F`
            files.extend(_form_file(arg[2:]))
        elif name in _CURL_VALUED:
            at += 0 if equals else 1
        elif arg[:1] != "-":
            urls.append(arg)
    if not files or (urls and all(is_local(u) for u in urls)):
        return ()
    return tuple(f.strip("\"'") for f in files if f and (f != "-" or keep_stdin))


def _form_file(field: str) -> list[str]:
    """The file of a form field ``name=@FILE;type=...`` (or ``name=<FILE``)."""
    _, equals, value = field.partition("=")
    if not equals or value[:1] not in ("@", "<"):
        return []
    return [value[1:].split(";", 1)[0]]
