"""Where a request goes and what its address carries: a cloud's metadata service, however
its address is spelled, and a credential written into a URL.

The metadata service hands any program on the machine the machine's cloud credentials,
so a request to it is a credential read (`metadatahosts`, which reads each spelling of its
address back to the address: `urlhosts`).

A URL sent anywhere is logged on the way (proxies, the server, its referrers), so a
credential in it is sent: a provider's token by its shape (`secret_shapes.credentials_in`),
a JSON web token or a ``user:password@`` to a host that is not this machine.

`mark_destinations` marks the pieces that make such requests, for the pack's rules
(``wrapped: ["@cloud-metadata-credentials"]`` and the others below).
"""

from __future__ import annotations

import posixpath
from urllib.parse import unquote

from amplifier_hooks.guard.keyedsecrets import keyed_secrets
from amplifier_hooks.guard.memo import resolved
from amplifier_hooks.guard.metadatahosts import metadata_host
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.providers import (
    BODY_KEYED,
    foreign_secret,
    providers_host,
    secrets_go_home,
    uses_secret,
    uses_variable,
)
from amplifier_hooks.guard.remoteplaces import REMOTE_SYSTEM, remote_system_destination
from amplifier_hooks.guard.table import read_call
from amplifier_hooks.guard.table.acts import Does
from amplifier_hooks.guard.table.network import NETWORKING
from amplifier_hooks.guard.uploads import fed_upload_marks, sends_stdin, upload_marks
from amplifier_hooks.guard.urlhosts import SCHEME, authority_of, host_of, is_local
from amplifier_hooks.guard.urlpayloads import Payload, url_payload
from amplifier_hooks.secret_shapes import BUILTIN_RULES, credentials_in

__all__ = [
    "CLOUD_METADATA",
    "DATA_TO_DROP",
    "DOWNLOAD",
    "EXAMINED",
    "HERE_WORDS",
    "HOME_COPIED",
    "HOME_OUT",
    "HOME_WORDS",
    "METADATA_CREDENTIALS",
    "PEOPLE_IDS_IN_URL",
    "PEOPLE_IN_URL",
    "REQUESTERS",
    "SECRET_ELSEWHERE",
    "SECRET_HEADER_API",
    "SECRET_HEADER_HOME",
    "SECRET_IN_URL",
    "WORKSPACE_OUT",
    "mark_destinations",
]

CLOUD_METADATA = "@cloud-metadata"
"""A request to a cloud metadata service (it describes the machine)."""
METADATA_CREDENTIALS = "@cloud-metadata-credentials"
"""A request for what the metadata service hands out as secrets: role credentials, access
tokens, identity tokens, user data (which often holds them), or ECS's task credentials."""
SECRET_IN_URL = "@secret-in-url"
"""A request whose URL carries a credential."""
DATA_TO_DROP = "@data-to-drop"
"""A request whose URL's query sends data to a request-capture or paste service."""
PEOPLE_IDS_IN_URL = "@people-ids-in-url"
"""A request whose URL's query carries a social security number."""
PEOPLE_IN_URL = "@people-in-url"
"""A request whose URL's query carries several people's email addresses."""
WORKSPACE_OUT = "@workspace-to-host"
"""scp or rsync sending the working folder as a whole to another machine."""
HOME_OUT = "@home-to-host"
"""scp, rsync or a cloud storage copier (``aws s3 sync ~ s3://b``) sending the home folder
(or the root) as a whole to another machine."""
HOME_COPIED = "@home-copied"
"""An archiver packing the home folder (or the root) as a whole (``tar czf x.tgz ~``)."""
DOWNLOAD = "@cloud-download"
"""A copy from cloud storage into a folder here (``aws s3 sync s3://b/x data/raw``)."""
SECRET_ELSEWHERE = "@secret-to-other-host"
SECRET_HEADER_HOME = "@secret-header-home"
"""A provider's secret sent in a header to the provider's own hosts, and in nothing else
(or in the body, to a provider whose API takes its keys there: `providers.BODY_KEYED`)."""
SECRET_HEADER_API = "@secret-header-api"
"""A secret no provider's table names sent in a header (or as the basic-auth user) only,
to a host the guard cannot tie to it (``$LOOKER_TOKEN`` to ``acme.looker.com``): the
service's API called with its key, or the key sent away; a person tells which."""
"""A request that carries a provider's secret variable to a host not the provider's
(`providers.foreign_secret`)."""

