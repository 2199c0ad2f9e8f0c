"""An MCP tool the table has no row for, judged by the verb of its name.

A server the pack's MCP table does not know (an app store's, a cloud's, a chat's) still
names its tools for what they do: ``delete_track_release``, ``submit_for_review``,
``promote_release``. What they change is on a service others share, which nothing here
gives back, so a name whose words hold a verb that destroys (``delete``, ``drop``,
``purge``, ``void``...), publishes (``publish``, ``deploy``, ``merge``, ``transfer``,
``rollback``...) or takes a hosted service offline (``pause_project``,
``suspend_instance``: its users lose it until someone brings it back; ``contain_host``
cuts a machine off), sends a message to people (``send_email``, ``slack_post_message``,
``create_incident``: read, or paged, as soon as it arrives), moves money
(``create_refund``, ``update_campaign_budget``, ``create_journal_entry``,
``create_credit_note``), starts or cancels work on the service (``run_pipeline``,
``launch_job_template``, ``cancel_job``), changes a feature flag, who may do what
(``update_user``, ``add_member``, ``share_file``) or many records at once
(``crm_batch_update_objects``, ``dml_records``), empties a document (``clear_values``),
silences an alert (``mute_monitor``), or uploads a file (``upload_file``) is asked
(`MCP_DESTROYS`, `MCP_PUBLISHES`, `MCP_OFFLINE`, `MCP_SENDS`, `MCP_PAYS`, `MCP_RUNS`,
`MCP_CANCELS`, `MCP_FLAGS`, `MCP_ACCESS`, `MCP_BULK`, `MCP_UPLOADS`). So is a tool that
does not only look on a server named for production (``postgres_prod``), and one whose
arguments switch something off (``"enabled": false``: a detection rule, an alert),
`switch_marks`, or opens something to anyone (``"type": "anyone"``: denied). A name that
starts with a verb that only looks (``get_release``, ``list_deployments``) is not: its
other words name what it looks at.

Only the name is read, and only for a tool no row names: a known server's tool is judged
by its row (GitHub's ``delete_repository`` as ``gh repo delete``; the memory server's
``delete_entities`` changes only its own graph file, a row of data).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.verbs import DESTROYS, LOOKS

__all__ = ["MCP_ACCESS", "MCP_BULK", "MCP_CANCELS", "MCP_CHANGES", "MCP_DESTROYS", "MCP_FLAGS",
           "MCP_OFFLINE", "MCP_PAYS", "MCP_PHYSICAL", "MCP_PRODUCTION", "MCP_PUBLIC",
           "MCP_PUBLISHES", "MCP_RUNS", "MCP_SECRET_READ", "MCP_SENDS", "MCP_SWITCHES_OFF",
           "MCP_UPLOADS",
           "production_server", "service_marks", "switch_marks", "switches_on_only",
           "verb_marks"]  # fmt: skip

MCP_DESTROYS = "@mcp-destroys"
"""The mark of an unknown MCP tool whose name says it deletes on the service."""
MCP_PUBLISHES = "@mcp-publishes"
"""The mark of an unknown MCP tool whose name says it publishes or hands over."""

_PUBLISH = frozenset({"publish", "release", "promote", "submit", "deploy", "merge", "transfer",
                      "visibility", "rollout", "unpublish", "ship", "rollback"})  # fmt: skip
MCP_OFFLINE = "@mcp-offline"
"""The mark of an unknown MCP tool whose name says it takes a hosted service offline."""
_OFFLINE = frozenset({"pause", "suspend", "shutdown", "hibernate", "deactivate", "contain",
                      "isolate", "quarantine", "stop", "reboot", "reset", "poweroff"})  # fmt: skip
_HOSTED = frozenset({"project", "projects", "database", "databases", "db", "instance",
                     "instances", "cluster", "clusters", "server", "servers", "branch",
                     "service", "services", "compute", "endpoint", "app", "site", "host",
                     "hosts", "device", "devices", "machine", "machines", "vm", "vms",
                     "lxc", "node", "nodes"})  # fmt: skip
"""What such a verb takes offline that others use (a media player's ``pause_playback``
is not one)."""
MCP_SENDS = "@mcp-sends"
"""The mark of an unknown MCP tool whose name says it sends a message to people."""
_SENDS = frozenset({"send", "post", "reply", "forward", "broadcast", "announce", "notify",
                    "email", "tweet", "dm", "sms", "incident", "incidents"})  # fmt: skip
_DRAFTS = frozenset({"draft", "drafts", "schedule", "template", "templates"})
"""A message kept to be sent later by a person (``create_draft_email``) is not sent."""
MCP_PAYS = "@mcp-pays"
"""The mark of an unknown MCP tool whose name says it moves money."""
_PAYS = frozenset({"refund", "refunds", "payout", "payouts", "charge", "charges", "capture",
                   "pay", "payment", "payments", "disburse", "budget", "budgets", "bid",
                   "bids", "journal", "invoice", "invoices", "credit", "swap", "bridge",
                   "stake", "unstake", "mint"})  # fmt: skip
_TRADES = frozenset({"place", "submit", "create", "close", "liquidate", "replace", "exercise"})
_TRADED = frozenset({"order", "orders", "position", "positions", "trade", "trades"})
"""A broker's tool that places or closes orders (``place_stock_order``,
``close_all_positions``) moves money as a payment does."""
_CHAIN_WRITES = frozenset({"write", "execute", "sign", "approve", "burn", "transfer"})
_ON_CHAIN = frozenset({"contract", "contracts", "transaction", "transactions", "tx", "token",
                       "tokens", "nft", "nfts", "erc20", "erc721", "wallet"})  # fmt: skip
"""A chain server's tool that writes to a contract or signs (``write_contract``,
``sign_transaction``, ``approve_token``) moves funds as a payment does; one that reads
(``read_contract``) looks, and ``call_contract`` may be either: its row, if any, says."""
MCP_RUNS = "@mcp-runs"
"""The mark of an unknown MCP tool whose name says it starts a pipeline, job or workflow."""
_STARTS = frozenset({"run", "launch", "trigger", "dispatch", "start", "execute"})
_RUNNABLE = frozenset({"pipeline", "pipelines", "workflow", "workflows", "job", "jobs",
                       "template", "playbook", "dag", "dags", "build", "builds"})  # fmt: skip
"""What such a verb starts that acts with the service's credentials (``run_query`` and
``run_report`` only look)."""
MCP_CANCELS = "@mcp-cancels"
"""The mark of an unknown MCP tool whose name says it cancels work on the service."""
_CANCELS = frozenset({"cancel", "kill", "abort"})
MCP_FLAGS = "@mcp-flags"
"""The mark of an unknown MCP tool whose name says it changes a feature flag."""
_FLAGS = frozenset({"flag", "flags", "feature", "features", "toggle", "toggles", "experiment",
                    "experiments"})  # fmt: skip
MCP_ACCESS = "@mcp-access"
"""The mark of an unknown MCP tool whose name says it changes who may do what."""
_CHANGES = frozenset({"update", "add", "create", "set", "grant", "assign", "invite", "revoke",
                      "patch", "modify", "change", "enable", "disable", "remove", "upsert",
                      "insert", "write", "delete", "dml", "deactivate", "activate", "suspend",
                      "unsuspend", "block", "unblock", "lock", "unlock"})  # fmt: skip
_PRINCIPALS = frozenset({"user", "users", "group", "groups", "member", "members", "role",
                         "roles", "permission", "permissions", "collaborator",
                         "collaborators", "access", "acl", "acls"})  # fmt: skip
_SHARES = frozenset({"share", "sharing", "unshare"})
"""A file or document shared (``share_file``): who may read it changes."""
_SILENCES = frozenset({"mute", "silence", "snooze", "suppress", "downtime"})
"""An alert or monitor silenced (``mute_monitor``): what it watches breaks unseen."""
_EMPTIES = frozenset({"clear", "empty", "overwrite", "truncate", "void", "prune"})
"""What takes a document's or a sheet's contents away (``clear_values``), voids it (an
invoice, an envelope sent for signature: ``void_invoice``) or prunes what is not in use
(Docker's ``system_prune``: stopped containers' data, volumes)."""
MCP_CHANGES = "@mcp-changes"
"""The mark of an unknown MCP tool whose name says it changes a record on its service
(``update_page``, ``transition_issue``, ``close_alert``, ``dns_records_update``) that no
other mark names."""
_RECORD_CHANGES = _CHANGES | frozenset(
    {"transition", "close", "reopen", "scale", "save", "export", "import", "put", "edit",
     "archive", "rename", "restore", "reset", "rotate", "acknowledge", "ack", "resolve",
     "replace", "append", "move"}
) - frozenset({"delete", "remove"})  # fmt: skip
_OWN_SERVERS = frozenset({"git", "github", "memory", "serena", "desktop", "commander",
                          "taskmaster", "tasks", "todo", "todos", "notes", "obsidian",
                          "excalidraw", "context7",
                          "filesystem", "fs", "local", "ide", "vscode", "editor", "thinking",
                          "sequential", "knowledge", "graph", "playwright", "puppeteer",
                          "browser", "chrome", "devtools"})  # fmt: skip
"""Words of a server's name that say it keeps its records on this machine or works on the
project (a repository here, a memory graph, a task list, an editor, a browser's page): its
changes are the project's, not a shared service's. GitHub's tools are the MCP table's, judged
as ``gh`` is (``create_issue`` in another project's repository is asked there)."""
_DRAFTS_OF_WORK = frozenset({"branch", "branches", "draft", "drafts"})
"""What a tool creates that nobody else works from yet (``create_branch``)."""
MCP_PUBLIC = "@mcp-public"
"""The mark of a tool whose arguments open something to anyone (``"type": "anyone"``)."""
_PUBLIC_KEYS = frozenset({"type", "role", "visibility", "access", "audience", "scope",
                          "sharing", "permission"})  # fmt: skip
_PUBLIC_VALUES = frozenset({"anyone", "anyonewithlink", "public", "everyone", "world",
                            "allusers", "all_users", "internet"})  # fmt: skip
MCP_BULK = "@mcp-bulk"
"""The mark of an unknown MCP tool whose name says it changes many records at once."""
_BULK = frozenset({"batch", "bulk", "mass", "dml"})
MCP_UPLOADS = "@mcp-uploads"
"""The mark of an unknown MCP tool whose name says it uploads a file to its service."""
_UPLOADS = frozenset({"upload", "uploads"})
MCP_SECRET_READ = "@mcp-secret-read"
"""The mark of an unknown MCP tool whose name says it reads a secret's value (``read_secret``,
a password manager's ``get_item``): the value reaches the model."""
_REVEALS = frozenset({"read", "get", "reveal", "show", "fetch", "retrieve", "copy", "view"})
_SECRET_NOUNS = frozenset({"secret", "password", "passwords", "credential", "credentials",
                           "totp", "otp", "passphrase"})  # fmt: skip
_VAULT_NOUNS = frozenset({"item", "login", "entry", "field", "note", "card", "identity"})
_VAULT_SERVERS = frozenset({"password", "bitwarden", "bw", "keepass", "keepassxc", "lastpass",
                            "vault", "op", "doppler", "infisical", "dashlane", "keeper",
                            "passbolt", "pass", "onepassword"})  # fmt: skip
"""A password manager's or secret store's server (``1password`` reads as ``password``)."""
_NOT_VALUES = frozenset({"list", "names", "metadata", "scanning", "alert", "alerts", "policy",
                         "policies", "status", "health"})  # fmt: skip
MCP_PRODUCTION = "@mcp-production"
"""The mark of a tool that does not only look, on a server named for production."""
_PRODUCTION = frozenset({"prod", "production", "live"})
MCP_PHYSICAL = "@mcp-physical"
"""The mark of a home-automation service called on a thing in the world (a lock, an
alarm, a garage door, a valve, a plug)."""
_DISPATCHERS = frozenset({("call", "service"), ("call", "services"), ("service", "call"),
                          ("call", "service", "tool"), ("entity", "action")})  # fmt: skip
"""A tool whose own name says nothing (Home Assistant's ``call_service``, hass-mcp's
``call_service_tool`` and ``entity_action``): the service it calls, ``domain.service``,
or the entity it acts on (``cover.garage_door``), is what it does; so is one of Home
Assistant's own intents (``HassTurnOff`` with ``domain: ["lock"]``)."""
_SCENERY = frozenset({"light", "media_player", "scene", "persistent_notification", "logbook",
                      "input_text", "input_number", "input_select", "tts"})  # fmt: skip
"""Domains whose services change only lights, sound and dashboards."""
MCP_SWITCHES_OFF = "@mcp-switches-off"
"""The mark of a tool whose arguments switch something off (``"enabled": false``)."""
_OFF_KEYS = {"enabled": False, "enable": False, "active": False, "on": False,
             "disabled": True, "disable": True, "muted": True, "paused": True,
             "allow_force_pushes": True, "allow_force_push": True, "allow_deletions": True,
             "enforce_admins": False, "insecure_ssl": "1", "skip_audit": True,
             "no_audit": True, "bypass_audit": True, "audit": False}  # fmt: skip
"""Keys whose value switches a protection off: a switch, a protected branch's force
pushes or deletion allowed, its rules lifted for admins, a webhook's TLS unchecked, an
action left out of the audit trail (a support tool's impersonation unrecorded)."""
_OWN_LIMITS = frozenset({"blockedcommands", "alloweddirectories", "defaultshell"})
"""A server's own limits on what the agent may run or reach, and the shell it runs with,
set by key (Desktop Commander's ``set_config_value``): the agent changing them moves its
own fence."""
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def verb_marks(name: str) -> tuple[str, ...]:
    """The marks of the MCP tool ``name`` (``mcp__<server>__<tool>``) by its tool's words
    (`MCP_DESTROYS`... `MCP_UPLOADS`) and its server's (`MCP_PRODUCTION`), or none (a
    name that only looks, or no such word)."""
    tool = name.rpartition("__")[2]
    words = [w.lower() for w in _WORD.findall(tool)]
    if words and words[0] in _REVEALS and _reads_secret(name, words):
        return (MCP_SECRET_READ,)
    if not words or words[0] in LOOKS:
        return ()
    marks: tuple[str, ...] = ()
    if not DESTROYS.isdisjoint(words) or not _EMPTIES.isdisjoint(words):
        marks += (MCP_DESTROYS,)
    if not _PUBLISH.isdisjoint(words):
        marks += (MCP_PUBLISHES,)
    if not _OFFLINE.isdisjoint(words) and not _HOSTED.isdisjoint(words):
        marks += (MCP_OFFLINE,)
    if not _SENDS.isdisjoint(words) and _DRAFTS.isdisjoint(words):
        marks += (MCP_SENDS,)
    if (not _PAYS.isdisjoint(words)
            or (words[0] in _CHAIN_WRITES and not _ON_CHAIN.isdisjoint(words))
            or (words[0] in _TRADES and not _TRADED.isdisjoint(words))):  # fmt: skip
        marks += (MCP_PAYS,)
    if not _STARTS.isdisjoint(words) and not _RUNNABLE.isdisjoint(words):
        marks += (MCP_RUNS,)
    if not _CANCELS.isdisjoint(words):
        marks += (MCP_CANCELS,)
    if not _FLAGS.isdisjoint(words):
        marks += (MCP_FLAGS,)
    changes = not _CHANGES.isdisjoint(words)
    if (changes and not _PRINCIPALS.isdisjoint(words)) or not _SHARES.isdisjoint(words):
        marks += (MCP_ACCESS,)
    if not _BULK.isdisjoint(words) and changes:
        marks += (MCP_BULK,)
    if not _UPLOADS.isdisjoint(words):
        marks += (MCP_UPLOADS,)
    if not _SILENCES.isdisjoint(words):
        marks += (MCP_SWITCHES_OFF,)
    server = name.split("__")[1] if name.count("__") >= 2 else ""
    server_words = {w.lower() for w in _WORD.findall(server)}
    if production_server(name):
        marks += (MCP_PRODUCTION,)
    if (not marks and server and not _RECORD_CHANGES.isdisjoint(words)
            and _OWN_SERVERS.isdisjoint(server_words)
            and _DRAFTS_OF_WORK.isdisjoint(words)):  # fmt: skip
        marks += (MCP_CHANGES,)
    return marks


def _reads_secret(name: str, words: list[str]) -> bool:
    """Whether a tool whose name begins with a verb that reads names a secret's value: a
    secret or a password by its name, or an item of a password manager's server."""
    if not _NOT_VALUES.isdisjoint(words):
        return False
    if not _SECRET_NOUNS.isdisjoint(words):
        return True
    server = name.split("__")[1] if name.count("__") >= 2 else ""
    servers = {w.lower() for w in _WORD.findall(server)}
    return not _VAULT_SERVERS.isdisjoint(servers) and not _VAULT_NOUNS.isdisjoint(words)


def service_marks(name: str, arguments: Mapping[str, Any]) -> tuple[str, ...]:
    """The marks of a dispatcher tool (``call_service``) by the service it calls: a
    notification sends a message (`MCP_SENDS`); any service of a domain that is not
    only lights, sound or a dashboard acts on the home (`MCP_PHYSICAL`): a door
    unlocked, an alarm disarmed, a leak's shut-off automation or a plug turned off; so
    does a robot's server's tool that moves it or calls its services (`_robot_acts`)."""
    words = tuple(w.lower() for w in _WORD.findall(name.rpartition("__")[2]))
    if _robot_acts(name, words):
        return (MCP_PHYSICAL,)
    intent = words[:1] == ("hass",) and len(words) > 1 and words[1] not in LOOKS
    if words not in _DISPATCHERS and not intent:
        return ()
    domains = _domains(arguments)
    if not domains:  # an intent on a name alone: any domain, a lock's among them
        return (MCP_PHYSICAL,) if intent else ()
    if "notify" in domains:
        return (MCP_SENDS,)
    return () if domains <= _SCENERY else (MCP_PHYSICAL,)


_ROBOT_SERVERS = frozenset({"ros", "ros2", "robot", "robots", "moveit", "nav2", "rosbridge"})
_ROBOT_ACTS = frozenset({"pub", "publish", "call", "send", "set", "move", "drive", "execute",
                         "goal", "navigate", "twist", "cmd", "command", "release", "param",
                         "trigger", "arm", "gripper", "joint", "teleop"})  # fmt: skip
_ROBOT_LOOKS = frozenset({"echo", "subscribe", "list", "get", "info", "describe", "show",
                          "find", "type", "types", "topics", "services", "nodes", "image",
                          "read", "view", "status"})  # fmt: skip
"""A robot's server's tools that only look (a topic echoed, the nodes listed)."""


def _robot_acts(name: str, words: tuple[str, ...]) -> bool:
    """Whether ``name`` is a tool of a robot's server (ROS's, rosbridge's) that publishes a
    motion, calls a service or sets a parameter: the robot moves, its brakes release or its
    safety monitor stops, at once, where people are."""
    server = name.split("__")[1] if name.count("__") >= 2 else ""
    if _ROBOT_SERVERS.isdisjoint(w.lower() for w in _WORD.findall(server)):
        return False
    return not _ROBOT_ACTS.isdisjoint(words) and _ROBOT_LOOKS.isdisjoint(words)


def _domains(arguments: Mapping[str, Any]) -> set[str]:
    """The domains a call names: ``domain`` (a word or a list), or its entity's prefix."""
    given = arguments.get("domain")
    if isinstance(given, str):
        return {given.lower()}
    if isinstance(given, list):
        return {d.lower() for d in given if isinstance(d, str)}
    entity = arguments.get("entity_id")
    if isinstance(entity, str) and "." in entity:
        return {entity.partition(".")[0].lower()}
    return set()


def production_server(name: str) -> bool:
    """Whether the server of the MCP tool ``name`` (``mcp__<server>__<tool>``) is named for
    production (``postgres_prod``, ``orders-live``)."""
    server = name.split("__")[1] if name.count("__") >= 2 else ""
    return not _PRODUCTION.isdisjoint(w.lower() for w in _WORD.findall(server))


def switches_on_only(arguments: Mapping[str, Any]) -> bool:
    """Whether ``arguments`` only name a thing and switch it on (``{"rule_id": "r",
    "enabled": true}``): a detection rule or an alert turned back on changes nothing else."""
    switched = False
    for key, value in arguments.items():
        off = _OFF_KEYS.get(str(key).lower())
        if off is not None and isinstance(value, bool):
            if value is off:
                return False
            switched = True
        elif not _ID_KEY.search(str(key)):
            return False
    return switched


_ID_KEY = re.compile(r"(?i)(?:^|_)(?:id|uid|name|key|identifier)$|Id$")


def switch_marks(name: str, arguments: Mapping[str, Any]) -> tuple[str, ...]:
    """`MCP_SWITCHES_OFF` when the arguments of ``name`` (a tool that does not only look)
    switch something off: a key such as ``enabled`` set false or ``disabled`` set true, at
    the top or one level down (``{"rule": {"enabled": false}}``), or a server's own limits
    on what the agent may run or reach set by key (``{"key": "blockedCommands"}``,
    ``defaultShell``); `MCP_PUBLIC` when they
    open something to anyone (``{"type": "anyone"}``, ``{"visibility": "public"}``,
    ``{"private": false}``)."""
    words = [w.lower() for w in _WORD.findall(name.rpartition("__")[2])]
    if not words or words[0] in LOOKS:
        return ()
    setting = arguments.get("key")
    if isinstance(setting, str) and setting.lower() in _OWN_LIMITS:
        return (MCP_SWITCHES_OFF,)
    levels = [arguments, *(v for v in arguments.values() if isinstance(v, Mapping))]
    for level in levels:
        for key, value in level.items():
            off = _OFF_KEYS.get(str(key).lower())
            if off is not None and (value is off or (isinstance(off, str) and value == off)):
                return (MCP_SWITCHES_OFF,)
            if (str(key).lower() in _PUBLIC_KEYS and isinstance(value, str)
                    and value.lower() in _PUBLIC_VALUES):  # fmt: skip
                return (MCP_PUBLIC,)  # `{"type": "anyone"}`: a file shared with the world
            if str(key).lower() == "private" and value is False:
                return (MCP_PUBLIC,)  # `{"private": false}`: a repository made public
    return ()
