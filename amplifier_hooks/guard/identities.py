"""The key files ssh's family is handed to sign with: ``ssh -i KEY``, ``scp -i KEY``,
``sftp -i KEY``, ``-o IdentityFile=KEY`` (also inside ``rsync -e``, ``GIT_SSH_COMMAND``
and git's ``core.sshCommand``, which are judged as ssh's own pieces), and ``ssh-add KEY``.
ssh reads the private key to prove who it is and neither prints it nor sends it, so those
words are not paths the call reads for the credential rules (`pathwords`).

Found by each option's place in the table (`table.network`), never by the value's name:
a key given as a file to copy (``scp ~/.ssh/id_rsa host:``) is an operand and stays a
read; a value glued to its option (``-ikey``) was never an operand; a command line with
an option the table does not list keeps every word (its values could be misread).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.table.network import SCP, SFTP, SSH, SSH_ADD
from amplifier_hooks.guard.table.options import Options, Takes, read_options

__all__ = ["KEY_USERS", "identity_words"]

KEY_USERS = frozenset({"ssh", "scp", "sftp", "ssh-add"})
_SPECS: dict[str, Options] = {"ssh": SSH, "scp": SCP, "sftp": SFTP}
_IDENTITY_SETTING = re.compile(r"^\s*(?:identityfile|certificatefile)\s*(?:=|\s)", re.I)
"""``-o IdentityFile=KEY`` (or ``IdentityFile KEY``): ssh_config's key, and its
certificate's (public)."""


def identity_words(program: str | None, args: tuple[str, ...]) -> tuple[str, ...]:
    """The words of ``args`` (each its own word) that hand ``program`` a key to sign with."""
    if program == "ssh-add":
        read = read_options(SSH_ADD, args)  # every operand is a key for the agent
        return () if read.doubt is not None else read.operands
    spec = _SPECS.get(program or "")
    if spec is None:
        return ()
    found = _separate_identities(spec, args, again_after_host=program == "ssh")
    return () if found is None else found


def _separate_identities(spec: Options, args: tuple[str, ...],
                         again_after_host: bool) -> tuple[str, ...] | None:  # fmt: skip
    """The identity values given as words of their own, reading as OpenSSH's getopt does:
    short options only, the first operand ends them (ssh reads options again after the
    host: `ssh host -i KEY`). None: an option the table does not list, or one missing
    its value."""
    found: list[str] = []
    index = 0
    host_seen = False
    while index < len(args):
        word = args[index]
        index += 1
        if word == "--":
            break
        if not word.startswith("-") or word == "-":
            if again_after_host and not host_seen:
                host_seen = True
                continue
            break
        at = 1
        while at < len(word):
            opt = spec.shorts.get(word[at])
            at += 1
            if opt is None:
                return None
            if opt.takes == Takes.NOTHING:
                continue
            if word[at:]:
                break  # glued on: never an operand
            if index >= len(args):
                return None
            value = args[index]
            index += 1
            if opt.does == "identity" or (opt.does == "option" and _IDENTITY_SETTING.match(value)):
                found.append(value)
            break
    return tuple(found)
