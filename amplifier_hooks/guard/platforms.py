"""The deploy platforms' CLIs, read as one table of what each subcommand does to what is
deployed: wrangler (Cloudflare), vercel, netlify, firebase, supabase, fly/flyctl, neonctl,
turso, railway, render, heroku, convex, appwrite, hasura.

Each of them acts on a site, a database or a bucket people use, outside this machine: a
delete or destroy, a deploy to production, a rollback, a change of DNS, domains or the
deployed secrets, a statement that drops remote data, or a migration applied to the linked
database is asked (the platforms' deletes and applies are asked, as a cloud's are: `cloud-
change`); a command that prints the deployed secrets is denied (as ``heroku config`` is),
and one that wipes a database whole with its question answered is `wipes`' to deny. A
piece `localclusters` marks (Firebase's emulators, a Hasura here) is this machine's: no
mark. Reading commands
(``list``, ``logs``, ``whoami``, ``status``), local work (``dev``, ``build``, ``--local``,
emulators) and dry runs get no mark. A subcommand the table does not name but whose words
delete (``delete``, ``destroy``, ``rm``, ``remove``) is a delete: a new resource type of a
known CLI is covered by its verb.

A CLI run through a package runner (``npx wrangler@3 delete``, ``pnpm exec vercel``,
``bunx netlify``) is read as the CLI. `mark_platforms` marks each piece with the kind of
act (`MARKS`) for the pack's ``platform-*`` rules.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from amplifier_hooks.guard.localclusters import LOCAL_CLUSTER
from amplifier_hooks.guard.marking import mark_each
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.runners import RUNNERS, runner_split

__all__ = ["MARKS", "mark_platforms", "platform_act"]

DELETE, DEPLOY, ROLLBACK, DOMAIN, SECRET, DATA, APPLY, PRINT, STATE, SETTINGS = (
    "delete", "deploy", "rollback", "domain", "secret", "data", "apply", "print", "state",
    "settings",
)  # fmt: skip
MARKS = {kind: f"@platform-{kind}" for kind in (DELETE, DEPLOY, ROLLBACK, DOMAIN, SECRET,
                                                DATA, APPLY, PRINT, STATE,
                                                SETTINGS)}  # fmt: skip
"""The mark of each kind of act, as the pack's rules name it."""


class Act(NamedTuple):
    """What a subcommand does, and the options that decide it: ``needs`` (one must be
    given, None: none needed), ``unless`` (none may be), ``sql`` (a statement that drops
    or empties data must be among the words)."""

    kind: str
    needs: tuple[str, ...] | None = None
    unless: tuple[str, ...] = ()
    sql: bool = False


_PROD = ("--prod", "--production", "--target=production", "--environment=production")
_REMOTE_DB = ("--linked", "--db-url", "--project-ref")
_PREVIEW = ("--dry-run", "--dry", "--dryrun")
"""Dry runs: nothing changes anywhere (every act but a print)."""
_HELP = frozenset({"--help", "-h"})
"""Each of these CLIs prints the command's help for these, wherever they stand, and does
nothing else (as for ``help`` as the first word: ``firebase help deploy``)."""


def _acts(**rows: str) -> dict[tuple[str, ...], Act]:
    """Rows of one kind: ``kind="sub cmd|other sub"`` -> {("sub", "cmd"): Act(kind)}."""
    return {tuple(p.split()): Act(k) for k, paths in rows.items() for p in paths.split("|")}


