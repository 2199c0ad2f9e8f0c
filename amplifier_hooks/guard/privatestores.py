"""The person's private stores beyond the project, as places: browser and chat-app
profiles, mail, shell and REPL histories, notes, calendars and contacts, personal and
cloud-drive folders, and the hosts' transcripts of other projects, by platform (Linux,
macOS, Windows spellings, under the home folder; the system's mail spools).

A rule names the place, not the program: a read by ``cat``, ``sqlite3``, ``cp``, ``tar``,
``rsync``, the host's file tools or an MCP filesystem server is the same read of the same
store. `private_places` says which of these places a resolved path is in:

- ``private_content``: in a store (or the store itself): reading it shows the person's
  own mail, chats, history, notes, documents;
- ``private_store``: the store itself, whole (a profile folder, a mailbox, a history file,
  a vault, a personal folder): copying, archiving, emptying or deleting it takes all of it;
- ``private_history``: a shell or REPL history file (passwords typed on command lines);
- ``private_credential``: a browser's or an Electron app's credential files in its profile
  (cookies, saved passwords, the key that decrypts them, local storage with session
  tokens, form and session history), whatever the profile's name.

A store's own project is not another's: the host's transcripts and memory of *this*
workspace (``~/.claude/projects/-home-dev-project``) are the agent's own, not private.
"""

from __future__ import annotations

import hashlib
import os
import re
from fnmatch import fnmatchcase
from functools import lru_cache

__all__ = ["PRIVATE_PLACES", "private_places"]

PRIVATE_PLACES = frozenset(
    {"private_content", "private_store", "private_history", "private_credential"}
)
"""The names `private_places` gives (`pathplaces.LOCATIONS` has them)."""

_PROJECT = "<project>"
"""A component that names a project of the host's: any but this workspace's."""

_CHROMIUM = (
    "~/.config/google-chrome", "~/.config/google-chrome-beta", "~/.config/google-chrome-unstable",
    "~/.config/chromium", "~/.config/BraveSoftware/Brave-Browser*", "~/.config/microsoft-edge",
    "~/.config/microsoft-edge-beta", "~/.config/microsoft-edge-dev", "~/.config/vivaldi",
    "~/.config/opera", "~/snap/chromium/common/chromium",
    "~/.var/app/com.google.Chrome/config/google-chrome",
    "~/.var/app/org.chromium.Chromium/config/chromium",
    "~/.var/app/com.brave.Browser/config/BraveSoftware/Brave-Browser",
    "~/Library/Application Support/Google/Chrome",
    "~/Library/Application Support/Google/Chrome Beta",
    "~/Library/Application Support/Chromium",
    "~/Library/Application Support/BraveSoftware/Brave-Browser*",
    "~/Library/Application Support/Microsoft Edge", "~/Library/Application Support/Vivaldi",
    "~/Library/Application Support/com.operasoftware.Opera", "~/Library/Application Support/Arc",
    "~/AppData/Local/Google/Chrome/User Data", "~/AppData/Local/Chromium/User Data",
    "~/AppData/Local/BraveSoftware/Brave-Browser/User Data",
    "~/AppData/Local/Microsoft/Edge/User Data", "~/AppData/Local/Vivaldi/User Data",
    "~/AppData/Roaming/Opera Software/Opera Stable",
)  # fmt: skip
"""Chromium's browsers' user-data folders: each profile (``Default``, ``Profile 1``) below."""
_MOZILLA = (
    "~/.mozilla/firefox", "~/snap/firefox/common/.mozilla/firefox",
    "~/.var/app/org.mozilla.firefox/.mozilla/firefox", "~/.librewolf", "~/.waterfox",
    "~/Library/Application Support/Firefox", "~/AppData/Roaming/Mozilla/Firefox",
    "~/AppData/Local/Mozilla/Firefox",
    "~/.thunderbird", "~/snap/thunderbird/common/.thunderbird",
    "~/.var/app/org.mozilla.Thunderbird/.thunderbird", "~/Library/Thunderbird",
    "~/AppData/Roaming/Thunderbird",
)  # fmt: skip
"""Firefox's and Thunderbird's profile folders (the same store: logins.json, key4.db)."""
_CHAT_APPS = (
    "~/.config/Slack", "~/.config/discord", "~/.config/discordcanary", "~/.config/discordptb",
    "~/.config/Signal", "~/.config/WhatsApp", "~/.config/whatsapp-for-linux",
    "~/.config/Microsoft/Microsoft Teams", "~/.config/teams-for-linux", "~/.config/Element",
    "~/.var/app/com.slack.Slack/config/Slack", "~/.var/app/org.signal.Signal/config/Signal",
    "~/.var/app/com.discordapp.Discord/config/discord",
    "~/Library/Application Support/Slack", "~/Library/Application Support/discord",
    "~/Library/Application Support/Signal", "~/Library/Application Support/WhatsApp",
    "~/Library/Application Support/Microsoft Teams", "~/Library/Application Support/Element",
    "~/Library/Containers/com.tinyspeck.slackmacgap",
    "~/Library/Group Containers/group.net.whatsapp.WhatsApp.shared",
    "~/AppData/Roaming/Slack", "~/AppData/Roaming/discord", "~/AppData/Roaming/Signal",
    "~/AppData/Roaming/Microsoft/Teams", "~/AppData/Roaming/Element",
)  # fmt: skip
"""Electron chat apps: a Chromium profile of their own (cookies, local storage with the
session token) and the person's messages."""
_EDITOR_PROFILES = (
    "~/.config/Cursor", "~/.config/Code", "~/Library/Application Support/Cursor",
    "~/Library/Application Support/Code", "~/AppData/Roaming/Cursor", "~/AppData/Roaming/Code",
)  # fmt: skip
"""Electron editors: their settings are everyday reading, but their cookies and local
storage are a signed-in session's, as any Chromium profile's."""
_PROFILE_SECRETS = (
    "Cookies*", "Extension Cookies*", "Safe Browsing Cookies*", "Login Data*",
    "Login Data For Account*", "Web Data*", "Local State*", "Local Storage", "Session Storage",
    "IndexedDB", "Sessions", "Current Session", "Last Session", "Current Tabs", "Last Tabs",
    "logins.json*", "logins-backup.json*", "signons.sqlite*", "key3.db*", "key4.db*",
    "cert9.db*", "cookies.sqlite*", "formhistory.sqlite*", "webappsstore.sqlite*",
    "sessionstore*", "sessionstore-backups", "storage",
)  # fmt: skip
"""The files and folders of a profile that are credentials: cookies, saved passwords and
cards, the key that decrypts them, the sites' stored session tokens, the session itself."""

