"""Windows spellings of the places the guard knows, as the POSIX paths its rules read.

PowerShell and cmd.exe name the home folder many ways (``$env:USERPROFILE``, ``$HOME``,
``~``, ``%USERPROFILE%``, ``%HOMEDRIVE%%HOMEPATH%``, ``C:\\Users\\dev``, the administrative
share ``\\\\localhost\\c$\\Users\\dev``, the long-path prefix ``\\\\?\\C:\\...``, WSL's
``/mnt/c/Users/dev``), and the folders below it by variables of their own (``%APPDATA%``,
``$env:LOCALAPPDATA``, ``$PROFILE``). The readers of both shells (`psreader`, `cmdreader`)
put each as the path below ``~`` it names, so the rules on places (the agents' settings,
credentials, start-up folders) meet it as they meet a POSIX path. A user folder is the home
folder when its name is the home folder's own name (the same person's home seen from
Windows); any other stays a Windows path (`winpaths`), outside the workspace.
"""

from __future__ import annotations

import re

__all__ = ["ENV_PLACES", "STARTUP", "folder_path", "posix_path", "variable_place"]

STARTUP = "~/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup"
"""The per-user Startup folder: what is there runs at every log-on."""

ENV_PLACES: dict[str, str] = {
    "userprofile": "~",
    "home": "~",
    "appdata": "~/AppData/Roaming",
    "localappdata": "~/AppData/Local",
    "temp": "/tmp",
    "tmp": "/tmp",
    "onedrive": "~/OneDrive",
    "onedriveconsumer": "~/OneDrive",
    "onedrivecommercial": "~/OneDrive",
    "programdata": "C:/ProgramData",
    "allusersprofile": "C:/ProgramData",
    "systemroot": "C:/Windows",
    "windir": "C:/Windows",
    "programfiles": "C:/Program Files",
    "programfiles(x86)": "C:/Program Files (x86)",
    "public": "C:/Users/Public",
    "systemdrive": "C:",
    "homedrive": "C:",
}
"""Environment variables that name a place (any case, as Windows reads them)."""

_FOLDERS: dict[str, str] = {
    "desktop": "~/Desktop",
    "desktopdirectory": "~/Desktop",
    "mydocuments": "~/Documents",
    "personal": "~/Documents",
    "userprofile": "~",
    "applicationdata": "~/AppData/Roaming",
    "localapplicationdata": "~/AppData/Local",
    "startup": STARTUP,
    "programs": "~/AppData/Roaming/Microsoft/Windows/Start Menu/Programs",
    "startmenu": "~/AppData/Roaming/Microsoft/Windows/Start Menu",
    "commonstartup": "C:/ProgramData/Microsoft/Windows/Start Menu/Programs/StartUp",
    "windows": "C:/Windows",
    "system": "C:/Windows/System32",
}
"""``[Environment]::GetFolderPath(NAME)``'s answers below the home folder."""

_PROFILE = "~/Documents/PowerShell/Microsoft.PowerShell_profile.ps1"
_PROFILES = "~/Documents/PowerShell/profile.ps1"

_SHARE = re.compile(r"^//(?:localhost|127\.0\.0\.1|\.)/([a-z])\$(?=/|$)", re.IGNORECASE)
_LONG = re.compile(r"^//[?.]/(?=[a-z]:)", re.IGNORECASE)
_USERS = re.compile(r"^(?:[a-z]:|/mnt/[a-z]|/[a-z])/users/([^/]+)(?=/|$)", re.IGNORECASE)


def folder_path(name: str) -> str | None:
    """The path ``[Environment]::GetFolderPath(name)`` gives (None: one the guard does not
    know)."""
    return _FOLDERS.get(name.strip("'\"").rpartition(".")[2].lower())


def variable_place(name: str) -> str | None:
    """The path a PowerShell variable names (``HOME``, ``env:APPDATA``, ``PROFILE`` and its
    ``.CurrentUserAllHosts``), or None when it names no place."""
    lowered = name.lower()
    if lowered.startswith("env:"):
        return ENV_PLACES.get(lowered[4:])
    if lowered == "home":
        return "~"
    if lowered == "profile" or lowered.startswith("profile."):
        return _PROFILES if "allhosts" in lowered else _PROFILE
    return None


_TEMP = re.compile(r"^~/appdata/local/temp(?=/|$)", re.IGNORECASE)
_ROOT = re.compile(r"^[a-z]:(?:/(?:\*|\.)?)?$", re.IGNORECASE)


def posix_path(word: str, home_name: str) -> str:
    """``word`` with ``/`` for ``\\``, a drive's root as ``/`` (``C:\\*`` is ``/*``), and a
    spelling of the home folder (its user folder on a drive, through a share or WSL's
    ``/mnt``) as ``~``."""
    path = word.replace("\\", "/")
    if _ROOT.match(path):
        return "/" + path[3:]
    path = _LONG.sub("", path)
    path = _SHARE.sub(lambda m: m.group(1) + ":", path)
    users = _USERS.match(path)
    if users is not None and home_name and users.group(1).lower() == home_name.lower():
        path = "~" + path[users.end() :]
        temp = _TEMP.match(path)
        return "/tmp" + path[temp.end() :] if temp is not None else path  # %TEMP%
    return path
