"""Service CLIs read as one table: what destroys something a service keeps outside this
machine (a stream, queue, topic, bucket, secret, vault item, feature flag, backup, index,
user or account).

What such a command takes away is not on this machine, so nothing here gives it back, and
others use it: it is asked (`SERVICE_DELETE`, the pack's ``service-delete``), as a cloud's
and a cluster's deletes are. Each CLI's row says how its commands are spelled: how many
command words come before the operands (``nats stream delete ORDERS``: two; ``mc rb
BUCKET``: one; ``rabbitmqadmin delete queue name=jobs``: two), command groups that are
longer (``mc admin user remove``), words that destroy only in that CLI (``deck reset``,
``algolia indices clear``, ``vault secrets disable``), options that destroy
(``kafka-topics --delete``), commands that only change this machine's own settings
(``mc alias remove``, ``nats context rm``) and a program that destroys whatever it is
given (``kafka-delete-records``). A word's parts are read apart: ``delete_user``,
``purge-queue``, ``remove-secret``, ``item-delete``.

A verb that only looks or that changes without destroying (``get``, ``list``, ``put``,
``create``) ends the command words: the words after it are the names it is given, so
``gh pr checkout remove-banner`` is no delete. Read-only commands, ``--help`` and dry runs
get no mark; a command whose words are only known at run time (``nats $CMD``) is left as
it was (no opinion).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from amplifier_hooks.guard.marking import mark_each
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.verbs import DESTROYS, LOOKS

__all__ = ["PROGRAMS", "SERVICE_DELETE", "TABLE", "mark_services", "service_destroys"]

SERVICE_DELETE = "@service-delete"
"""The mark of a service CLI's command that destroys something the service keeps."""