_MAIL = (
    "~/Maildir", "~/Mail", "~/.mail", "~/.maildir", "~/mbox", "~/.local/share/mail",
    "~/.local/share/evolution", "~/.local/share/notmuch", "~/Library/Mail",
    "~/Library/Containers/com.apple.mail", "/var/mail/*", "/var/spool/mail/*",
)  # fmt: skip
_CHAT_DATA = (
    "~/.local/share/TelegramDesktop",
    "~/snap/telegram-desktop/current/.local/share/TelegramDesktop",
    "~/.var/app/org.telegram.desktop/data/TelegramDesktop",
    "~/Library/Application Support/Telegram Desktop", "~/AppData/Roaming/Telegram Desktop",
    "~/Library/Messages", "~/.purple", "~/.weechat", "~/.local/share/weechat", "~/.irssi",
)  # fmt: skip
_HISTORIES = (
    "~/.bash_history", "~/.zsh_history", "~/.zhistory", "~/.history", "~/.sh_history",
    "~/.local/share/fish/fish_history", "~/.python_history", "~/.node_repl_history",
    "~/.psql_history", "~/.mysql_history", "~/.sqlite_history", "~/.rediscli_history",
    "~/.dbshell", "~/.mongosh/mongosh_repl_history", "~/.irb_history", "~/.pry_history",
    "~/.Rhistory", "~/.julia/logs/repl_history.jl", "~/.lesshst", "~/.viminfo",
    "~/.local/share/nvim/shada/main.shada", "~/.config/fish/fish_history",
    "~/.local/share/atuin/history.db", "~/.zsh_sessions",
    "~/AppData/Roaming/Microsoft/Windows/PowerShell/PSReadLine/*_history.txt",
    "~/.local/share/powershell/PSReadLine/*_history.txt",
)  # fmt: skip
"""Shell and REPL histories: every line the person typed, passwords given on command lines
among them."""
_PERSONAL = (
    "~/Documents", "~/Pictures", "~/Videos", "~/Movies", "~/Music", "~/Google Drive",
    "~/GoogleDrive", "~/OneDrive", "~/OneDrive - *", "~/Dropbox", "~/Nextcloud",
    "~/pCloudDrive", "~/Library/CloudStorage", "~/Library/CloudStorage/*",
    "~/Library/Mobile Documents", "~/Library/Mobile Documents/*",
    "~/Library/Group Containers/group.com.apple.notes", "~/Library/Containers/com.apple.Notes",
    "~/Library/Photos", "~/Library/Calendars", "~/Library/Application Support/AddressBook",
    "~/.local/share/recently-used.xbel", "~/.local/share/RecentDocuments",
    "~/.config/obsidian", "~/Library/Application Support/obsidian", "~/.config/joplin-desktop",
    "~/.config/joplin", "~/.calendars", "~/.contacts", "~/.local/share/khal",
    "~/.local/share/vdirsyncer", "~/.local/share/khard", "~/.local/share/zotero", "~/Zotero",
)  # fmt: skip
"""Personal folders, cloud drives, notes, photos, calendars and contacts. Downloads and
the desktop are not here: files named by the task are fetched and kept there."""
_TRANSCRIPTS = (
    f"~/.claude/projects/{_PROJECT}", "~/.claude/history.jsonl", "~/.claude/todos",
    "~/.codex/sessions", "~/.codex/archived_sessions", "~/.codex/history.jsonl",
    f"~/.gemini/tmp/{_PROJECT}", "~/.copilot/session-state", "~/.copilot/history-session-state",
    f"~/.amplifier/projects/{_PROJECT}", "~/.local/share/opencode/storage",
)  # fmt: skip
"""The hosts' transcripts: every prompt, file and output of the person's other projects."""
_TRANSCRIPT_FOLDERS = ("~/.claude/projects", "~/.gemini/tmp", "~/.amplifier/projects")
"""The folders of every project's transcripts, this one's among them: a store as a whole
(its own project's folder in it is not private, the others' are: `_TRANSCRIPTS`)."""


