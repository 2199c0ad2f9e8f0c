"""Database servers and network devices elsewhere: what only looks stays free, what
changes them is asked, what takes their safety or configuration away is denied; ssh's
input is the command it runs there; secrets and records by more names."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.devicecli import device_looks
from amplifier_hooks.guard.remote import fed_remote
from amplifier_hooks.guard.sqlchanges import changes, safety_off
from tests.guard.conftest import tool_decided
from tests.guard.tables import stopped_and_free

STOPPED = [
    ("mysql -h db2.prod.acme.internal -e 'STOP REPLICA; RESET REPLICA ALL;'", "ask",
     "database-sql-change-elsewhere"),
    ("mysql -h mysql-1.acme.internal -e 'KILL 48213'", "ask", "database-sql-change-elsewhere"),
    ("psql -h pg.acme.internal -d acme -c 'VACUUM FULL orders'", "ask",
     "database-sql-change-elsewhere"),
    ("psql -h pg.acme.internal -c \"SELECT pg_terminate_backend(pid) FROM pg_stat_activity\"",
     "ask", "database-sql-change-elsewhere"),
    ("psql -h pg.acme.internal -c \"WITH d AS (DELETE FROM jobs WHERE id = 4 RETURNING *) "
     "SELECT * FROM d\"", "ask", "database-sql-change-elsewhere"),
    ("psql -h pg.acme.internal -c \"\\copy events from 'data/events.csv' csv\"", "ask",
     "database-sql-change-elsewhere"),
    ("psql -h pg.acme.internal -c 'ALTER SYSTEM SET fsync = off'", "deny",
     "database-sql-safety-off-elsewhere"),
    ("mysql -h mysql-1.acme.internal -e 'SET GLOBAL require_secure_transport = OFF'", "deny",
     "database-sql-safety-off-elsewhere"),
    ("mysql -h db1.prod.acme.internal -u root -e 'RESET MASTER'", "deny",
     "database-sql-wipe-elsewhere"),
    ("redis-cli -h redis-replica-2.acme.internal REPLICAOF NO ONE", "ask",
     "database-store-change-elsewhere"),
    ("redis-cli -h cache.acme.internal -p 6379 DEL user:48213:profile", "ask",
     "database-store-change-elsewhere"),
    ("redis-cli -h sentinel-1.acme.internal -p 26379 SENTINEL FAILOVER mymaster", "ask",
     "database-store-change-elsewhere"),
    ("cat seed.txt | redis-cli -h cache.acme.internal --pipe", "ask",
     "database-store-change-elsewhere"),
    ("mongosh --host mongo-2.acme.internal --eval 'rs.stepDown(60)'", "ask",
     "database-store-change-elsewhere"),
    ("mongosh mongodb://m.acme.internal/shop --eval 'db.orders.insertOne({sku: 1})'", "ask",
     "database-store-change-elsewhere"),
    ("ssh ops@web1.acme.internal < deploy.sh", "ask", "ssh-remote-command"),
    ("ssh ops@web1.acme.internal <<< 'systemctl restart api'", "ask", "ssh-remote-command"),
    ("ssh -T n@core-sw1.acme.net <<'EOF'\nshow vlan brief\nreload\nEOF", "ask",
     "ssh-remote-command"),
    ("ssh n@core-rtr1.acme.net 'write erase'", "deny", "network-device-erase"),
    ("ssh root@mx1.acme.net 'cli -c \"request system zeroize\"'", "deny",
     "network-device-erase"),
    ("ssh admin@gw.acme.net '/system reset-configuration no-defaults=yes'", "deny",
     "network-device-erase"),
    ("ssh n@core-rtr1.acme.net 'show running-config | include password'", "ask",
     "ssh-remote-command"),
    ("ssh n@core-rtr1.acme.net 'show run; reload'", "ask", "ssh-remote-command"),
    ("cat ios/sentry.properties", "deny", "env-file-print"),
    ("cat .sentryclirc", "deny", "env-file-print"),
    ("tensorboard --logdir runs --bind_all", "ask", "ml-server-all-interfaces"),
    ("mlflow server --host 0.0.0.0 --port 5000", "ask", "ml-server-all-interfaces"),
    ("ray start --head --dashboard-host 0.0.0.0", "ask", "ml-server-all-interfaces"),
    ("sky launch -c ft --gpus H100:8 task.yaml -y", "ask", "gpu-cloud-launch"),
    ("runpodctl create pod --gpuType 'NVIDIA H100' --gpuCount 8", "ask", "gpu-cloud-launch"),
    ("npm profile disable-2fa", "deny", "package-registry-2fa-off"),
    ("gh-ost --host=mysql-prod-1.acme.internal --table=orders --alter='ADD COLUMN x INT' "
     "--execute", "ask", "database-production-schema-change"),
    ("sqitch deploy db:pg://deploy@prod-db.acme.internal/acme", "ask",
     "database-production-schema-change"),
    ("flyway -configFiles=conf/flyway.prod.conf repair", "ask",
     "database-production-schema-change"),
    ("wal-g delete everything FORCE --confirm", "deny", "database-backup-delete"),
    ("mongod --dbpath /var/lib/mongodb --bind_ip_all --noauth", "deny", "database-mongod-opened"),
    ("sudo cat /etc/mongod.keyfile", "deny", "credential-read"),
    ("fastlane cert --force --username dev@example.com", "ask", "store-account-change"),
    ("bundle exec fastlane run register_devices devices_file:./fastlane/devices.txt", "ask",
     "store-account-change"),
    ("fastlane produce -u dev@example.com -a com.example.newapp", "ask", "store-account-change"),
    ("adb shell settings put global package_verifier_enable 0", "deny", "device-protection-off"),
    ("adb shell content query --uri content://sms/inbox", "deny", "device-personal-data"),
    ("yarn install --skip-integrity-check", "ask", "package-integrity-skipped"),
    ("cosign verify --insecure-ignore-tlog=true --key cosign.pub ghcr.io/acme/api:1.4.0", "ask",
     "package-integrity-skipped"),
    ("cat ~/.pg_service.conf", "deny", "credential-read"),
    ("sudo cat /etc/freeradius/3.0/clients.conf", "deny", "credential-read"),
    ("npm access set mfa=none acme-utils", "deny", "package-registry-2fa-off"),
]  # fmt: skip

FREE = [
    "tensorboard --logdir runs --port 6006",
    "mlflow ui --host 127.0.0.1 --port 5000",
    "ray start --head --dashboard-host 127.0.0.1",
    "sky status",
    "sky launch --dryrun task.yaml",
    "npm profile get",
    "goose -dir db/migrations sqlite3 ./dev.db up",
    "gh-ost --host=mysql-prod-1.acme.internal --table=orders --alter='ADD COLUMN x INT'",
    "migrate -path db/migrations -database postgres://localhost:5432/app_dev up",
    "wal-g backup-list",
    "fastlane sigh --readonly --development -a com.example.app",
    "bundle exec fastlane match development --readonly",
    "bundle install --force",
    "adb shell settings get global package_verifier_enable",
    "adb shell content query --uri content://com.example.app.provider/items",
    "cosign verify --key cosign.pub ghcr.io/acme/api:1.4.0",
    "yarn install --frozen-lockfile",
    "mongod --dbpath ./data/db --port 27017",
    "psql -h pg.acme.internal -d acme -c 'SELECT count(*) FROM orders'",
    "psql -h pg.acme.internal -c 'EXPLAIN SELECT * FROM orders WHERE id = 1'",
    "psql -h pg.acme.internal -c '\\dt+'",
    "psql -h pg.acme.internal -c \"\\copy (select id from orders) to 'data/o.csv' csv\"",
    "psql -h localhost -d app_dev -c 'VACUUM FULL orders'",
    "psql -h localhost -c 'ALTER SYSTEM SET fsync = off'",
    "mysql -h mysql-1.acme.internal -e 'SHOW REPLICA STATUS'",
    "redis-cli -h cache.acme.internal GET session:1",
    "redis-cli -h cache.acme.internal --scan --pattern 'user:*'",
    "redis-cli -h cache.acme.internal INFO replication",
    "redis-cli -h cache.acme.internal CONFIG GET maxmemory",
    "redis-cli -h localhost SET feature:x 1",
    "redis-cli -n 15 FLUSHDB",
    "mongosh mongodb://m.acme.internal/shop --eval 'db.orders.find({address: 1}).count()'",
    "ssh -T git@github.com",
    "ssh -T ops@web1.acme.internal < /dev/null",
    "ssh n@core-rtr1.acme.net 'show ip bgp summary'",
    "ssh n@mx1.acme.net 'cli -c \"show log messages | last 100 | no-more\"'",
    "ssh admin@gw.acme.net '/ip route print where dst-address=0.0.0.0/0'",
    "ssh n@sw1.acme.net 'show interfaces status' | grep -E 'notconnect|err-disabled'",
    "ssh -T n@sw1.acme.net <<'EOF'\nterminal length 0\nshow vlan brief\nEOF",
]

test_stopped, test_everyday_stays_free = stopped_and_free(STOPPED, FREE)


@pytest.mark.parametrize(
    ("sql", "changed"),
    [("SELECT 1", False), ("show tables", False), ("SET search_path TO app", False),
     ("BEGIN; SELECT 1; COMMIT", False), ("SELECT * INTO backup FROM t", True),
     ("EXPLAIN ANALYZE DELETE FROM t", True), ("SET GLOBAL max_connections = 500", True),
     ("SELECT pg_reload_conf()", True), ("ANALYZE orders", False), ("LOCK TABLE t", True),
     ("SELECT 'delete from t'", False), ("-- DROP TABLE t\nSELECT 1", False)],
)  # fmt: skip
def test_a_statement_looks_only_when_it_reads_and_calls_no_server_action(
    sql: str, changed: bool
) -> None:
    assert changes(sql) is changed


def test_a_safety_setting_switched_off_is_told_from_one_switched_on() -> None:
    assert safety_off("ALTER SYSTEM SET full_page_writes TO off")
    assert safety_off("ALTER SYSTEM SET pgaudit.log = 'none'")
    assert not safety_off("ALTER SYSTEM SET log_statement = 'none'")  # its default
    assert not safety_off("ALTER SYSTEM SET ssl = on")
    assert not safety_off("SET GLOBAL max_connections = 0")


def test_ssh_given_no_command_runs_its_input_there() -> None:
    assert fed_remote(("-T", "host"), "uptime\n", ()) == ("-T", "host", "uptime\n")
    assert fed_remote(("host",), None, ("deploy.sh",)) == ("host", "sh")
    assert fed_remote(("host",), None, ("/dev/null",)) == ("host",)
    assert fed_remote(("host", "uptime"), "x", ()) == ("host", "uptime")  # its own command


@pytest.mark.parametrize(
    "text",
    [
        "sh run",
        "show $(id)",
        "show ip route > /tmp/x",
        "/file remove [find type=backup]",
        "/ip address print; /system reboot",
        "show crypto key mypubkey rsa",
        "configure terminal",
        "",
    ],
)
def test_a_device_command_that_a_shell_or_the_device_would_act_on_is_no_look(text: str) -> None:
    assert not device_looks(text)


def test_a_rights_clearance_record_is_never_changed_under_a_grant() -> None:
    edit = {"file_path": "/home/dev/project/rights/music_cues.yaml", "old_string": "false",
            "new_string": "true"}  # fmt: skip
    assert tool_decided("Edit", edit)[0] != "allow"
    edit["file_path"] = "/home/dev/project/src/rights.py"
    assert tool_decided("Edit", edit)[0] == "allow"