_WRANGLER: dict[tuple[str, ...], Act] = {
    **_acts(
        deploy="deploy|publish|versions deploy|pages deploy|pages publish|triggers deploy",
        rollback="rollback|versions rollback|deployments rollback|pages deployment rollback",
        secret="secret put|secret delete|secret bulk|pages secret put|pages secret delete"
        "|pages secret bulk|versions secret put|versions secret delete|versions secret bulk",
    ),
    ("d1", "execute"): Act(DATA, needs=("--remote",), sql=True),
    ("d1", "migrations", "apply"): Act(APPLY, needs=("--remote",)),
    ("d1", "time-travel", "restore"): Act(DATA),
    ("versions", "upload"): Act(""),  # uploads a version without deploying it
}
_VERCEL: dict[tuple[str, ...], Act] = {
    (): Act(DEPLOY, needs=_PROD),  # `vercel --prod`: the bare command deploys
    ("deploy",): Act(DEPLOY, needs=_PROD),
    ("redeploy",): Act(DEPLOY, needs=_PROD),
    **_acts(
        deploy="promote",
        rollback="rollback|rollback status",
        domain="alias set|alias rm|alias remove|dns add|dns rm|dns remove|dns import"
        "|domains add|domains rm|domains remove|domains move|domains transfer-in|domains buy"
        "|certs add|certs issue|certs rm|certs remove",
        secret="env add|env rm|env remove|env update|secrets add|secrets rm|secrets remove"
        "|secrets rename",
    ),
    ("rollback", "status"): Act(""),  # reads
}
_NETLIFY: dict[tuple[str, ...], Act] = {
    ("deploy",): Act(DEPLOY, needs=("--prod", "-p", "--prod-if-unlocked")),
    ("env", "list"): Act(PRINT, needs=("--plain", "--json")),
    ("env", "get"): Act(PRINT),
    **_acts(
        secret="env set|env unset|env delete|env import|env clone",
        domain="domains add|domains remove|dns add",
    ),
}
_FIREBASE: dict[tuple[str, ...], Act] = {
    ("deploy",): Act(DEPLOY),
    **_acts(
        deploy="hosting clone|apphosting rollouts create|ext install|ext update|ext configure",
        rollback="remoteconfig rollback",
        delete="hosting disable|ext uninstall",
        data="firestore delete|database remove|database set|database update|database push"
        "|firestore databases delete|auth import",
        secret="functions secrets set|functions secrets destroy|functions secrets prune"
        "|functions config set|functions config unset|functions config clone"
        "|apphosting secrets set",
        print="functions config get|functions secrets access",  # (secrets:get: versions only)
    ),
    ("hosting", "channel", "deploy"): Act(""),  # a preview channel, not the live site
}
_SUPABASE: dict[tuple[str, ...], Act] = {
    ("db", "reset"): Act(DATA, needs=_REMOTE_DB),
    ("db", "push"): Act(APPLY),
    ("config", "push"): Act(SETTINGS),
    ("migration", "repair"): Act(APPLY, unless=("--local",)),
    ("migration", "up"): Act(APPLY, needs=_REMOTE_DB),
    ("storage", "rm"): Act(DELETE, unless=("--local",)),
    ("storage", "mv"): Act(DELETE, unless=("--local",)),
    **_acts(
        deploy="functions deploy",
        secret="secrets set|secrets unset",
        domain="domains create|domains activate|domains delete|domains reverify"
        "|vanity-subdomains activate|vanity-subdomains delete",
        settings="network-restrictions update|ssl-enforcement update|postgres-config update"
        "|postgres-config delete|sso add|sso update|sso remove|network-bans remove",
    ),
}
_CONVEX: dict[tuple[str, ...], Act] = {
    ("deploy",): Act(DEPLOY),  # (the production deployment, or the key's)
    ("import",): Act(DATA, needs=("--prod",)),
    ("run",): Act(DATA, needs=("--prod",)),
    ("env", "set"): Act(SECRET, needs=("--prod",)),
    ("env", "remove"): Act(SECRET, needs=("--prod",)),
    ("env", "get"): Act(PRINT, needs=("--prod",)),
    ("env", "list"): Act(PRINT, needs=("--prod",)),
}
"""convex: without ``--prod`` a command acts on the developer's own dev deployment."""
_APPWRITE: dict[tuple[str, ...], Act] = {
    **_acts(deploy="push|deploy", print="projects create-key|projects create-jwt"),
}
"""appwrite: its deletes are ``SERVICE delete-THING`` (`_deleting`)."""
_HASURA: dict[tuple[str, ...], Act] = {
    ("metadata", "apply"): Act(APPLY),
    ("metadata", "clear"): Act(DELETE),
    ("metadata", "reload"): Act(""),
    ("migrate", "apply"): Act(APPLY),
    ("migrate", "squash"): Act(""),
    ("seed", "apply"): Act(DATA),
    ("deploy",): Act(APPLY),
}
_RUNS: dict[tuple[str, ...], Act] = _acts(**{"": "run|run detached|ssh console|jobs create"})
"""A command run on the deployed app's machine: read by `prodruns` (the words of the
command it runs are never this CLI's subcommand)."""
_FLY: dict[tuple[str, ...], Act] = {
    ("deploy",): Act(DEPLOY, unless=("--build-only",)),
    **_RUNS,
    **_acts(
        print="auth token",
        deploy="releases rollback",  # (flyctl's deploy of an earlier image)
        secret="secrets set|secrets unset|secrets import|secrets deploy",
        domain="certs add|certs create|certs remove|certs delete|ips release|ips allocate-v4"
        "|ips allocate-v6",
    ),
}
_NEON: dict[tuple[str, ...], Act] = _acts(data="branches reset|branches restore")
_TURSO: dict[tuple[str, ...], Act] = {
    ("db", "shell"): Act(DATA, sql=True),
    **_acts(
        print="db tokens create|group tokens create|auth token|auth api-tokens mint",
        secret="db tokens invalidate|group tokens invalidate",
    ),
}
_RAILWAY: dict[tuple[str, ...], Act] = {
    ("variables",): Act(PRINT, unless=("--set",)),
    ("variables", "set"): Act(SECRET),
    ("variables", "delete"): Act(SECRET),
    **_acts(deploy="up|redeploy", delete="down", domain="domain"),
    **_RUNS,
}
_RENDER: dict[tuple[str, ...], Act] = {
    **_acts(deploy="deploys create", rollback="deploys rollback"),
    **_RUNS,
}
_HEROKU: dict[tuple[str, ...], Act] = {
    **_acts(
        state="ps scale|ps stop|ps kill|ps restart|ps resize|ps type|maintenance on"
        "|maintenance off|features enable|features disable|stack set",
        deploy="pipelines promote|container release|releases retry",
        rollback="rollback|releases rollback",
        secret="config set|config unset|config add|config remove|config edit",
        domain="domains add|domains remove|domains clear|domains update|certs add|certs remove"
        "|certs update",
        delete="apps destroy|destroy|addons destroy|addons remove|addons detach",
        print="auth token|authorizations create",
    ),
    **_RUNS,
}
TABLE: dict[str, dict[tuple[str, ...], Act]] = {
    "wrangler": _WRANGLER, "vercel": _VERCEL, "netlify": _NETLIFY, "ntl": _NETLIFY,
    "firebase": _FIREBASE,
    "supabase": _SUPABASE, "fly": _FLY, "flyctl": _FLY, "neonctl": _NEON, "neon": _NEON,
    "turso": _TURSO, "railway": _RAILWAY, "render": _RENDER, "heroku": _HEROKU,
    "convex": _CONVEX, "appwrite": _APPWRITE, "hasura": _HASURA,
}  # fmt: skip
"""Per CLI: its subcommand's words -> what it does (the longest row that starts the
command's words decides; an act of kind "" is a row that does nothing to mark)."""
_LOCAL = {"wrangler": ("--local",), "supabase": ("--local",)}
"""Options that keep a CLI's act on this machine (its local emulation)."""
_DELETING = frozenset({"delete", "destroy", "rm", "remove", "purge", "down"})
_DEPTH = 4
"""Subcommand words read (``wrangler pages secret delete``, ``firebase functions:secrets:
destroy``); later words are the names the command is given."""
_VALUED = frozenset(
    {"-a", "--app", "-e", "--env", "-P", "--project", "--context", "-c", "--config", "--cwd",
     "--scope", "-t", "--token", "-o", "--org", "-r", "--region", "--project-id",
     "--project-ref", "--site", "--name", "--namespace-id", "--binding", "--account",
     "--message", "--environment", "--target", "-s", "--service", "--endpoint", "--down",
     "--admin-secret", "--database-name"}
)  # fmt: skip
"""Options that take the next word as their value (never a subcommand)."""
_SUBCOMMAND = re.compile(r"^[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)+$")
"""``functions:delete``, ``env:unset``, ``kv:namespace``: a subcommand spelled with colons."""
_DROPS = re.compile(r"\b(?:drop\s+(?:table|database|schema|index|view)|truncate\b"
                    r"|delete\s+from\b|alter\s+table\b[^;]*\bdrop\b)", re.I)  # fmt: skip
