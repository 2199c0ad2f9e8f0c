"""Marks on a Redis or MongoDB shell's piece that changes a server elsewhere, or reads a
Redis server's values in bulk.

``redis-cli -h redis-prod.internal DEL k`` and ``mongosh --host mongo-2.prod.internal
--eval 'rs.stepDown()'`` change what the server's other users read, or which server they
reach: its keys, its replication, its members. A server named by a host with a domain or
an address, or by a name that says production, is another machine's (`sqlservers.elsewhere`);
this machine's (``localhost``, a compose service's one-label name) is the person's own.

Redis's command is the first word after the options: one that only reads (``GET``,
``SCAN``, ``INFO``) looks, any other changes, and ``--pipe`` sends whatever its input
holds. mongosh's ``--eval`` code changes when it calls a method that writes, drops, grants
or moves the replica set (``deleteOne``, ``rs.stepDown``, ``createUser``): read by name,
since the code is JavaScript the guard does not run.

A value read (``GET``, ``HGETALL``, ``DUMP``...) from a Redis server elsewhere for a key
known only at run time (``GET "sess:$k"`` in a loop over a scan, or the keys ``xargs``
appends) reads every value a list names: the sessions, tokens or cards the server keeps
(`STORE_VALUES_LISTED`). One key by its name is a look.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.sqlservers import elsewhere
from amplifier_hooks.guard.table.options import opts, read_options

__all__ = ["PROGRAMS", "STORE_CHANGE_ELSEWHERE", "STORE_VALUES_LISTED", "mark_store_changes"]

STORE_CHANGE_ELSEWHERE = "@store-change-elsewhere"
"""The mark of a Redis or MongoDB shell's call that changes a server elsewhere."""
STORE_VALUES_LISTED = "@store-values-listed"
"""The mark of a Redis value read elsewhere for each key a run-time list names."""
_REDIS = frozenset({"redis-cli", "valkey-cli", "keydb-cli"})
_MONGO = frozenset({"mongosh", "mongo"})
PROGRAMS = _REDIS | _MONGO

_REDIS_OPTIONS = opts(
    "-h=:host -u=:host -p= -s= -a= --user= --pass= -n= -r= -i= -d= -D= -t= --cacert= "
    "--cacertdir= --cert= --key= --sni= --tls-ciphers= --tls-ciphersuites= "
    "--pipe-timeout= --pattern= --quoted-pattern= --count= --memkeys-samples= --eval= "
    "--functions-rdb= --rdb=:looks --pipe:pipes --scan:looks --bigkeys:looks "
    "--memkeys:looks --hotkeys:looks --keystats:looks --stat:looks --latency:looks "
    "--latency-history:looks --latency-dist:looks --intrinsic-latency:looks --help:looks "
    "--version:looks -v:looks -c -e -x -3 --raw --no-raw --csv --json --quoted-json "
    "--quoted-input --tls --insecure --no-auth-warning --show-pushes= --cluster-yes "
    "--askpass --verbose --lru-test=",
    permute=False,
    abbreviations=False,
)
"""redis-cli's options: the first word that is not one is the command to run."""
_REDIS_READS = frozenset({"GET", "MGET", "GETRANGE", "STRLEN", "EXISTS", "TYPE", "TTL",
                          "PTTL", "KEYS", "SCAN", "SSCAN", "HSCAN", "ZSCAN", "INFO", "PING",
                          "ECHO", "DBSIZE", "TIME", "ROLE", "LASTSAVE", "HGET", "HMGET",
                          "HGETALL", "HKEYS", "HVALS", "HLEN", "HEXISTS", "LRANGE", "LLEN",
                          "LINDEX", "SMEMBERS", "SCARD", "SISMEMBER", "ZRANGE", "ZREVRANGE",
                          "ZRANGEBYSCORE", "ZREVRANGEBYSCORE", "ZSCORE", "ZRANK", "ZREVRANK",
                          "ZCARD", "ZCOUNT", "XRANGE", "XREVRANGE", "XLEN", "XINFO",
                          "XPENDING", "PFCOUNT", "GETBIT", "BITCOUNT", "OBJECT", "MEMORY",
                          "LATENCY", "SLOWLOG", "MONITOR", "SUBSCRIBE", "PSUBSCRIBE",
                          "COMMAND", "DUMP", "RANDOMKEY", "GEOPOS", "GEODIST", "GEOSEARCH",
                          "JSON.GET", "FT.SEARCH", "FT.INFO", "TS.RANGE", "TS.GET"})  # fmt: skip
