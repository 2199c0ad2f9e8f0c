"""Commands run on production: the command a platform's runner or ssh runs on the deployed
app's machine, and a local command pointed at production by its settings.

``heroku run -a APP CMD``, ``kamal app exec CMD`` (on the servers its deploy config
names, production's unless another destination is given), ``fly ssh console -C CMD``,
``render jobs create --start-command CMD``, ``railway run CMD`` (here, with the deployed
service's variables) ``ssh HOST CMD`` (a host whose name says production:
``prod-web-1``) and ``kubectl exec -n production POD -- CMD`` (a namespace, context or
pod that says so) run CMD where
the deployed app and its database are. CMD is read with
the shell's grammar, each of its pieces as its program reads it (`djangocmds` for Django's
management commands), and the runner's piece is marked (`MARKS`) with the worst it does:

- a wipe (``manage.py flush``, ``migrate APP zero``, ``alembic downgrade``, ``rm``,
  ``dropdb``, a FLUSHALL, a queue purged, a statement that drops or truncates): denied;
- a print of the machine's secrets (``printenv``, ``env``, ``cat .env``): denied;
- the production data printed (``manage.py dumpdata``): asked, denied when it is sent on
  (so is anything production prints, its logs too, piped into a sender);
- anything else but a look (a forward ``migrate``, a shell, a project's command): asked.

A look (``showmigrations``, ``journalctl``, ``uptime``) gets no mark. ``ssh`` keeps its own
rule for what is not a wipe nor a print of secrets (``ssh-remote-command``), and for
every command run on a host not named production. A runner fed
on its input (``curl URL | heroku run .. manage.py shell``) whose command runs its input
as code makes that input code run there: the piece feeding it feeds code. ``fab -H HOST
TASK`` runs a fabfile's task there, which is the project's code: asked.

A Procfile's lines run there too, on every deploy: a wipe or a print of secrets in one is
marked the same (`mark_deployed`).

The same marks go on a local management command whose settings name production
(``--settings=config.settings.production``, ``DJANGO_SETTINGS_MODULE`` set for it or
exported earlier in the command), on a SQL client pointed at production that is fed
what ``manage.py sqlmigrate --backwards`` or ``sqlflush`` prints, and on a SQL client or
management command run after production's dotenv file is sourced (``. ./.env.production
&& psql "$DATABASE_URL" -f reset.sql``).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable

from amplifier_hooks.guard.djangocmds import (
    CHANGE,
    LOOK,
    PRINTS_SQL,
    SECRETS,
    STDIN_CODE,
    WIPE,
    manage_command,
    manage_kind,
    settings_module,
)
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.programs import category_of
from amplifier_hooks.guard.readsonly import reads_only
from amplifier_hooks.guard.remote import ssh_remote
from amplifier_hooks.guard.table.options import opts, read_options

__all__ = ["DATA", "MARKS", "RUNNERS", "mark_deployed", "mark_production", "may_run_there",
           "production_kind", "remote_command"]  # fmt: skip

DATA = "data"
"""The production database's rows printed (a dump of a model's objects)."""
MARKS = {WIPE: "@production-wipe", SECRETS: "@production-secrets", DATA: "@production-data",
         CHANGE: "@production-change"}  # fmt: skip
"""The mark of each kind, as the pack's ``production-*`` rules name it."""
_FED_CODE = "fed code"
"""(`_kind_of`: the runner's command runs its input as code)"""
_RANK = {LOOK: 0, CHANGE: 1, DATA: 2, SECRETS: 3, WIPE: 4}
RUNNERS = frozenset({"heroku", "fly", "flyctl", "render", "railway", "ssh", "fab", "kubectl",
                     "oc", "kamal"})  # fmt: skip
