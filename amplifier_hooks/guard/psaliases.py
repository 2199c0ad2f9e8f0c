"""PowerShell's built-in aliases (``rm``, ``gci``, ``iwr``), each to the cmdlet it names.

Its own table: `psreader` looks a command's name up here first, then the cmdlet in
`pscmdlets`; the text may add its own with ``Set-Alias`` (`psreader` keeps those).
"""

from __future__ import annotations

__all__ = ["ALIASES"]

_ALIASES_OF: dict[str, str] = {
    "remove-item": "rm del erase ri rd rmdir",
    "get-content": "gc cat type",
    "set-content": "sc",
    "add-content": "ac",
    "clear-content": "clc",
    "copy-item": "cp copy cpi",
    "move-item": "mv move mi",
    "rename-item": "ren rni",
    "new-item": "ni",
    "get-childitem": "gci ls dir",
    "select-string": "sls",
    "get-item": "gi",
    "resolve-path": "rvpa",
    "get-itemproperty": "gp",
    "set-itemproperty": "sp",
    "set-location": "cd sl chdir",
    "push-location": "pushd",
    "invoke-webrequest": "iwr curl wget",
    "invoke-restmethod": "irm",
    "invoke-expression": "iex",
    "invoke-command": "icm",
    "start-process": "start saps",
    "write-output": "echo write",
    "set-alias": "sal",
    "new-alias": "nal",
    "set-variable": "set sv",
    "new-psdrive": "mount ndr",
    "select-object": "select",
    "where-object": "where ?",
    "foreach-object": "foreach %",
    "sort-object": "sort",
    "format-table": "ft",
    "format-list": "fl",
    "measure-object": "measure",
    "get-location": "pwd gl",
    "get-command": "gcm",
    "get-process": "ps gps",
    "get-service": "gsv",
    "group-object": "group",
    "get-member": "gm",
    "start-sleep": "sleep",
    "get-alias": "gal",
    "get-ciminstance": "gcim",
    "get-wmiobject": "gwmi",
}
ALIASES: dict[str, str] = {a: name for name, spelt in _ALIASES_OF.items() for a in spelt.split()}
"""PowerShell's built-in aliases (Windows PowerShell's: ``curl``, ``wget``, ``ls`` are
cmdlets there), and ``md``/``mkdir`` as its functions are."""
ALIASES["md"] = "mkdir"  # (`mkdir` is a function: `pscmdlets`)
