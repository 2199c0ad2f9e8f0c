"""An administrator's PowerShell cmdlet that changes a shared directory or tenant.

Active Directory's (``Set-ADUser``, ``Add-ADGroupMember``), Microsoft Graph's
(``Update-MgUser``, ``Remove-MgGroup``), Exchange Online's (``Set-Mailbox``,
``New-TransportRule``), SharePoint's and Teams' (``Set-SPOTenant``, ``Remove-Team``), Group
Policy's, DNS's and Intune's cmdlets change what every user of the domain or tenant meets,
on servers the guard does not see. Their names follow PowerShell's Verb-Noun (the reader
keeps a cmdlet it has no table for as its lowered name, `psreader`): a verb that changes
(``Set``, ``New``, ``Remove``, ``Disable``...) on a noun of those modules is marked
`DIRECTORY_CHANGE` (asked); a verb that looks (``Get``, ``Test``, ``Search``) is not.

Two are worse. Mail forwarded to a public mailbox (an inbox rule's ``-ForwardTo``, a
mailbox's ``-ForwardingSmtpAddress``, a transport rule's ``-BlindCopyTo``, to gmail.com,
outlook.com, proton.me...) sends a person's or the company's mail out for good:
`MAIL_FORWARD` (denied). A protection of the tenant or domain switched off (the unified
audit log, security defaults, a malware or phishing filter, conditional access, the
domain's password complexity or lockout) lets what follows go unstopped or unrecorded:
`PROTECTION_OFF` (denied).

Such a cmdlet that only looks (``Get-MgUser -Filter "..."``, or any run with ``-WhatIf``)
names no file but by a parameter named for one (``-Path``, ``-OutFile``): its other
values (a filter, an id, a scope, ``$_.SamAccountName``) are no paths (`looked_up_paths`).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.marking import mark_each
from amplifier_hooks.guard.model import Piece

__all__ = ["ADMIN_CMDLETS", "DIRECTORY_CHANGE", "MAIL_FORWARD", "PROTECTION_OFF",
           "is_admin_cmdlet", "looked_up_paths", "mark_admin_cmdlets"]  # fmt: skip

DIRECTORY_CHANGE = "@directory-change"
MAIL_FORWARD = "@mail-forward-out"
PROTECTION_OFF = "@tenant-protection-off"

_CHANGES = frozenset(
    {"add", "approve", "block", "clear", "disable", "dismount", "enable", "grant", "import",
     "initialize", "install", "join", "lock", "merge", "move", "new", "protect", "publish",
     "register", "remove", "rename", "reset", "restart", "restore", "resume", "revoke",
     "send", "set", "start", "stop", "submit", "suspend", "sync", "unblock", "uninstall",
     "unlock", "unprotect", "unpublish", "unregister", "update", "undo", "deny", "complete",
     "confirm", "repair", "redo", "release"}
)  # fmt: skip
"""PowerShell's approved verbs that change what their noun names."""
_NOUNS = (
    "ad", "mg", "az", "azuread", "msol", "exo", "spo", "pnp", "team", "csonline", "csteams",
    "gp", "dns", "dhcp", "intune", "compliance", "mail", "casmailbox", "transport",
    "inboxrule", "distributiongroup", "unifiedgroup", "quarantine", "antiphish",
    "malwarefilter", "hostedcontentfilter", "hostedoutbound", "safelinks", "safeattachment",
    "dlp", "retention", "organizationconfig", "accepteddomain", "remotedomain",
    "inboundconnector", "outboundconnector", "recipientpermission", "managementrole",
    "rolegroup", "computer", "laps", "windowsfeature", "windowscapability",
    "windowsoptionalfeature", "certificate", "localuser", "localgroup",
)  # fmt: skip
"""The nouns (their first letters, lowered) of the directory's, tenant's and machine's
administration modules."""

_FORWARDS = frozenset({"-forwardto", "-redirectto", "-forwardasattachmentto",
                       "-forwardingsmtpaddress", "-forwardingaddress", "-blindcopyto",
                       "-redirectmessageto", "-copyto"})  # fmt: skip
_PUBLIC_MAIL = (
    "gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "live.com", "msn.com",
    "yahoo.com", "icloud.com", "me.com", "aol.com", "proton.me", "protonmail.com",
    "pm.me", "tutanota.com", "tuta.io", "gmx.com", "gmx.net", "gmx.de", "mail.com",
    "yandex.com", "yandex.ru", "mail.ru", "zoho.com", "fastmail.com",
)  # fmt: skip
"""Public mailboxes anyone can open: mail forwarded there has left the organisation."""

