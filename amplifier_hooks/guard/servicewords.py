"""Words that name no file here: a remote service's commands and .NET's build switches.

``java -jar jenkins-cli.jar -s URL -auth @F COMMAND ARGS`` names jobs, builds and views on
the Jenkins controller: its only files here are the jar, the ``-auth @F`` and ``-i F``
files it reads, and its output goes to its standard output (what changes Jenkins is judged
by the pack's ``jenkins-*`` rules, by the command). ``dotnet build /p:Name=value`` and
``msbuild /t:Pack`` take MSBuild's switches, spelled with a ``/`` as on Windows: a switch
is no path (``-o ./artifacts`` is).
"""

from __future__ import annotations

import re
from itertools import pairwise

__all__ = ["jenkins_cli_reads", "not_switches"]

_SWITCH = re.compile(r"^/(?:p|property|t|target|v|verbosity|m|maxcpucount|nr|nodeReuse|bl|"
                     r"binaryLogger|restore|consoleloggerparameters|clp|fl|flp|nologo|"
                     r"noautorsp|warnaserror|nowarn|tl|terminalLogger|ds)(?::.*)?$",
                     re.IGNORECASE)  # fmt: skip
_MSBUILD = frozenset({"dotnet", "msbuild"})


def jenkins_cli_reads(program: str | None, args: tuple[str, ...]) -> tuple[str, ...] | None:
    """The files ``java -jar jenkins-cli.jar ...`` reads here (None: it is no call of
    Jenkins' CLI)."""
    if program != "java" or len(args) < 2 or args[0] != "-jar":
        return None
    if not args[1].endswith("jenkins-cli.jar"):
        return None
    found = [args[1]]
    for option, value in pairwise(args[2:]):
        if option == "-auth" and value.startswith("@"):
            found.append(value[1:])
        elif option == "-i":
            found.append(value)
    return tuple(found)


def not_switches(program: str | None, words: tuple[str, ...]) -> tuple[str, ...]:
    """``words`` without MSBuild's switches, when ``program`` takes them."""
    if program not in _MSBUILD:
        return words
    return tuple(w for w in words if not _SWITCH.match(w))