REQUESTERS = frozenset(
    {"curl", "wget", "http", "https", "xh", "xhs", "aria2c", "lwp-request", "GET", "POST",
     "HEAD", "lynx", "links", "w3m", "elinks", "httpie", "nc", "ncat", "netcat", "telnet",
     "socat", "openssl", "scp", "rsync"}
)  # fmt: skip
"""Programs whose words name the hosts they reach (a URL, or a bare host)."""
_PACKERS = frozenset({"tar", "gtar", "bsdtar", "zip", "7z", "7za"})
_SYNCERS = {"aws": ("s3",), "gsutil": (), "rclone": ()}
"""Cloud storage copiers and the words before their command (``aws s3 sync SRC DST``)."""
_UPLOADS = frozenset({"sync", "cp", "mv", "rsync", "copy", "move"})
EXAMINED = REQUESTERS | _PACKERS | frozenset(_SYNCERS) | {"ffmpeg"}  # (ffmpeg: `uploads`)
"""The shell programs `mark_destinations` reads (a piece of another tool: always)."""


def mark_destinations(pieces: tuple[Piece, ...], places: Places | None = None) -> tuple[Piece, ...]:
    """``pieces`` with each request to a metadata service, and each URL carrying a
    credential, marked; the same tuple when none is. With ``places``, a copy naming the
    project or the home folder by its full path (``scp -r /home/dev/project h:``, ``tar czf
    x.tgz -C /home dev``) is marked as its ``.`` or ``~`` is."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if piece.tool == "bash" and piece.program not in EXAMINED:
            continue
        marks = _marks(piece, places)
        if not marks and index and sends_stdin(piece.program or "", piece.args):
            marks = fed_upload_marks(piece.args, _fed_files(pieces[:index], piece.program or ""))
        if marks:
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, *marks))
    return pieces if out is None else tuple(out)


def _fed_files(earlier: tuple[Piece, ...], program: str) -> tuple[str, ...]:
    """The files the piece that feeds ``program`` (the last before it piping into it)
    reads: what a pipeline's upload of its input sends. A feeder the table cannot read
    (``qpdf --decrypt payslip.pdf -``) is taken to read its words that are no option."""
    for feeder in reversed(earlier):
        if program in feeder.pipes_to and feeder.program:
            reading = read_call(feeder.program, feeder.args)
            if reading.doubt is not None and not reading.acts:
                return tuple(a for a in feeder.args if a[:1] not in ("-", "@", ""))[:16]
            acts = reading.acts
            return tuple(a.target for a in acts if a.does is Does.READ and a.target)[:16]
    return ()


HERE_WORDS = frozenset({".", "./", "./*", "*", "$PWD", "$PWD/", "${PWD}", "$(pwd)"})
"""The working folder as a whole, as a copy names it."""
HOME_WORDS = frozenset(
    {"~", "~/", "~/.", "~/*", "$HOME", "$HOME/", "$HOME/.", "${HOME}", "${HOME}/", "/", "/*", "/."}
)
"""The home folder (or the root) as a whole."""


def _whole(words: set[str] | tuple[str, ...], piece: Piece, places: Places | None) -> str | None:
    """`HOME_OUT` when one of ``words`` is the home folder as a whole, or a folder holding
    it (``~``, ``/home/dev``, ``/home``), else `WORKSPACE_OUT` when one is the project's
    (``.``, ``$PWD``, its full path, ``..``); None: neither. A full or ``..`` path is
    placed only when ``places`` is known."""
    found = None
    for word in words:
        if word in HOME_WORDS:
            return HOME_OUT
        if word in HERE_WORDS:
            found = WORKSPACE_OUT
        elif places is not None and word.startswith(("/", "..")):
            folder = str(places.workspace)
            path = posixpath.join(folder, piece.cwd or "", word.removesuffix("*"))
            path = posixpath.normpath(path)
            if _holds(path, str(places.home)):
                return HOME_OUT
            found = WORKSPACE_OUT if _holds(path, folder) else found
    return found


def _holds(path: str, folder: str) -> bool:
    """``path`` is ``folder`` or a folder above it."""
    return path == folder or folder.startswith(path.rstrip("/") + "/")


def _marks(piece: Piece, places: Places | None) -> tuple[str, ...]:
    if piece.program in _PACKERS:  # `tar -C ~ -cz .ssh` packs ~/.ssh, not the home folder
        acts = read_call(piece.program or "", piece.args).acts
        # (the shell expands `~` before tar joins it to its folder: `./~` is the home folder)
        read = {a.target.removeprefix("./") for a in acts if a.does is Does.READ}
        return (HOME_COPIED,) if _whole(read, piece, places) == HOME_OUT else ()
    if piece.program in _SYNCERS:
        whole = _whole(_synced(piece.program or "", piece.args), piece, places)
        if whole is not None:
            return (whole,)
        if _downloads(piece.program or "", piece.args):
            return (DOWNLOAD,)
        return upload_marks(piece.program or "", piece.args)
    copier = NETWORKING.get(piece.program or "")
    if copier is not None and piece.program != "ssh":
        acts = copier(piece.args).acts
        if not any(a.does is Does.NETWORK for a in acts):
            return ()
        sent = {a.target for a in acts if a.does is Does.READ}
        system = remote_system_destination(piece.program, piece.args)  # `scp F host:/etc/`
        placed = (REMOTE_SYSTEM,) if system is not None else ()
        whole = _whole(sent, piece, places)
        return placed if whole is None else (whole, *placed)
    shell = piece.tool == "bash"
    # `curl -T F URL`, `curl -F f=@F URL`, `rclone copy dir r:`: files sent (`uploads`)
    marks = list(upload_marks(piece.program or "", piece.args)) if shell else []
    hosts: list[str] = []
    for arg in piece.args:
        word = arg.partition("=")[2] if arg.startswith("--") and "=" in arg else arg
        if not word or (word.startswith("-") and shell):
            continue
        url = SCHEME.match(word) is not None
        if not url and not shell:
            continue
        found, carried, host = _word(word, url, shell)
        if found is not None:
            marks.append(METADATA_CREDENTIALS if found else CLOUD_METADATA)
        if carried is not None:
            marks.append(_CARRIED[carried])
        if host is not None:
            hosts.append(host)
    if hosts and foreign_secret(piece.args, tuple(hosts)) is not None:
        marks.append(SECRET_ELSEWHERE)
    elif hosts and secrets_go_home(piece.args, tuple(hosts), BODY_KEYED):
        marks.append(SECRET_HEADER_HOME)  # (Plaid's keys go in its requests' body)
    elif hosts and (headers := _headers_only(piece.args)) is not None:
        if secrets_go_home(headers, tuple(hosts)):
            marks.append(SECRET_HEADER_HOME)
        elif uses_secret(headers) and not providers_host(tuple(hosts)):
            marks.append(SECRET_HEADER_API)  # (a known provider's host takes its own keys)
    return tuple(dict.fromkeys(marks))


_HEADERS = frozenset({"-H", "--header", "-u", "--user"})


def _headers_only(args: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words of ``args`` that use a variable when every one is a header's value or
    the basic-auth user (``-H "Authorization: Bearer $OPENAI_API_KEY"``, ``-u
    "$STRIPE_SECRET_KEY:"``): the request data itself carries none (None: some other
    word uses one, or none does)."""
    headers: list[str] = []
    for index, arg in enumerate(args):
        if not uses_variable(arg):  # (`--data-urlencode "from=$(date +%s)"`: no secret)
            continue
        if index and args[index - 1] in _HEADERS:
            headers.append(arg)
        elif arg.startswith(("--header=", "--user=")):
            headers.append(arg.partition("=")[2])
        else:
            return None
    return tuple(headers) if headers else None