class Service(NamedTuple):
    """How one service CLI spells its commands, and what in them destroys."""

    depth: int = 2
    """Command words before the operands (``nats stream delete``: 2)."""
    verbs: frozenset[str] = frozenset()
    """Words that destroy in this CLI only (``deck reset``, ``vault secrets disable``)."""
    options: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Options that destroy, each with the options one of which must come with it (none:
    it destroys alone): ``kafka-consumer-groups --reset-offsets`` only with ``--execute``."""
    local: frozenset[str] = frozenset()
    """First command words whose commands change only this machine (the CLI's own
    settings, logins, aliases, a local container)."""
    deeper: tuple[tuple[str, int], ...] = ()
    """Command groups with more command words (``mc admin user remove``: 3)."""
    always: bool = False
    """The program destroys whatever it is given (``kafka-delete-records``)."""


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


SERVICE_VERBS = DESTROYS | _set("rm del unregister deregister undeploy revoke unsubscribe")
"""What destroys in every service CLI of the table: the shared verbs (`verbs.DESTROYS`),
their short spellings (``rm``, ``del``), and taking a runner, a service, an API or a
credential out of use (``unregister``, ``deregister``, ``undeploy``, ``revoke``,
``unsubscribe``): others' work stops and nothing here puts it back. Not ``flush``
(``mysqladmin flush-logs`` empties caches), nor ``stop``, ``close``, ``unset``: they
pause or detach what can be started or set again."""
_CHANGES = _set("put create add set update write enable apply push publish login logout run "
                "exec cp mv copy edit patch restart start stop pub sub request reply tail "
                "watch logs clone fork rename import export deploy use switch")  # fmt: skip
"""Verbs that change without destroying: like `verbs.LOOKS`, one ends the command words."""
_SETTINGS = _set("configure completion profile alias login logout setup version")
"""First words that touch only the CLI's own settings here, in every CLI of the table
(``config`` and ``auth`` only where the row says: ``consul config delete`` and ``vault auth
disable`` change the server)."""
_KAFKA_GROUPS = (("--delete", ()), ("--delete-offsets", ()), ("--reset-offsets", ("--execute",)))
TABLE: dict[str, Service] = {
    # messaging and streaming: streams, queues, topics, their consumers and records
    "nats": Service(local=_set("context")),
    "rabbitmqctl": Service(1, verbs=_set("reset clear forget")),  # force_reset, clear_permissions
    "rabbitmqadmin": Service(2),  # `delete queue name=jobs`, `purge queue`
    "kafka-topics": Service(0, options=(("--delete", ()),)),
    "kafka-consumer-groups": Service(0, options=_KAFKA_GROUPS),  # (--reset-offsets: a plan)
    "kafka-acls": Service(0, options=(("--remove", ()),)),
    "kafka-configs": Service(0, options=(("--delete-config", ()),)),  # (back to the default)
    "kafka-delete-records": Service(0, always=True),
    # an application's offsets reset and its internal topics deleted (--dry-run: a plan)
    "kafka-streams-application-reset": Service(0, always=True),
    # confluent kafka topic delete, confluent environment delete (local: its own services)
    "confluent": Service(3, local=_set("local context plugin update shell")),
    "rpk": Service(local=_set("profile container generate iotune plugin")),
    "pulsar-admin": Service(),
    # temporal workflow terminate, temporal operator namespace delete
    "temporal": Service(3, local=_set("env server config")),
    # storage, backups, key-value stores
    "mc": Service(1, verbs=_set("rb disable"), options=(("--remove", ()),),
                  local=_set("alias config"), deeper=(("admin", 3), ("ilm", 3), ("event", 2))),
    "s3cmd": Service(1, verbs=_set("rb"),
                     options=(("--delete-removed", ()), ("--delete-after", ()))),
    "velero": Service(local=_set("client")),
    "etcdctl": Service(),
    "consul": Service(3),  # kv delete, acl token delete, services deregister
    "influx": Service(local=_set("config")),
    # data platforms and orchestrators: databricks fs rm, bundle destroy, jobs delete;
    # airflow dags delete, db clean|reset (the runs' history), variables delete
    "databricks": Service(local=_set("auth configure")),
    "airflow": Service(verbs=_set("clean reset"), local=_set("standalone webserver scheduler")),
    "mysqladmin": Service(1),  # drop DB (flush-* only empty caches)
    "splunk": Service(verbs=_set("clean")),  # remove index, clean eventdata
    # secrets and identities
    "vault": Service(3, verbs=_set("disable")),  # a secrets engine disabled loses its data
    "bao": Service(3, verbs=_set("disable")),  # OpenBao's CLI: Vault's fork
    # research data transfer and cloud drives: an endpoint's or a drive's files deleted
    "globus": Service(1, local=_set("login logout whoami session")),
    "gdrive": Service(),
    "op": Service(deeper=(("connect", 3),), local=_set("account signin signout plugin")),
    # bw delete item|folder|attachment ID (its login, lock and sync touch only this machine)
    "bw": Service(1, local=_set("config login logout lock unlock sync serve")),
    "doppler": Service(local=_set("configure")),
    "auth0": Service(local=_set("tenants")),
    # feature flags, API gateways, CDNs, search, observability, payments
    # an archived flag is taken out of every environment: its users get the default
    "ldcli": Service(verbs=_set("archive"), local=_set("config")),
    "unleash": Service(verbs=_set("archive")),
    "flipt": Service(),
    # deck reset deletes the gateway's whole configuration; sync, what the file lacks
    "deck": Service(verbs=_set("reset sync"), local=_set("file")),
    "apigeecli": Service(),
    "fastly": Service(deeper=(("logging", 3), ("service", 3)), local=_set("config")),
    "algolia": Service(verbs=_set("clear")),  # indices clear empties the index
    "newrelic": Service(3),  # apm application delete
    "datadog-ci": Service(),
    "pd": Service(local=_set("auth")),
    "sentry-cli": Service(local=_set("info")),
    # stripe api_keys roll: the old key stops working for every service that holds it
    "stripe": Service(verbs=_set("roll"), local=_set("config listen trigger")),
    "square": Service(),
    # forges and CI: what the pack's gh/glab rules do not already name
    # (gh cache delete: an Actions cache the next run builds again)
    "gh": Service(deeper=(("repo", 3),), local=_set("extension ext cache config auth")),
    "glab": Service(deeper=(("repo", 3),), local=_set("config auth")),
    "circleci": Service(local=_set("local diagnostic config")),
    "gitlab-runner": Service(1, local=_set("install uninstall start stop restart run")),
}  # fmt: skip
PROGRAMS = frozenset(TABLE) | frozenset(f"{name}.sh" for name in TABLE)
"""The programs of the table, by name or as a script (``nats.sh``)."""
"""Per CLI: how its commands are spelled and what destroys (`Service`). Not ``split``
(Split's CLI): the name is coreutils' ``split``, which writes files here."""
_PREVIEW = frozenset({"--dry-run", "--dryrun", "--help"})
_WORD = re.compile(r"^[A-Za-z][A-Za-z0-9_:-]*$")
"""A command word; anything else (a path, ``name=value``, a URL, an id with dots) is an
operand, which ends the command words."""
_PARTS = re.compile(r"[-_:]")


def mark_services(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each service CLI's destroying command marked `SERVICE_DELETE`;
    the same tuple when none is."""
    return mark_each(pieces, PROGRAMS, _mark_at)


def _mark_at(pieces: tuple[Piece, ...], index: int) -> tuple[str, ...]:
    piece = pieces[index]
    return (SERVICE_DELETE,) if service_destroys(piece.program or "", piece.args) else ()


def service_destroys(program: str, args: tuple[str, ...]) -> bool:
    """Whether ``program args`` destroys something a service keeps (False: a read, a
    change that destroys nothing, the CLI's own settings, a dry run, or no service CLI
    of the table)."""
    service = TABLE.get(program.removesuffix(".sh"))
    if service is None:
        return False
    given = {arg.partition("=")[0] for arg in args if arg.startswith("-")}
    if not _PREVIEW.isdisjoint(given):
        return False
    if service.always:
        return True
    for option, companions in service.options:
        if option in given and (not companions or not given.isdisjoint(companions)):
            return True
    return _destroying_words(service, args)


def _destroying_words(service: Service, args: tuple[str, ...]) -> bool:
    """Whether the command words of ``args`` (up to the CLI's depth, an operand, or a
    verb that destroys nothing) hold a verb that destroys."""
    destroys = SERVICE_VERBS | service.verbs
    budget, count, after_option = service.depth, 0, False
    for arg in args:
        if count >= budget or arg == "--":
            break
        if arg.startswith("-") and arg != "-":
            # its value may be the next word (``vault -namespace admin secrets disable``)
            after_option = "=" not in arg
            budget += after_option
            continue
        if not _WORD.match(arg):
            if after_option:  # an option's value (``--address https://...``)
                after_option = False
                continue
            break
        after_option = False
        count += 1
        parts = frozenset(_PARTS.split(arg.lower()))
        if count == 1:
            if arg in service.local or arg in _SETTINGS or arg == "help":
                return False
            budget += dict(service.deeper).get(arg, service.depth) - service.depth
        if not destroys.isdisjoint(parts):
            return True
        if arg.lower() in LOOKS or arg.lower() in _CHANGES:  # (``deploy-key`` is a noun)
            break
    return False