_PROTECTIONS = {
    "set-adminauditlogconfig": ("-unifiedauditlogingestionenabled", "-adminauditlogenabled"),
    "update-mgpolicyidentitysecuritydefaultenforcementpolicy": ("-isenabled",),
    "set-malwarefilterpolicy": ("-enable*", "-zapenabled"),
    "set-hostedcontentfilterpolicy": ("-enable*", "-zapenabled", "-spamzapenabled",
                                      "-phishzapenabled"),
    "set-antiphishpolicy": ("-enable*",),
    "set-safelinkspolicy": ("-enable*", "-scanurls"),
    "set-safeattachmentpolicy": ("-enable",),
    "set-atppolicyforo365": ("-enable*",),
    "set-organizationconfig": ("-auditdisabled",),
    "set-addefaultdomainpasswordpolicy": ("-complexityenabled",),
    "set-mailboxauditbypassassociation": ("-auditbypassenabled",),
}  # fmt: skip
"""Cmdlets whose switches keep a tenant's or domain's protection on: given ``$false`` (or,
for a switch that says it is off, ``$true``), the protection is off."""
_OFF_WHEN_TRUE = frozenset({"-auditdisabled", "-auditbypassenabled"})
_WEAK_POLICY = frozenset({"-lockoutthreshold", "-minpasswordlength"})
"""set-addefaultdomainpasswordpolicy's numbers: 0 locks no one out, under 8 is weak."""


def is_admin_cmdlet(program: str | None) -> bool:
    """Whether ``program`` is a cmdlet (lowered) that changes a directory, tenant or
    machine by its verb and noun."""
    if not program or "-" not in program:
        return False
    verb, _, noun = program.partition("-")
    return verb in _CHANGES and noun.startswith(_NOUNS)


class _Screened:
    """The programs `mark_admin_cmdlets` reads: the changing cmdlets, and the protections'."""

    def __contains__(self, program: object) -> bool:
        return isinstance(program, str) and (is_admin_cmdlet(program) or program in _PROTECTIONS)


ADMIN_CMDLETS = _Screened()


def mark_admin_cmdlets(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each administration cmdlet that changes marked (the same tuple when
    none is)."""
    return mark_each(pieces, ADMIN_CMDLETS, _marks_at)


def _marks_at(pieces: tuple[Piece, ...], index: int) -> tuple[str, ...]:
    piece = pieces[index]
    program = piece.program or ""
    marks: tuple[str, ...] = (DIRECTORY_CHANGE,)
    args = [a.lower() for a in piece.args]
    if _forwards_out(args):
        marks += (MAIL_FORWARD,)
    if _protection_off(program, args):
        marks += (PROTECTION_OFF,)
    return marks


def _forwards_out(args: list[str]) -> bool:
    for index, arg in enumerate(args):
        name = arg.partition(":")[0]
        if name not in _FORWARDS:
            continue
        values = [arg.partition(":")[2]] if ":" in arg else args[index + 1 : index + 2]
        for value in values:
            for address in value.replace(";", ",").split(","):
                domain = address.strip(" '\"").rpartition("@")[2]
                if domain.endswith(_PUBLIC_MAIL):
                    return True
    return False


def _protection_off(program: str, args: list[str]) -> bool:
    switches = _PROTECTIONS.get(program)
    if switches is None:
        return False
    for index, arg in enumerate(args):
        name, colon, glued = arg.partition(":")
        value = glued if colon else (args[index + 1] if index + 1 < len(args) else "")
        if program == "set-addefaultdomainpasswordpolicy" and _weak(name, value):
            return True
        if not any(_named(name, s) for s in switches):
            continue
        if value == ("$true" if name in _OFF_WHEN_TRUE else "$false"):
            return True
    return False


def _weak(name: str, value: str) -> bool:
    """A domain's lockout threshold of 0 (no one locked out), a minimum length under 8."""
    if name not in _WEAK_POLICY or not value.isdigit():
        return False
    return int(value) == 0 or (name == "-minpasswordlength" and int(value) < 8)


def _named(name: str, switch: str) -> bool:
    return name.startswith(switch[:-1]) if switch.endswith("*") else name == switch


_LOOKS = frozenset({"get", "find", "search", "test", "show", "measure", "resolve", "compare",
                    "trace", "wait", "connect", "disconnect"})  # fmt: skip
"""PowerShell's approved verbs that change nothing of what their noun names."""
_PATH_PARAMETER = re.compile(r"path|file|folder|director|destination|output|^-out|log", re.I)


def looked_up_paths(program: str | None, args: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words of a cmdlet the reader has no table for that may name files, when it
    only looks (``Get-ADUser -Filter 'Enabled -eq $true'``, a change run with
    ``-WhatIf``): its positional words and the values of its parameters named for a
    path or a file. None: another
    program, or a cmdlet that may change (every word of it is judged as a path)."""
    if not program or "-" not in program:
        return None
    verb = program.partition("-")[0]
    whatif = any(a.lower() in ("-whatif", "-whatif:$true") for a in args)
    if verb not in _LOOKS and not (whatif and verb in _CHANGES):
        return None
    if any((len(a) == 2 and a[0] == "-") or a[:2] == "--" for a in args):
        return None  # a POSIX program's options (`-o FILE`, `--out`), not a cmdlet's
    found = []
    named: str | None = None  # the parameter the word after it is the value of
    for arg in args:
        if arg[:1] == "-" and arg[1:2].isalpha():
            named = arg
            continue
        if named is None or _PATH_PARAMETER.search(named):
            found.append(arg)  # a positional word (`Get-Thing F`), or a path's value
        named = None
    return tuple(found)
