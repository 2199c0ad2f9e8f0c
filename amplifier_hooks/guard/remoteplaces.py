"""A copy into another machine's system folders: ``scp FILE host:/etc/``, ``rsync -a lib/
host:/usr/local/lib/``. The file lands where that machine takes its settings, programs and
boot files from, so it changes how the machine runs (or whether it starts), as a command
run there would (`ssh-remote-command`, asked); the guard sees neither machine's files.

The destination is the copy's last operand as the table reads scp's and rsync's options
(`table.network`); a download (``scp host:/etc/x .``) or a copy to a deploy folder
(``host:/srv/app``, ``host:/var/www``) is not one.
"""

from __future__ import annotations

import posixpath
import re

from amplifier_hooks.guard.table.network import RSYNC, SCP
from amplifier_hooks.guard.table.options import read_options

__all__ = ["REMOTE_SYSTEM", "remote_system_destination"]

REMOTE_SYSTEM = "@remote-system-write"
"""The mark of a copy into another machine's system folders."""
_REMOTE = re.compile(r"^(?:[^/:@]+@)?(?:\[[^\]]*\]|[^/:\[\]]+):(?!:)(.*)$")
"""``[user@]host:path`` (not rsync's ``host::module`` daemon form, not a URL)."""
_SYSTEM = ("/etc", "/bin", "/sbin", "/boot", "/lib", "/lib32", "/lib64", "/libx32", "/usr",
           "/var/lib", "/var/spool/cron", "/root")  # fmt: skip
_SPECS = {"scp": SCP, "rsync": RSYNC}


def remote_system_destination(program: str | None, args: tuple[str, ...]) -> str | None:
    """The remote destination of ``scp``/``rsync`` ARGS when it is a system folder."""
    spec = _SPECS.get(program or "")
    if spec is None:
        return None
    operands = read_options(spec, args).operands
    if len(operands) < 2:
        return None
    found = _REMOTE.match(operands[-1])
    if found is None:
        return None
    path = found.group(1)
    if not path.startswith("/"):
        return None  # the remote user's home folder
    folder = posixpath.normpath(path)
    if folder == "/" or any(folder == s or folder.startswith(s + "/") for s in _SYSTEM):
        return operands[-1]
    return None
