"""Database servers' everyday tools, in the modes whose operands are names, not files:
etcd's reads (``etcdctl get KEY``: KEY is a key, named like a path), PostgreSQL's server
control (``pg_ctl -D DATADIR status|start|stop``: the server reads and writes its own data
folder) and Atlas's migration planning (``atlas migrate diff|lint``: it writes the
migrations folder its ``--dir`` names).

Every other mode is doubtful, so nothing is granted and its words are read as before
(``etcdctl put|del``, ``pg_ctl kill|initdb``, ``atlas schema apply|clean``); so is an
option that runs code (``pg_ctl -o '-c archive_command=..'``, ``-p`` a postgres binary).
The pack's rules judge what these reads may print or stop (``database-secrets-etcd``,
``database-server-options``, ``database-server-stop-immediate``). Each reaches a server
(etcd's endpoints, a running postgres, a dev database in Docker): never granted.
"""

from __future__ import annotations

from amplifier_hooks.guard.table.acts import Act, Does, Reading, doubtful
from amplifier_hooks.guard.table.entries import Entry, entry, option_acts
from amplifier_hooks.guard.table.options import Read, opts

__all__ = ["DB_SERVERS"]

_ETCD_GLOBAL = opts(
    "--endpoints=:network --cacert=:read --cert=:read --key=:read --user= --password= "
    "-w,--write-out= --command-timeout= --dial-timeout= --keepalive-time= "
    "--keepalive-timeout= --insecure-skip-tls-verify --insecure-transport --insecure-discovery "
    "--discovery-srv= --discovery-srv-name= --debug --hex -h,--help "
    "--prefix --keys-only --count-only --print-value-only --from-key --limit= --rev= "
    "--sort-by= --order= --consistency= --max-create-rev= --min-create-rev= "
    "--max-mod-rev= --min-mod-rev=",
    permute=True,
)
"""etcdctl's global options and those of ``get`` (cobra reads them anywhere on the line)."""

_ETCD_LOOKS = {("get",), ("endpoint", "health"), ("endpoint", "status"), ("member", "list"),
               ("version",), ("check", "perf")}  # fmt: skip
"""etcdctl's commands that only print (``check perf`` writes and deletes its own keys)."""


def _etcdctl(read: Read) -> Reading | None:
    """``etcdctl [OPTIONS] get KEY [RANGE_END]``: the keys are names in etcd, never files;
    ``endpoint health``, ``member list``: no operand. Anything else (put, del, txn,
    snapshot save, lease, auth) changes the cluster or writes a file: doubtful."""
    words = read.operands
    command = next((c for c in _ETCD_LOOKS if words[: len(c)] == c), None)
    if command is None or command == ("check", "perf"):
        return doubtful("etcdctl changes the cluster unless it gets keys or lists")
    if command != ("get",) and len(words) > len(command):
        return doubtful("etcdctl's listing takes no operands")
    if command == ("get",) and not 2 <= len(words) <= 3:
        return doubtful("etcdctl get takes a key and a range end")
    return Reading((*option_acts(read), Act(Does.NETWORK, "etcd")))


_PG_CTL = opts(
    "-D,--pgdata=:data -l,--log=:log -m,--mode= -w,--wait -W,--no-wait -t,--timeout= "
    "-s,--silent -c,--core-files -o,--options=:doubt -p=:doubt -N= -U= -P= -S= -e= "
    "-V,--version -?,--help",
    permute=True,
)
"""pg_ctl's options: ``-o`` hands the server options (``-c archive_command=CMD`` runs a
command), ``-p`` names the postgres binary it runs."""
_PG_MODES = frozenset({"status", "start", "stop", "restart", "reload", "logrotate"})
"""The modes that start, stop or ask the server in the data folder (not ``initdb``,
``kill PID``, ``promote``, ``register``)."""


def _pg_ctl(read: Read) -> Reading | None:
    """``pg_ctl MODE -D DATADIR [-l LOGFILE] [-m MODE]``: the data folder is the server's,
    read and written by the server itself; a log named ``*.log`` gets the server's lines,
    any other file given to ``-l`` is written."""
    if len(read.operands) != 1 or read.operands[0] not in _PG_MODES:
        return doubtful("pg_ctl creates, signals or promotes a server in this mode")
    acts = [Act(Does.READ, d) for d in read.values("data")]
    for log in read.values("log"):
        acts.append(Act(Does.READ if log.endswith(".log") else Does.WRITE, log))
    return Reading((*acts, Act(Does.NETWORK, "postgres")))


_ATLAS_MIGRATE = opts(
    "--dir=:dir --to=:url --dev-url=:url -u,--url=:doubt --env= -c,--config= --var= "
    "--latest= --git-base= --git-dir= --dir-format= --format= --schema= --exclude= "
    "--lock-timeout= --qualifier= --edit -h,--help",
    permute=True,
)
"""``atlas migrate diff|lint``'s options: ``--dir``, ``--to`` and ``--dev-url`` are URLs
(``file://`` names a folder here, relative to the working folder); ``-u`` names a
database the call connects to, ``--env``/``--config`` a project file it reads."""


def _local(url: str) -> str | None:
    """The path a ``file://`` URL names as Atlas reads it (relative: ``file://migrations``)."""
    return url[len("file://") :] or "." if url.startswith("file://") else None


def _atlas(read: Read) -> Reading | None:
    """``atlas migrate diff [NAME]`` writes a migration into ``--dir``; ``lint`` reads it.
    ``--to`` is read; a ``docker://`` dev URL runs a throw-away database container."""
    words = read.operands
    if words[:2] not in (("migrate", "diff"), ("migrate", "lint")) or len(words) > 3:
        return doubtful("atlas changes a database in this mode")
    if words[1] == "lint" and len(words) > 2:
        return doubtful("atlas migrate lint takes no operands")
    writes = Does.WRITE if words[1] == "diff" else Does.READ
    acts: list[Act] = []
    for value in read.values("dir"):
        path = _local(value)
        if path is None:
            return doubtful("atlas reads a migrations folder that is not a file here")
        acts.append(Act(writes, path))
    for value in read.values("url"):
        path = _local(value)
        acts.append(Act(Does.READ, path) if path is not None else Act(Does.NETWORK, value))
    return Reading((*acts, Act(Does.NETWORK, "database")))


DB_SERVERS: dict[str, Entry] = {
    "etcdctl": entry(_ETCD_GLOBAL, None, _etcdctl),
    "pg_ctl": entry(_PG_CTL, None, _pg_ctl),
    "atlas": entry(_ATLAS_MIGRATE, None, _atlas),
}
"""The table's entries of this family: read in full, they write no file but a migration."""
