"""Caches' and message brokers' command-line clients: Redis's ``redis-cli``, Kafka's
admin scripts (``kafka-topics``, ``kafka-consumer-groups``...) and RabbitMQ's
``rabbitmqadmin``.

Their operands are a server's commands and names (``INFO memory``, ``list queues``), not
files, and their options name the server, a password and the files they read (Kafka's
``--command-config``, TLS keys). So each reading is the files read, a file written where
one is named (``redis-cli --rdb FILE``, ``rabbitmqadmin export FILE``) and the server
reached: never granted. What the words do on the server (``FLUSHALL``, ``--delete``,
``purge queue``) is the pack's rules' to judge, by those words.
"""

from __future__ import annotations

from amplifier_hooks.guard.table.acts import Act, Does, Reading
from amplifier_hooks.guard.table.entries import Entry, entry, option_acts
from amplifier_hooks.guard.table.options import Read, opts

__all__ = ["BROKERS"]

_REDIS = opts(
    "-h= -p= -s= -a= --user= --pass= --askpass -u= -n= -r= -i= -t= -d= -D= -c -e -x --tls --sni= "
    "--cacert=:read --cacertdir=:read --cert=:read --key=:read --tls-ciphers= "
    "--tls-ciphersuites= --insecure --no-auth-warning --raw --no-raw --quoted-input --csv "
    "--json --quoted-json --show-pushes= --stat --latency --latency-history --latency-dist "
    "--lru-test= --replica --rdb=:write --functions-rdb=:write --pipe --pipe-timeout= "
    "--bigkeys --memkeys --memkeys-samples= --hotkeys --scan --pattern= --quoted-pattern= "
    "--count= --intrinsic-latency= --eval=:read --ldb --ldb-sync-mode --cluster= "
    "--verbose --version --help -2 -3",
    permute=False,
)
"""redis-cli's options (up to its command: ``redis-cli -h HOST GET key``)."""


def _redis(read: Read) -> Reading:
    return Reading((*option_acts(read), Act(Does.NETWORK, "redis")))


_KAFKA = opts(
    "--bootstrap-server= --bootstrap-controller= --zookeeper= --command-config=:read "
    "--admin.config=:read --consumer.config=:read --producer.config=:read "
    "--config-file=:read --reassignment-json-file=:read --topics-to-move-json-file=:read "
    "--from-file=:read --add-config-file=:read --offset-json-file=:read "
    "--list --describe --create --delete --alter --topic= --topic-list= --group= --all-groups "
    "--all-topics --partitions= --replication-factor= --replica-assignment= --config= "
    "--delete-config= --add-config= --entity-type= --entity-name= --entity-default "
    "--under-replicated-partitions --under-min-isr-partitions --unavailable-partitions "
    "--at-min-isr-partitions --exclude-internal --if-exists --if-not-exists "
    "--reset-offsets --to-earliest --to-latest --to-current --to-datetime= --to-offset= "
    "--shift-by= --by-duration= --dry-run --execute --export --members --offsets --state "
    "--verbose --timeout= --add --remove --allow-principal= --deny-principal= "
    "--allow-host= --deny-host= --operation= --cluster --transactional-id= "
    "--resource-pattern-type= --broker-list= --broker= --generate --verify "
    "--throttle= --version --help",
)
"""The options Kafka's admin scripts share (each script takes its own subset; the server
refuses the rest)."""


def _kafka(read: Read) -> Reading:
    return Reading((*option_acts(read), Act(Does.NETWORK, "kafka")))


_RABBITMQADMIN = opts(
    "-H,--host= -P,--port= -V,--vhost= -u,--username= -p,--password= -U,--base-uri= "
    "-c,--config=:read -N,--node= -s,--ssl --ssl-key-file=:read --ssl-cert-file=:read "
    "--ssl-ca-cert-file=:read --ssl-disable-hostname-verification -f,--format= -S,--sort= "
    "-R,--sort-reverse -d,--depth= -q,--quiet --bash-completion --version --help",
)


def _rabbitmqadmin(read: Read) -> Reading:
    """``rabbitmqadmin [OPTIONS] export FILE`` writes FILE, ``import FILE`` reads it; every
    other command's words are the server's (``list queues``, ``purge queue name=q``)."""
    acts = list(option_acts(read))
    words = read.operands
    if len(words) == 2 and words[0] in ("export", "import"):
        acts.append(Act(Does.WRITE if words[0] == "export" else Does.READ, words[1]))
    return Reading((*acts, Act(Does.NETWORK, "rabbitmq")))


_KAFKA_SCRIPTS = ("kafka-topics", "kafka-consumer-groups", "kafka-configs", "kafka-acls",
                  "kafka-log-dirs", "kafka-reassign-partitions",
                  "kafka-delete-records")  # fmt: skip

BROKERS: dict[str, Entry] = {
    "redis-cli": entry(_REDIS, None, _redis),
    "rabbitmqadmin": entry(_RABBITMQADMIN, None, _rabbitmqadmin),
    **{name: entry(_KAFKA, None, _kafka) for name in _KAFKA_SCRIPTS},
    **{f"{name}.sh": entry(_KAFKA, None, _kafka) for name in _KAFKA_SCRIPTS},
}
"""The table's entries of this family: they reach a server, and write only a file named."""