def _split(pattern: str) -> tuple[str, ...]:
    return tuple(pattern.split("/"))


_STORES: tuple[tuple[tuple[str, ...], str], ...] = (
    *((_split(p), "profile") for p in (*_CHROMIUM, *_MOZILLA, *_CHAT_APPS)),
    *((_split(p), "editor") for p in _EDITOR_PROFILES),
    *((_split(p), "history") for p in _HISTORIES),
    *((_split(p), "store") for p in (*_MAIL, *_CHAT_DATA, *_PERSONAL, *_TRANSCRIPTS)),
    *((_split(p), "folder") for p in _TRANSCRIPT_FOLDERS),
)
"""Each store's path, split, and its kind: a browser's or app's profile folder (credentials
below it), an editor's (credentials below it, but no store), a history, another store, or
a folder that is a store only as a whole."""
_GLOB = re.compile(r"[*?\[]")
_BY_FIRST: dict[str, tuple[tuple[tuple[str, ...], str], ...]] = {}
"""The stores by their first folder below home (or ``/``), lower case: one look-up."""
for _store in _STORES:
    _first = "*" if _GLOB.search(_store[0][1]) else _store[0][1].lower()
    _BY_FIRST[_first] = (*_BY_FIRST.get(_first, ()), _store)
_ANY_FIRST = _BY_FIRST.get("*", ())
"""The stores whose first folder is a pattern (``OneDrive - *``): tried for every path."""
_NAMED = 3
"""How many plain characters a pattern in a path needs to name a store (``.*_history``)."""
_SECRET_NAMES = tuple(n.lower() for n in _PROFILE_SECRETS)


def _same(pattern: str, part: str) -> bool:
    """Whether a path's ``part`` is the pattern's (case folded: macOS and Windows ignore it;
    a part that is itself a pattern, ``.*_history``, is the store it would name)."""
    pattern, part = pattern.lower(), part.lower()
    if fnmatchcase(part, pattern):
        return True
    # `*` or `.*` names every folder there, not a store: the rules on the folder decide
    named = len(_GLOB.sub("", part)) >= _NAMED
    return named and _GLOB.search(part) is not None and fnmatchcase(pattern, part)


@lru_cache(maxsize=64)
def _own_names(workspace: str) -> frozenset[str]:
    """The names the hosts give this workspace's folder of transcripts: Claude Code's (every
    character but a letter or digit made ``-``), Gemini CLI's (the path's SHA-256), the
    folder's own name."""
    return frozenset(
        {
            re.sub(r"[^A-Za-z0-9]", "-", workspace).lower(),
            hashlib.sha256(workspace.encode()).hexdigest(),
            os.path.basename(workspace.rstrip("/")).lower(),
        }
    )


@lru_cache(maxsize=4096)
def private_places(path: str, home: str, workspace: str) -> frozenset[str]:
    """The private places (`PRIVATE_PLACES`) the resolved ``path`` is in, for this home
    folder and workspace; none inside the workspace."""
    if path == workspace or path.startswith(workspace.rstrip("/") + "/"):
        return frozenset()
    if path.startswith(home.rstrip("/") + "/"):
        parts = ("~", *path[len(home.rstrip("/")) + 1 :].split("/"))
    elif path.startswith("/var/"):
        parts = ("", *path[1:].split("/"))
    else:
        return frozenset()
    if len(parts) < 2:
        return frozenset()
    found: set[str] = set()
    first = parts[1].lower()
    stores = _STORES if _GLOB.search(first) else _BY_FIRST.get(first, ()) + _ANY_FIRST
    for store, kind in stores:
        if len(parts) < len(store) or not _matches(store, parts, workspace):
            continue
        below = parts[len(store) :]
        if kind == "folder" and below:
            continue
        if kind in ("profile", "editor") and any(
            _same(name, part) for part in below for name in _SECRET_NAMES
        ):
            found.add("private_credential")
        if kind == "editor":
            continue
        found.add("private_content")
        if not below:
            found.add("private_store")
            if kind == "history":
                found.add("private_history")
    return frozenset(found)


def _matches(store: tuple[str, ...], parts: tuple[str, ...], workspace: str) -> bool:
    for pattern, part in zip(store, parts, strict=False):
        if pattern == _PROJECT:
            if part.lower() in _own_names(workspace):
                return False
        elif not _same(pattern, part):
            return False
    return True