def _word(word: str, url: bool, shell: bool) -> tuple[bool | None, Payload | None, str | None]:
    """What one word of a request says: whether it reaches a metadata service
    (`metadata_host`), what its URL carries (a credential: `_carries_secret`; else
    `url_payload`), and the host a shell
    command's URL sends to when that is not this machine. Worked out once per decision
    (`memo`): code that sends what it read names its URL in several pieces (the
    slowest corpus cases: three to six), each read for all of this."""
    memo = resolved()
    key = (_WORD, word, shell)
    if memo is not None and key in memo:
        known: tuple[bool | None, Payload | None, str | None] = memo[key]
        return known
    carried = None
    if url:
        carried = Payload.SECRET if _carries_secret(word) else url_payload(word)
    host = (
        host_of(authority_of(word).rpartition("@")[2])
        if url and shell and not is_local(word)
        else None
    )
    found = (metadata_host(word), carried, host)
    if memo is not None:
        memo[key] = found
    return found


_CARRIED = {Payload.SECRET: SECRET_IN_URL, Payload.DROP: DATA_TO_DROP,
            Payload.PEOPLE_IDS: PEOPLE_IDS_IN_URL, Payload.PEOPLE: PEOPLE_IN_URL}  # fmt: skip
_WORD = "destination-word"
"""Tags this module's entries in the decision's memo."""


