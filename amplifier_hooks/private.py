"""Our state on disk is the person's alone: folders 0700, files 0600, whoever makes them.

The event log, the approvals database (with SQLite's ``-wal`` and ``-shm``), the token and
the relay's sockets say what the agent did and read; another local user must not read
them. Each is made private at creation (an explicit mode, never a later chmod that a
reader could race). One that already exists with looser modes is tightened when it is
ours; one owned by another user is refused with a message that says what to do, since
its owner could read it or swap it. Devices and pipes (``/dev/null`` as a log path) are
not state: they are used as they are and never changed.
"""

from __future__ import annotations

import os
import stat

__all__ = [
    "PrivateStateError",
    "make_dirs",
    "private_dir",
    "private_file",
    "state_home",
    "tighten_file",
]

DIR_MODE = 0o700
FILE_MODE = 0o600


class PrivateStateError(OSError):
    """A state folder or file that is not ours, or not a folder where one must be."""


def state_home(environ: os._Environ[str] | dict[str, str] | None = None) -> str:
    """``$XDG_STATE_HOME/amplifier-hooks`` (``~/.local/state/amplifier-hooks`` if unset)."""
    env = os.environ if environ is None else environ
    state = env.get("XDG_STATE_HOME") or ""
    if not os.path.isabs(state):
        home = env.get("HOME") or os.path.expanduser("~")
        state = os.path.join(home, ".local", "state")
    return os.path.join(state, "amplifier-hooks")


def make_dirs(directory: str | os.PathLike[str]) -> None:
    """Make ``directory`` and each of its missing parents 0700, whatever the umask
    (``os.makedirs`` gives the parents the umask's mode: 0777 under umask 000, where
    another user could put a hook or plugin of theirs in a folder we made). Folders that
    exist are left as they are: they are the person's."""
    path = os.path.abspath(os.fspath(directory))
    missing = []
    while not os.path.isdir(path):
        missing.append(path)
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, DIR_MODE)
        except FileExistsError:  # made meanwhile (another of our processes): checked below
            if not os.path.isdir(folder):
                raise


def private_dir(directory: str | os.PathLike[str]) -> None:
    """Make ``directory`` 0700 if missing (its missing parents too: the ones we make hold
    nothing but ours); tighten it when it is ours and open to others; raise
    `PrivateStateError` when it is another user's or not a folder."""
    path = os.fspath(directory)
    if not os.path.lexists(path):
        try:
            make_dirs(path)
        except OSError as exc:
            raise PrivateStateError(f"cannot make {path}: {exc.strerror or exc}") from exc
    info = os.stat(path)
    if not stat.S_ISDIR(info.st_mode):
        raise PrivateStateError(f"{path} is not a folder; move it away")
    _check_owner(path, info)
    if info.st_mode & 0o077:
        os.chmod(path, DIR_MODE)


def private_file(path: str | os.PathLike[str], flags: int = os.O_WRONLY | os.O_APPEND) -> int:
    """Open ``path`` with ``flags``, made 0600 if it is new (its folder by `private_dir`
    when missing, or when it is the state folder), tightened if it is an existing file of
    ours; a descriptor. A device or
    pipe is opened as it is, untouched. Another user's file is refused."""
    name = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(name))
    if folder == state_home() or not os.path.isdir(folder):
        private_dir(folder)
    try:
        fd = os.open(name, flags | os.O_CREAT | os.O_EXCL, FILE_MODE)
        return fd
    except FileExistsError:
        pass
    fd = os.open(name, flags)
    try:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode):
            _check_owner(name, info)
            if info.st_mode & 0o077:
                os.fchmod(fd, FILE_MODE)
    except BaseException:
        os.close(fd)
        raise
    return fd


def tighten_file(path: str | os.PathLike[str]) -> None:
    """Make an existing regular file of ours 0600 (a missing one, a device or pipe is
    left alone); raise `PrivateStateError` for another user's."""
    name = os.fspath(path)
    try:
        info = os.stat(name)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(info.st_mode):
        return
    _check_owner(name, info)
    if info.st_mode & 0o077:
        os.chmod(name, FILE_MODE)


def _check_owner(path: str, info: os.stat_result) -> None:
    if info.st_uid != os.getuid():
        raise PrivateStateError(
            f"{path} belongs to user id {info.st_uid}, not to you (user id {os.getuid()}): "
            "it may be read or replaced by them; move it away or point us elsewhere"
        )