_OWN_JUDGE = frozenset({"ssh", "railway", "kubectl", "oc"})
"""Runners whose other changes are not asked here: ssh's own rule asks for them, and the
cluster's rule for ``kubectl exec``'s; ``railway run`` runs here (``railway run npm run
dev``), with the service's variables, so only a wipe, a print of secrets or data sent
out through them is stopped."""
"""Programs that run a command on (or with the variables of) a deployed app."""
PRODUCTION = re.compile(r"(?:^|[-_./:@=$])prod(?:$|[-_./:])|production", re.I)
"""A name that says production (``config.settings.production``, ``db.prod.internal``,
``acme-prod``), as the pack's production globs read it."""
_VALUED = {
    "heroku": frozenset({"-a", "--app", "-r", "--remote", "-s", "--size", "-e", "--env",
                         "--type"}),
    "railway": frozenset({"-s", "--service", "-e", "--environment"}),
    "kamal": frozenset({"-d", "--destination", "-r", "--roles", "--hosts", "-c",
                        "--config-file", "--version", "-e", "--env"}),
}  # fmt: skip
"""Each runner's options that take the next word as their value (never the command)."""
_COMMAND_OPTIONS = {"fly": ("-C", "--command"), "flyctl": ("-C", "--command"),
                    "render": ("--start-command",)}  # fmt: skip
_WIPERS = frozenset({"rm", "shred", "unlink", "dropdb", "dropuser", "truncate", "wipefs",
                     "mkfs"})  # fmt: skip
_REDIS = frozenset({"redis-cli", "valkey-cli", "keydb-cli"})
_SQL = frozenset({"psql", "mysql", "mariadb", "sqlite3", "clickhouse-client", "mongosh",
                  "mongo", "cqlsh", "sqlcmd"})  # fmt: skip
_DROPS = re.compile(r"\b(?:drop\s+(?:table|database|schema|column|owned)|truncate\b"
                    r"|delete\s+from\b|dropDatabase|deleteMany)", re.I)  # fmt: skip
_WIPE_FILE = re.compile(r"drop|truncate|wipe|reset|teardown|purge", re.I)
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSW|CREDENTIAL|DATABASE_URL|_DSN|_URL$", re.I)
"""A variable's name that says it holds a secret (a URL's often hold a password)."""
_STDIN_READERS = frozenset({"sh", "bash", "zsh", "dash", "python", "python3", "node", "ruby",
                            "perl", "php", "psql", "mysql", "rails", "irb"})  # fmt: skip
"""Programs that run what is on their input when given no script or command."""
_ALEMBIC_OPTIONS = opts("-c,--config= -n,--name= -x=", abbreviations=False)
"""alembic's options that take the next word (any other is read as taking none)."""
_ALEMBIC_LOOKS = frozenset({"history", "current", "heads", "branches", "show", "check"})
_FAB = opts(
    "-H,--hosts= -R,--roles= -i,--identity= -f,--fabfile= -c,--config= -S,--ssh-config= "
    "-t,--connect-timeout= -T,--command-timeout= -x,--exclude-hosts= -z,--pool-size= "
    "-u,--user= -l,--list:look -h,--help:look -V,--version:look --complete:look",
    permute=False,
)
"""fab's own options, up to its first task (``fab -H h deploy --version 3.8.2``: the
task's ``--version``); those that only list or print are looks."""


def mark_production(pieces: tuple[Piece, ...],
                    reparse: Callable[[str], tuple[Piece, ...]]) -> tuple[Piece, ...]:  # fmt: skip
    """``pieces`` with each command run on production marked with what it does there
    (module doc); the same tuple when none is."""
    out = list(pieces)
    exported: list[str] = []
    changed = False
    loaded = False  # production's variables sourced earlier (`. ./.env.production`)
    for index, piece in enumerate(pieces):
        if piece.program is None and "export" in piece.pipes_to:
            exported.extend(piece.env)  # `export NAME=value;`: set for every later piece
        if piece.program in (".", "source") and any(map(_production_file, piece.args[:1])):
            loaded = True
            continue
        if loaded and (piece.program in _SQL or manage_command(piece.program, piece.args)):
            kind: str | None = production_kind(piece)  # pointed at production by them
        else:
            kind = _kind_of(pieces, index, tuple(exported), reparse)
        if kind is None:
            continue
        if kind == _FED_CODE:  # what the piece before sends is run there as code
            out[index - 1] = out[index - 1]._replace(feeds_code=True)
            changed = True
            kind = CHANGE
        if kind == LOOK or (kind == CHANGE and piece.program in _OWN_JUDGE):
            continue  # (ssh's own rule asks; what railway runs here is this machine's work)
        out[index] = out[index]._replace(wrappers=(*piece.wrappers, MARKS[kind]))
        changed = True
    return tuple(out) if changed else pieces