_PACKAGES = {"netlify-cli": "netlify", "firebase-tools": "firebase", "@railway/cli": "railway",
             "@cloudflare/wrangler": "wrangler", "@render-oss/cli": "render"}  # fmt: skip
"""The packages a runner fetches the CLIs from, where the name differs."""


_READ = frozenset(TABLE) | RUNNERS
"""The programs `platform_act` reads: the platforms' CLIs, and package runners naming one."""


def mark_platforms(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each act of a deploy platform's CLI marked (`MARKS`); the same
    tuple when none is."""
    return mark_each(pieces, _READ, _mark_at)


def _mark_at(pieces: tuple[Piece, ...], index: int) -> tuple[str, ...]:
    piece = pieces[index]
    if LOCAL_CLUSTER in piece.wrappers:
        return ()  # (firebase's commands sent to its emulators here)
    kind = platform_act(piece.program or "", piece.args)
    return (MARKS[kind],) if kind else ()


def platform_act(program: str, args: tuple[str, ...]) -> str | None:
    """The kind of act ``program args`` does on a deploy platform (None: none the table
    marks: a read, local work, a dry run, or not a platform's CLI)."""
    if program in RUNNERS:
        ran = _ran(program, args)
        if ran is None:
            return None
        program, args = ran
    table = TABLE.get(program)
    if table is None:
        return None
    words, given = _read(args)
    if words[:1] == ["help"] or not _HELP.isdisjoint(given):
        return None
    act = _row(table, words)
    if act is None:
        if not any(_deleting(word) for word in words[:_DEPTH]):
            return None
        act = Act(DELETE)
    if not act.kind or (act.kind != PRINT and given.intersection(_PREVIEW)):
        return None
    if given.intersection(_LOCAL.get(program, ())) or given.intersection(act.unless):
        return None
    if act.needs is not None and not given.intersection(act.needs):
        return None
    if act.sql and not any(_DROPS.search(a) for a in args):
        return None
    return act.kind


def _deleting(word: str) -> bool:
    """A subcommand's word that deletes: ``delete``, ``rm``; appwrite's ``delete-bucket``."""
    return word in _DELETING or word.startswith(("delete-", "remove-"))


def _ran(runner: str, args: tuple[str, ...]) -> tuple[str, tuple[str, ...]] | None:
    """The platform CLI a package runner runs and its words (`runners.runner_split`; pnpm
    and yarn also run a project's program by its name: ``pnpm wrangler deploy``); None:
    not a platform's CLI."""
    split = runner_split(runner, args)
    if split is not None:
        name, rest = split[1], split[2]
    elif runner in ("pnpm", "yarn") and args:
        name, rest = args[0], args[1:]
    else:
        return None
    name = name[: name.index("@", 1)] if "@" in name[1:] else name  # wrangler@3
    name = _PACKAGES.get(name, name)
    if name not in TABLE:
        return None
    return name, rest[1:] if rest[:1] == ("--",) else rest


def _read(args: tuple[str, ...]) -> tuple[list[str], set[str]]:
    """The subcommand's words (colons split: ``functions:delete``) and the options given,
    each also as ``--name=value`` when its value is the next word."""
    words: list[str] = []
    given: set[str] = set()
    skip = False
    for index, arg in enumerate(args):
        if skip:
            skip = False
            continue
        if arg.startswith("-") and arg != "-":
            name, equals, value = arg.partition("=")
            given.update((arg, name))
            if equals and value:
                given.add(f"{name}={value.lower()}")
            elif name in _VALUED and index + 1 < len(args):
                given.add(f"{name}={args[index + 1].lower()}")
                skip = True
            continue
        if len(words) < _DEPTH:
            words.extend(arg.split(":") if _SUBCOMMAND.match(arg) else (arg,))
    return words, given


def _row(table: dict[tuple[str, ...], Act], words: list[str]) -> Act | None:
    """The longest row of ``table`` that starts ``words``; the bare command's row (())
    only when no subcommand is given (``vercel --prod``, ``vercel ./site --prod``)."""
    bare = not words or words[0].startswith((".", "/", "~"))
    for length in range(min(len(words), _DEPTH), -1 if bare else 0, -1):
        act = table.get(tuple(words[:length]))
        if act is not None:
            return act
    return None
