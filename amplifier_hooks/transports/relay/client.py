"""The command hook's side: hand the call to the workspace's server, starting it if needed.

Flow: ask the server; if there is none (no socket, a stale one, one that was exiting),
take the lock, ask again (another hook may have started it meanwhile), else remove the
stale socket and start ``amplifier-hooks serve --unix`` detached, wait until it says it
is ready, release the lock, ask. Anything that fails is a `RelayError` with a reason; the
caller turns it into the host's fail-closed answer, never an allow.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Mapping

from amplifier_hooks.transports.relay.place import (
    PlaceError,
    beside,
    check_private_dir,
    ensure_private_dir,
    socket_path,
)
from amplifier_hooks.transports.relay.wire import Dropped, NoServer, WireError, post

Started = Callable[[object], None]
"""Told of a server the relay started: its `amplifier_hooks.transports.relay.servers.ServerNote`
(named `object` here: importing that module, or `typing`, would cost every hook call)."""

__all__ = [
    "DEFAULT_IDLE_EXIT",
    "RELAY_PREFIX",
    "RelayAnswer",
    "RelayError",
    "ask_server",
    "relay",
]

DEFAULT_IDLE_EXIT = 3600.0
"""Seconds without a call after which a started server exits. Longer than a person's
coffee break, since the module state of every session in it goes with it."""

RELAY_PREFIX = "/relay/"
"""Path prefix of the server's command-hook route: ``/relay/claude-code`` answers with the
whole `HostAnswer` (JSON, exit code, stderr) where ``/claude-code`` answers as an HTTP
hook."""


class RelayError(Exception):
    """The call could not be answered by a server; the message says why."""


class RelayAnswer:
    """What the hook process prints and exits with (a plain class: a dataclass or a
    NamedTuple would cost the hook process imports it otherwise does without).

    ``stdout`` is the text printed: the answer's JSON and a newline, or nothing. The
    relay carries it as it is (`body`, `from_body`), so the hook process never imports
    `json` (with `re`, a good part of what it would import); `output` decodes it."""

    __slots__ = ("exit_code", "stderr", "stdout")

    def __init__(
        self,
        output: dict[str, object] | None,
        exit_code: int,
        stderr: str,
        *,
        stdout: str | None = None,
    ) -> None:
        if stdout is None:
            stdout = "" if output is None else _json_line(output)
        self.stdout = stdout
        self.exit_code = exit_code
        self.stderr = stderr

    @property
    def output(self) -> dict[str, object] | None:
        """The answer's JSON, decoded (None: nothing is printed)."""
        if not self.stdout:
            return None
        import json

        decoded: dict[str, object] = json.loads(self.stdout)
        return decoded

    def body(self) -> bytes:
        """The relay route's body: ``EXIT\\nN\\n``, N bytes of stderr, then stdout."""
        err = self.stderr.encode("utf-8", "replace")
        return b"%d\n%d\n" % (self.exit_code, len(err)) + err + self.stdout.encode("utf-8")

    @classmethod
    def from_body(cls, body: bytes, *, json_output: bool = True) -> RelayAnswer:
        """The answer in a `body`; ValueError when it is not one (with ``json_output``,
        when what it prints is not one JSON object, as a hook's answer always is)."""
        code, _, rest = body.partition(b"\n")
        size, _, rest = rest.partition(b"\n")
        if not (code.lstrip(b"-").isdigit() and size.isdigit() and len(rest) >= int(size)):
            raise ValueError("not a relay answer")
        stderr = rest[: int(size)].decode("utf-8", "replace")
        stdout = rest[int(size) :].decode("utf-8")
        if json_output and stdout and not (stdout.startswith("{") and stdout.endswith("}\n")):
            raise ValueError("its output is not a JSON object")
        return cls(None, int(code), stderr, stdout=stdout)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RelayAnswer):
            return NotImplemented
        return (self.output, self.exit_code, self.stderr) == (
            other.output,
            other.exit_code,
            other.stderr,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __repr__(self) -> str:
        return f"RelayAnswer({self.output!r}, {self.exit_code!r}, {self.stderr!r})"


def _json_line(output: dict[str, object]) -> str:
    import json

    return json.dumps(output) + "\n"


def relay(
    host: str,
    bundle: str,
    workspace: str,
    payload: bytes,
    *,
    idle_exit: float = DEFAULT_IDLE_EXIT,
    environ: Mapping[str, str] | None = None,
    event: str | None = None,
) -> RelayAnswer:
    """The answer of the server for (``bundle``, ``workspace``) to one ``host`` hook call,
    starting that server if none runs; ``event`` names the call's event for a host whose
    input does not (`amplifier_hooks.host_commands.EVENT_ARGUMENT_HOSTS`). Every failure
    is a `RelayError`."""
    env = os.environ if environ is None else environ
    target = RELAY_PREFIX + host + _query(env, event)
    return ask_server(bundle, workspace, target, payload, idle_exit=idle_exit, environ=environ)


def ask_server(
    bundle: str,
    workspace: str,
    target: str,
    payload: bytes,
    *,
    idle_exit: float = DEFAULT_IDLE_EXIT,
    environ: Mapping[str, str] | None = None,
    json_output: bool = True,
    started: Started | None = None,
) -> RelayAnswer:
    """POST ``payload`` to ``target`` on the server for (``bundle``, ``workspace``),
    starting that server if none runs; its answer (``json_output``: see
    `RelayAnswer.from_body`). A server started is noted (for ``doctor``), then given to
    ``started``, which by default says on stderr that it runs and how to stop it
    (`launch.announce`). Every failure, a status other than 200 included, is a
    `RelayError`."""
    path = socket_path(bundle, workspace, environ)
    call = (target, payload, json_output)
    try:
        return _relay(bundle, workspace, path, call, idle_exit, started)
    except OSError as exc:  # a lock, log or socket path that is not what it should be
        raise RelayError(f"cannot use {os.path.dirname(path)}: {exc}") from exc


_Call = tuple[str, bytes, bool]  # (target, payload, json_output)


def _relay(
    bundle: str,
    workspace: str,
    path: str,
    call: _Call,
    idle_exit: float,
    started: Started | None,
) -> RelayAnswer:
    directory = os.path.dirname(path)
    try:
        # Before connecting: a folder of another user may hold their server.
        exists = check_private_dir(directory)
    except PlaceError as exc:
        raise RelayError(str(exc)) from exc
    if exists:
        try:
            return _ask(path, call)
        except NoServer:
            pass
    try:
        ensure_private_dir(directory)
    except PlaceError as exc:
        raise RelayError(str(exc)) from exc
    # An exclusive lock, so concurrent first calls start one server. The holder waits at
    # most `launch.START_TIMEOUT` for its server, so the wait here is bounded.
    lock = os.open(beside(path, ".lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            return _ask(path, call)
        except NoServer:
            pass
        # (imported only when a server is started: subprocess is a costly import for a
        # hook call)
        from amplifier_hooks.transports.relay.launch import StartError, start_server

        try:
            start_server(bundle, workspace, path, idle_exit, started)
        except StartError as exc:
            raise RelayError(str(exc)) from exc
    finally:
        os.close(lock)  # releases the lock
    try:
        return _ask(path, call)
    except NoServer as exc:
        raise RelayError(f"the hook server started but cannot be reached: {exc}") from exc


_ATTEMPTS = 3
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")


def _word(value: str) -> bool:
    """Whether ``value`` can go in a query as it is (a short word)."""
    return 0 < len(value) <= 64 and set(value) <= _WORD_CHARS


def _query(environ: Mapping[str, str], event: str | None) -> str:
    """``?entrypoint=cli``: how Claude Code was started ($CLAUDE_CODE_ENTRYPOINT), which
    tells the server whether a person is at its prompt (nothing for an odd value); and
    ``event=NAME`` (`relay`)."""
    params = []
    entrypoint = environ.get("CLAUDE_CODE_ENTRYPOINT", "")
    if _word(entrypoint):
        params.append("entrypoint=" + entrypoint)
    if event is not None:
        if not _word(event):
            raise RelayError(f"not an event name: {event[:64]!r}")
        params.append("event=" + event)
    return "?" + "&".join(params) if params else ""


def _ask(path: str, call: _Call) -> RelayAnswer:
    """The server's answer; `NoServer` if none listens. A server that drops the
    connection unanswered was stopping: ask again (it is gone by then, or answers)."""
    for _ in range(_ATTEMPTS - 1):
        try:
            return _ask_once(path, call)
        except Dropped:
            continue
    try:
        return _ask_once(path, call)
    except Dropped as exc:
        raise RelayError(f"{exc}, {_ATTEMPTS} times") from exc


def _ask_once(path: str, call: _Call) -> RelayAnswer:
    target, payload, json_output = call
    try:
        status, body = post(path, target, payload)
    except (NoServer, Dropped):
        raise
    except (WireError, OSError) as exc:
        raise RelayError(f"the hook server at {path} failed: {exc}") from exc
    if status != 200:
        text = body.decode("utf-8", "replace").strip()[:500]
        raise RelayError(f"the hook server at {path} answered {status}: {text}")
    try:
        return RelayAnswer.from_body(body, json_output=json_output)
    except ValueError as exc:
        raise RelayError(f"the hook server at {path} sent an unreadable answer ({exc})") from exc