def may_run_there(programs: set[str | None], text: str) -> bool:
    """Whether a command of ``programs`` (its text ``text``) may run something on
    production: one look, so that the everyday command is not read twice."""
    if not programs.isdisjoint(RUNNERS) or "manage.py" in text or "django" in text:
        return True
    return "prod" in text and not programs.isdisjoint((".", "source"))


def mark_deployed(piece: Piece) -> Piece:
    """``piece`` of a command the platform runs on the deployed app later (a Procfile's
    ``release:`` or ``web:`` line) marked when it wipes or prints secrets there; its other
    changes are the deploy's own (``release: python manage.py migrate``)."""
    kind = production_kind(piece)
    if kind not in (WIPE, SECRETS):
        return piece
    return piece._replace(wrappers=(*piece.wrappers, MARKS[kind]))


def _kind_of(pieces: tuple[Piece, ...], index: int, exported: tuple[str, ...],
             reparse: Callable[[str], tuple[Piece, ...]]) -> str | None:  # fmt: skip
    """What ``pieces[index]`` does on production (None: it runs nothing there)."""
    piece = pieces[index]
    program, args = piece.program, piece.args
    command = remote_command(program, args)
    if command is not None and program == "ssh" and not _production_host(args):
        return None  # another machine, not said to be production: ssh's own rule asks
    if command is not None and program in ("kubectl", "oc") and not _production_pod(args):
        return None  # a pod not said to be production's: the cluster's rule asks
    if command is not None:
        ran = reparse(command)
        if not ran:
            return CHANGE
        fed = index > 0 and (program or "") in pieces[index - 1].pipes_to
        if fed and len(ran) == 1 and _runs_input(ran[0]):
            return _FED_CODE
        kind = _worst(production_kind(p) for p in ran)
        if _RANK[kind] < _RANK[DATA] and any("network" in category_of(p) for p in piece.pipes_to):
            return DATA  # what production prints (its logs, its rows) sent on
        return kind
    if program == "fab":
        read = read_options(_FAB, args)
        return None if read.doubt is None and read.has("look") else CHANGE
    words = manage_command(program, args)
    if words is not None:
        settings = settings_module(args, (*piece.env, *exported))
        return manage_kind(words, args) if PRODUCTION.search(settings) else None
    if program in _SQL and index > 0 and program in pieces[index - 1].pipes_to:
        before = pieces[index - 1]
        printed = manage_command(before.program, before.args)
        if printed and printed[0] in PRINTS_SQL and PRODUCTION.search(" ".join(args)):
            backwards = printed[0] == "sqlflush" or "--backwards" in before.args
            return WIPE if backwards else CHANGE
    return None


def remote_command(program: str | None, args: tuple[str, ...]) -> str | None:
    """The command ``program args`` runs on a deployed app's machine (or with its
    variables), as text; None when it runs none."""
    if program == "ssh":
        found = ssh_remote(args)
        return found[1] if found is not None else None
    if program in ("kubectl", "oc"):
        return _pod_command(args)
    if program in ("heroku", "railway"):
        if args[:1] not in (("run",), ("run:detached",)):
            return None
        return _after_options(args[1:], _VALUED[program])
    if program == "kamal":  # `kamal app exec -d production CMD`: on the app's servers
        return _after_options(args[2:], _VALUED[program]) if args[:2] == ("app", "exec") else None
    names = _COMMAND_OPTIONS.get(program or "")
    if names is None:
        return None
    if program in ("fly", "flyctl") and args[:2] != ("ssh", "console"):
        return None
    if program == "render" and args[:2] != ("jobs", "create"):
        return None
    return _option_value(args, names)


def production_kind(piece: Piece) -> str:
    """What ``piece``, run on a production machine, does there (`_RANK`'s kinds)."""
    program = piece.program
    if program is None or piece.opaque is not None:
        return CHANGE
    args = piece.args
    words = manage_command(program, args)
    if words is not None:
        return DATA if words[0] == "dumpdata" else manage_kind(words, args)
    lowered = {a.lower() for a in args}
    if program in _WIPERS:
        return WIPE
    if program == "alembic":
        return _alembic_kind(args)
    if program in _REDIS and lowered.intersection(("flushall", "flushdb")):
        return WIPE
    if program == "celery" and "purge" in lowered:
        return WIPE
    if program in _SQL and any(_DROPS.search(a) for a in args):
        return WIPE
    if program in _SQL and any(_WIPE_FILE.search(a) for a in args if a.endswith(".sql")):
        return WIPE  # (a script named for what it does: `psql -f db/reset.sql`)
    if _prints_environment(program, args) or any(_secret_file(a) for a in args):
        return SECRETS
    return LOOK if reads_only(piece) else CHANGE