def _downloads(program: str, args: tuple[str, ...]) -> bool:
    """``aws s3 sync s3://b/x data/raw``, ``aws s3 cp s3://b/k.zip /tmp/``, ``gsutil cp
    gs://b/k .``: a copy from cloud storage to a folder here, which changes nothing there.
    Its options must be ones that only shape the copy (no ``--delete``, which removes
    files here, judged as the local delete it is not read as)."""
    args = _endpoint_left_out(args)
    operands = [a for a in args if not a.startswith("-")]
    head = _SYNCERS[program]
    if tuple(operands[: len(head)]) != head or any(a not in _COPY_OPTIONS for a in args
                                                   if a.startswith("-")):  # fmt: skip
        return False
    rest = operands[len(head) :]
    return (
        len(rest) == 3 and rest[0] in ("sync", "cp") and rest[1].startswith(("s3://", "gs://"))
        and "://" not in rest[2] and ":" not in rest[2]
    )  # fmt: skip


_COPY_OPTIONS = frozenset(
    {
        "--recursive",
        "-r",
        "-R",
        "--quiet",
        "--only-show-errors",
        "--no-progress",
        "--exact-timestamps",
        "--size-only",
        "-m",
        "-n",
    }
)
"""Options of a cloud copy that change only how it copies (none takes a value)."""


def _endpoint_left_out(args: tuple[str, ...]) -> tuple[str, ...]:
    """``args`` without aws's ``--endpoint-url URL`` (``=URL``): where the bucket is
    served from, which changes nothing of what a download writes here."""
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--endpoint-url":
            skip = True
        elif not arg.startswith("--endpoint-url="):
            out.append(arg)
    return tuple(out)


def _synced(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The folder ``aws s3 sync ~ s3://b``, ``gsutil rsync -r . gs://b``, ``rclone copy ~
    r:`` uploads, the source of an upload (its operands in order, options left out); ()
    for any other call."""
    operands = [a for a in args if not a.startswith("-")]
    head = _SYNCERS[program]
    if tuple(operands[: len(head)]) != head:
        return ()
    rest = operands[len(head) :]
    return (rest[1],) if len(rest) >= 3 and rest[0] in _UPLOADS and ":" in rest[2] else ()


_JWT = BUILTIN_RULES["jwt"]
_USERINFO = BUILTIN_RULES["url_credentials"]


def _carries_secret(url: str) -> bool:
    """Whether ``url`` holds a provider's credential by its shape, or (to a host other
    than this machine) a secret-named field with a random value (``token=...``), a JSON
    web token or a password before its host."""
    text = unquote(url)
    if any(name != "slack_webhook" for name in credentials_in(text)):
        return True  # (a Slack webhook's URL is itself the credential: posting to it uses it)
    if keyed_secrets(text) and not is_local(text):
        return True  # `?token=cio_8f2K...`: a secret by its key's name and random value
    if "eyJ" not in text and "@" not in text:
        return False  # neither a token nor a password: each pattern needs its mark
    if is_local(text):
        return False
    for rule in (_JWT, _USERINFO):
        if rule.may_match(text, text.lower()) and any(
            rule.accepts(m) for m in rule.pattern.finditer(text)
        ):
            return True
    return False
