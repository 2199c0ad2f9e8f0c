"""``kubectl exec`` into a pod whose namespace, context or name says production runs its
command where production's data is (guard/prodruns.py): a wipe or a print of secrets there
is denied as on any production machine; other commands keep the cluster's ask, and a pod
not said to be production's keeps it whatever runs there.
"""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.prodruns import remote_command

from .conftest import decided

DENIED = [
    ("kubectl exec -n production postgres-0 -- rm -rf /var/lib/postgresql/data",
     "production-wipe"),
    ("kubectl exec -it postgres-0 -n production -- psql -U postgres -c 'DROP DATABASE shop;'",
     "production-wipe"),
    ("kubectl --context prod-eu exec db-0 -- sh -c 'rm -rf /data/*'", "production-wipe"),
    ("oc exec -n shop-prod redis-0 -- redis-cli FLUSHALL", "production-wipe"),
    ("kubectl exec -n production deploy/api -- env", "production-secrets-print"),
]  # fmt: skip

ASKED = [
    "kubectl exec -n production deploy/api -- python manage.py migrate --noinput",
    "kubectl exec -it -n production deploy/api -- /bin/bash",
    "kubectl exec -n staging postgres-0 -- rm -rf /var/lib/postgresql/data",
    "kubectl exec production-db rm -rf /data",  # no `--`: the old spelling, not read
]


@pytest.mark.parametrize(("line", "rule"), DENIED)
def test_a_wipe_or_secrets_in_a_production_pod_denied(line: str, rule: str) -> None:
    assert decided(line) == ("deny", rule)


@pytest.mark.parametrize("line", ASKED)
def test_other_pod_commands_keep_the_cluster_ask(line: str) -> None:
    assert decided(line) == ("ask", "cluster-exec")


def test_a_look_in_a_pod_is_free_even_in_production() -> None:
    assert decided("kubectl exec -n production deploy/api -- ls /app") == (None, None)


def test_the_environment_of_a_pod_not_said_production_keeps_its_ask() -> None:
    assert decided("kubectl exec -n staging deploy/api -- env") == (
        "ask", "environment-dump-container")  # fmt: skip


def test_the_pod_command_is_read_from_after_the_dashes() -> None:
    assert remote_command("kubectl", ("exec", "p", "--", "psql", "-c", "drop table t")) == (
        "psql -c 'drop table t'"
    )
    assert remote_command("oc", ("-n", "x", "exec", "p", "--", "ls")) == "ls"
    assert remote_command("kubectl", ("exec", "p", "--")) is None
    assert remote_command("kubectl", ("logs", "p", "--", "x")) is None
    assert remote_command("kubectl", ("get", "pods")) is None
    assert decided("kubectl get pods -n production") == (None, None)