def _prints_environment(program: str, args: tuple[str, ...]) -> bool:
    """``env``, ``set``, ``export -p``, ``declare -x`` with nothing to run or set: the
    whole environment printed; ``printenv`` of it all or of a secret's name."""
    if program == "printenv":
        return not args or any(_SECRET_NAME.search(a) for a in args)
    if program == "env":  # (options and NAME=value only: it prints what it would run with)
        return all(a[:1] == "-" or "=" in a for a in args)
    if program == "set":
        return not args
    if program in ("export", "declare", "typeset"):
        return all(a in ("-p", "-x", "-px", "-xp") for a in args)
    return False


def _production_host(args: tuple[str, ...]) -> bool:
    """Whether the host ``ssh args`` runs its command on says production (``prod-web-1``,
    ``deploy@db.production.internal``)."""
    found = ssh_remote(args)
    return found is not None and PRODUCTION.search(found[0]) is not None


def _pod_command(args: tuple[str, ...]) -> str | None:
    """The command ``kubectl exec ... -- CMD`` runs in a pod, as text (its words are the
    program's own, no shell's: quoted back for the grammar); None for any other."""
    if "--" not in args:
        return None
    end = args.index("--")
    return shlex.join(args[end + 1 :]) if "exec" in args[:end] and args[end + 1 :] else None


def _production_pod(args: tuple[str, ...]) -> bool:
    """Whether ``kubectl exec``'s namespace, context or pod says production
    (``-n production``, ``--context prod-eu``, ``api-prod-7c9d``)."""
    end = args.index("--") if "--" in args else len(args)
    return any(PRODUCTION.search(arg) for arg in args[:end])


def _alembic_kind(args: tuple[str, ...]) -> str:
    words = read_options(_ALEMBIC_OPTIONS, args).operands
    if "downgrade" in words:
        return WIPE
    return LOOK if words[:1] and words[0] in _ALEMBIC_LOOKS else CHANGE


def _production_file(word: str) -> bool:
    """A dotenv file of production's variables (``.env.production``, ``prod.env``)."""
    name = word.rsplit("/", 1)[-1]
    return ".env" in name and PRODUCTION.search(name) is not None


def _secret_file(word: str) -> bool:
    """A file of the machine's secrets: a dotenv file, a process's environment."""
    name = word.rsplit("/", 1)[-1]
    return name.startswith(".env") or name == "environ"


def _runs_input(piece: Piece) -> bool:
    """Whether ``piece`` runs what is on its input as code (`STDIN_CODE`, `_STDIN_READERS`
    given no script nor command)."""
    words = manage_command(piece.program, piece.args)
    if words is not None:
        return words[0] in STDIN_CODE and not {"-c", "--command"}.intersection(piece.args)
    if piece.program not in _STDIN_READERS:
        return False
    return all(a.startswith("-") and a not in ("-c", "-e", "-f", "-m") for a in piece.args)


def _worst(kinds: Iterable[str]) -> str:
    return max(kinds, key=_RANK.__getitem__, default=LOOK)


def _after_options(args: tuple[str, ...], valued: frozenset[str]) -> str | None:
    """The words after a runner's own options (``--`` ends them), joined: its command."""
    skip = False
    for index, arg in enumerate(args):
        if skip:
            skip = False
        elif arg == "--":
            return " ".join(args[index + 1 :]) or None
        elif arg.startswith("-"):
            skip = arg in valued
        else:
            return " ".join(args[index:])
    return None


def _option_value(args: tuple[str, ...], names: tuple[str, ...]) -> str | None:
    """The value of the option ``names`` spell (``-C X``, ``--command=X``)."""
    for index, arg in enumerate(args):
        if arg in names and index + 1 < len(args):
            return args[index + 1]
        name, equals, value = arg.partition("=")
        if equals and name in names:
            return value
    return None
