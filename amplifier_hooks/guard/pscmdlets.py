"""PowerShell's cmdlets the guard reads (their aliases: `psaliases`): their parameters
(which take a value, which are switches, which are positional) and what each does, by the
POSIX command that does the same to the same places (``Remove-Item -Recurse -Force X`` is
``rm -r -f X``).

Parameters are matched as PowerShell matches them: any unique prefix (``-Rec``, ``-Fo``),
in any case, ``-Name:value`` or ``-Name value``. A cmdlet not here keeps its own name as
the program (in lower case), which the pack's rules name (``set-mppreference``), and is
never granted. Only the cmdlets marked ``reads`` only read (files, listings, text) and may
be granted, when everything else in the command is understood.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["CMDLETS", "COMMON", "Cmdlet", "is_switch", "resolve_parameter"]


class Cmdlet(NamedTuple):
    """What a cmdlet does (``act``: how `psreader` writes it as a POSIX command), its
    parameters in lower case, the switches among them, and the positional ones in order."""

    act: str
    params: tuple[str, ...] = ()
    switches: frozenset[str] = frozenset()
    positional: tuple[str, ...] = ()
    reads: bool = False


COMMON = (
    "verbose",
    "debug",
    "erroraction",
    "warningaction",
    "informationaction",
    "errorvariable",
    "warningvariable",
    "informationvariable",
    "outvariable",
    "outbuffer",
    "pipelinevariable",
    "progressaction",
    "whatif",
    "confirm",
)
_COMMON_SWITCHES = frozenset({"verbose", "debug", "whatif", "confirm"})
_ITEM = ("path", "literalpath", "filter", "include", "exclude", "force", "credential")


def _c(
    act: str, params: str, switches: str = "", positional: str = "path", reads: bool = False
) -> Cmdlet:
    names = tuple(params.split()) if params else ()
    return Cmdlet(act, names, frozenset(switches.split()), tuple(positional.split()), reads)


_FETCH = _c(
    "fetch",
    "uri method body infile outfile headers usebasicparsing"
    " contenttype useragent credential passthru form sessionvariable"
    " websession maximumredirection timeoutsec",
    "usebasicparsing passthru",
    "uri",
)
_ALIAS = _c(
    "alias",
    "name value description option scope force passthru",
    "force passthru",
    "name value",
)
_CD = _c("cd", "path literalpath passthru stackname", "passthru")

CMDLETS: dict[str, Cmdlet] = {
    "remove-item": _c("remove", " ".join(_ITEM) + " recurse stream", "force recurse"),
    "get-content": _c(
        "read",
        " ".join(_ITEM) + " raw tail totalcount head first last readcount"
        " encoding delimiter wait stream asbytestream",
        "force raw wait asbytestream",
        reads=True,
    ),
    "set-content": _c(
        "write",
        " ".join(_ITEM) + " value encoding nonewline passthru stream asbytestream",
        "force nonewline passthru asbytestream",
        "path value",
    ),
    "add-content": _c(
        "append",
        " ".join(_ITEM) + " value encoding nonewline passthru stream asbytestream",
        "force nonewline passthru asbytestream",
        "path value",
    ),
    "out-file": _c(
        "outfile",
        "filepath literalpath encoding append force noclobber width nonewline inputobject",
        "append force noclobber nonewline",
        "filepath encoding",
    ),
    "clear-content": _c("clear", " ".join(_ITEM) + " stream", "force"),
    "copy-item": _c(
        "copy",
        " ".join(_ITEM) + " destination container recurse passthru fromsession tosession",
        "container recurse passthru force",
        "path destination",
    ),
    "move-item": _c(
        "move", " ".join(_ITEM) + " destination passthru", "force passthru", "path destination"
    ),
    "rename-item": _c(
        "rename",
        "path literalpath newname force passthru credential",
        "force passthru",
        "path newname",
    ),
    "new-item": _c(
        "newitem", "path name itemtype value force credential target", "force", "path value"
    ),
    "get-childitem": _c(
        "list",
        " ".join(_ITEM) + " recurse depth name directory file hidden"
        " readonly system attributes followsymlink",
        "recurse name directory file hidden readonly system force followsymlink",
        reads=True,
    ),
    "select-string": _c(
        "search",
        "pattern path literalpath simplematch casesensitive quiet list"
        " notmatch allmatches include exclude encoding context raw inputobject"
        " noemphasis culture",
        "simplematch casesensitive quiet list notmatch allmatches raw noemphasis",
        "pattern path",
        reads=True,
    ),
    "test-path": _c(
        "look", " ".join(_ITEM) + " pathtype isvalid olderthan newerthan", "isvalid", reads=True
    ),
    "get-item": _c("look", " ".join(_ITEM) + " stream", "force", reads=True),
    "resolve-path": _c(
        "look", "path literalpath relative relativebasepath credential", "relative", reads=True
    ),
    "get-itemproperty": _c("look", " ".join(_ITEM) + " name", "", "path name", reads=True),
    "get-itempropertyvalue": _c("look", " ".join(_ITEM) + " name", "", "path name", reads=True),
    "get-filehash": _c("look", "path literalpath algorithm inputstream", "", reads=True),
    "set-itemproperty": _c(
        "setprop",
        " ".join(_ITEM) + " name value type passthru",
        "force passthru",
        "path name value",
    ),
    "new-itemproperty": _c(
        "setprop",
        " ".join(_ITEM) + " name value propertytype passthru",
        "force passthru",
        "path name value",
    ),
    "remove-itemproperty": _c("setprop", " ".join(_ITEM) + " name", "force", "path name"),
    "set-location": _CD,
    "push-location": _CD,
    "invoke-webrequest": _FETCH,
    "invoke-restmethod": _FETCH,
    "start-bitstransfer": _c(
        "bits",
        "source destination asynchronous description displayname priority transfertype",
        "asynchronous",
        "source destination",
    ),
    "invoke-expression": _c("iex", "command", "", "command"),
    "invoke-command": _c(
        "invoke",
        "scriptblock computername session argumentlist filepath asjob credential noNewScope",
        "asjob nonewscope",
        "scriptblock",
    ),
    "start-process": _c(
        "start",
        "filepath argumentlist verb workingdirectory windowstyle wait"
        " passthru nonewwindow redirectstandardoutput redirectstandardinput"
        " redirectstandarderror credential loaduserprofile usenewenvironment",
        "wait passthru nonewwindow loaduserprofile usenewenvironment",
        "filepath argumentlist",
    ),
    "start-job": _c(
        "invoke",
        "scriptblock argumentlist name filepath initializationscript runas32 credential psversion",
        "runas32",
        "scriptblock",
    ),
    "start-threadjob": _c(
        "invoke",
        "scriptblock argumentlist name filepath initializationscript throttlelimit streamingHost",
        "",
        "scriptblock",
    ),
    "set-acl": _c(
        "acl",
        "path literalpath aclobject passthru clearcentralaccesspolicy filter"
        " include exclude inputobject",
        "passthru clearcentralaccesspolicy",
        "path aclobject",
    ),
    "write-output": _c("echo", "inputobject noenumerate", "noenumerate", "inputobject", reads=True),
    "write-host": _c(
        "echo",
        "object nonewline separator foregroundcolor backgroundcolor",
        "nonewline",
        "object",
        reads=True,
    ),
    "set-alias": _ALIAS,
    "new-alias": _ALIAS,
    "new-psdrive": _c(
        "drive",
        "name psprovider root description scope persist credential",
        "persist",
        "name psprovider root",
    ),
    "expand-archive": _c(
        "unzip",
        "path literalpath destinationpath force passthru",
        "force passthru",
        "path destinationpath",
    ),
    "compress-archive": _c(
        "zip",
        "path literalpath destinationpath compressionlevel update force passthru",
        "update force passthru",
        "path destinationpath",
    ),
    # a name looked up or a host pinged goes to a DNS server: a secret in it is sent
    "resolve-dnsname": _c("probe-nslookup", "name type server", "", "name"),
    "test-connection": _c(
        "probe-ping",
        "targetname computername count delay buffersize timetolive source",
        "quiet",
        "targetname",
    ),
    "test-netconnection": _c(
        "probe-ping",
        "computername port commontcpport informationlevel",
        "traceroute",
        "computername",
    ),
}
"""Cmdlets by lower-case name."""

_FILTERS = (
    "select-object",
    "where-object",
    "foreach-object",
    "sort-object",
    "format-table",
    "format-list",
    "format-wide",
    "out-null",
    "out-string",
    "out-host",
    "out-default",
    "measure-object",
    "group-object",
    "convertto-json",
    "convertfrom-json",
    "convertto-csv",
    "convertfrom-csv",
    "get-date",
    "get-location",
    "get-command",
    "get-help",
    "get-process",
    "get-service",
    "get-module",
    "get-psdrive",
    "get-member",
    "join-path",
    "split-path",
    "get-host",
    "get-culture",
    "write-verbose",
    "write-debug",
    "write-progress",
    "write-information",
    "start-sleep",
    "get-random",
    "compare-object",
    "get-unique",
    "select-xml",
    "convertto-html",
    "get-computerinfo",
    "get-uptime",
    "get-alias",
    "get-psreadlineoption",
    "get-executionpolicy",
    "get-installedmodule",
    "get-package",
    "get-ciminstance",
    "get-wmiobject",
    "get-netipaddress",
    "get-nettcpconnection",
    "get-volume",
    "get-disk",
    "get-partition",
    "get-eventlog",
    "get-winevent",
    "get-acl",
    "get-psprovider",
    "get-timezone",
    "get-hotfix",
    "get-localuser",
    "get-localgroup",
    "get-scheduledtask",
    "get-mppreference",
    "get-netfirewallprofile",
    "get-filehash",
    "get-verb",
)
for _name in _FILTERS:
    CMDLETS.setdefault(_name, Cmdlet("filter", reads=True))
CMDLETS["set-variable"] = _c(
    "setvar",
    "name value scope option force passthru description visibility",
    "force passthru",
    "name value",
)
CMDLETS["mkdir"] = _c("mkdir", "path name force", "force")  # a function (alias `md`)


def resolve_parameter(cmdlet: Cmdlet, written: str) -> str | None:
    """The parameter ``written`` (lower case, no dash) names: itself, or the one parameter it
    is a prefix of; None when it names none or more than one (PowerShell then fails)."""
    names = (*cmdlet.params, *COMMON)
    if written in names:
        return written
    found = {n for n in names if n.startswith(written)}
    return found.pop() if len(found) == 1 else None


def is_switch(cmdlet: Cmdlet, name: str) -> bool:
    """Whether parameter ``name`` takes no value."""
    return name in cmdlet.switches or name in _COMMON_SWITCHES