"""Commands that only read; ``CONFIG GET``, ``CLIENT LIST``, ``CLUSTER INFO`` and
``SENTINEL`` listings are read by their second word (`_SUBREADS`)."""
_SUBREADS = frozenset({"GET", "LIST", "INFO", "NODES", "SLOTS", "SHARDS", "MYID", "MASTERS",
                       "MASTER", "REPLICAS", "SLAVES", "SENTINELS", "GET-MASTER-ADDR-BY-NAME",
                       "CKQUORUM", "GETNAME", "ID", "COUNTKEYSINSLOT", "KEYSLOT", "HELP",
                       "STATS", "USERS", "WHOAMI", "CAT", "LOG", "LEN", "DOCTOR",
                       "LATEST", "HISTORY", "USAGE"})  # fmt: skip
_REDIS_SUBCOMMANDS = frozenset({"CONFIG", "CLIENT", "CLUSTER", "SENTINEL", "ACL", "SLOWLOG",
                                "MEMORY", "LATENCY", "OBJECT", "COMMAND", "XINFO",
                                "FUNCTION", "SCRIPT", "MODULE"})  # fmt: skip
_REDIS_LOOKS = frozenset({"--scan", "--bigkeys", "--memkeys", "--hotkeys", "--keystats",
                          "--stat", "--latency", "--latency-history", "--latency-dist",
                          "--intrinsic-latency", "--rdb", "--help", "--version", "-v"})  # fmt: skip
"""Options that make the call a reading mode of its own (no command is run)."""
_REDIS_VALUES = frozenset({"GET", "MGET", "GETDEL", "GETEX", "GETRANGE", "DUMP", "HGET",
                           "HMGET", "HGETALL", "HVALS", "HSCAN", "HRANDFIELD", "LRANGE",
                           "LINDEX", "SMEMBERS", "SSCAN", "SRANDMEMBER", "ZRANGE",
                           "ZREVRANGE", "ZRANGEBYSCORE", "ZREVRANGEBYSCORE", "ZSCAN", "XRANGE",
                           "XREVRANGE", "JSON.GET", "JSON.MGET"})  # fmt: skip
"""Commands that print a key's value (not its name, size or type)."""

_MONGO_OPTIONS = opts(
    "--host=:host --port= -u= --username= -p= --password= --authenticationDatabase= "
    "--authenticationMechanism= --tlsCAFile= --tlsCertificateKeyFile= -f= --file= "
    "--apiVersion= --eval=:code --tls --quiet --norc --nodb --shell --json=?",
    abbreviations=False,
)
"""mongosh's options; its operands are the server's address and the files it runs."""
_MONGO_CHANGES = re.compile(
    r"\.\s*(?:insert\w*|update\w*|delete\w*|remove|replace\w*|drop\w*|rename\w*|bulkWrite"
    r"|findOneAnd\w+|findAndModify|create\w*|grant\w*|revoke\w*|stepDown|reconfig|freeze"
    r"|initiate|add|addArb|shutdownServer|fsyncLock|killOp|setProfilingLevel|runCommand"
    r"|adminCommand|enableSharding|shardCollection|moveChunk)\s*\(|\$(?:out|merge)\b"
)
"""mongosh method names (and aggregation stages) that change the server."""


def mark_store_changes(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each Redis or MongoDB shell's call that changes a server elsewhere
    marked `STORE_CHANGE_ELSEWHERE`."""
    return tuple(_mark(piece) if piece.program in PROGRAMS else piece for piece in pieces)


def _mark(piece: Piece) -> Piece:
    program = piece.program or ""
    mark = _redis(piece) if program in _REDIS else _mongo(piece.args)
    if not mark:
        return piece
    return piece._replace(wrappers=(*piece.wrappers, mark))


def _redis(piece: Piece) -> str | None:
    read = read_options(_REDIS_OPTIONS, piece.args)
    if read.has("looks") or not any(elsewhere(place) for place in read.values("host")):
        return None
    if read.has("pipes"):
        return STORE_CHANGE_ELSEWHERE
    if not read.operands:  # an interactive session: it reads its input's commands
        return None
    command = [word.upper() for word in read.operands[:2]]
    if command[0] in _REDIS_SUBCOMMANDS:
        changes = command[1:2] == [] or command[1] not in _SUBREADS
        return STORE_CHANGE_ELSEWHERE if changes else None
    if command[0] not in _REDIS_READS:
        return STORE_CHANGE_ELSEWHERE
    listed = "xargs" in piece.wrappers or any("$" in word for word in read.operands[1:])
    return STORE_VALUES_LISTED if command[0] in _REDIS_VALUES and listed else None


def _mongo(args: tuple[str, ...]) -> str | None:
    read = read_options(_MONGO_OPTIONS, args)
    addresses = [word for word in read.operands if not word.endswith((".js", ".mongodb"))]
    if not any(elsewhere(place) for place in (*read.values("host"), *addresses)):
        return None
    changes = any(_MONGO_CHANGES.search(code) for code in read.values("code"))
    return STORE_CHANGE_ELSEWHERE if changes else None
