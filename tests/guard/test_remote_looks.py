"""A command run on another machine (``ssh HOST CMD``, ``ssh -J BASTION HOST CMD``) or in
a pod (``kubectl exec POD -- CMD``) that only looks, reading files plainly not a secret's
(a log, the app's folder), is not asked (`readsonly`); no grant. A change, a secret's
file, the environment, a shell, options the reader does not know stay asked or denied."""

from __future__ import annotations

import pytest

from tests.guard.conftest import decided

FREE = [
    "ssh web1 'sudo tail -n 200 /var/log/nginx/error.log'",
    "ssh -J bastion db1 ss -tlnp",
    "ssh hpc 'tail -n 100 ~/project/slurm-4242317.out'",
    "ssh web1 uptime",
    "kubectl exec -n staging deploy/api -- ls -la /app",
    "kubectl exec -n staging -c api api-0 -- cat /app/VERSION",
    "oc exec api-0 -- ls /srv",
]


@pytest.mark.parametrize("command", FREE)
def test_remote_looks_are_free(command: str) -> None:
    assert decided(command)[0] is None, command


STOPPED = [
    ("ssh web1 'sudo tail /etc/shadow'", "ssh-remote-command"),
    ("ssh -J bastion db1 rm -rf /tmp/x", "ssh-remote-command"),
    ("ssh web1 env", "ssh-remote-command"),
    ("ssh web1 'sudo cat /proc/1/environ'", "ssh-remote-command"),
    ("ssh web1 'cat ~/.bash_history'", "ssh-remote-command"),
    ("ssh web1 'tail /var/log/x.log | tee /tmp/y'", "ssh-remote-command"),
    ("ssh web1 'sed -i s/a/b/ /var/log/x.log'", "ssh-remote-command"),
    ("ssh web1 'cat ~/notes/passwords.txt'", "ssh-remote-command"),
    ("ssh -o ProxyCommand=x web1 ls", "ssh-remote-command"),
    ("kubectl exec -n staging deploy/api -- rm -rf /app/tmp", "cluster-exec"),
    ("kubectl exec -it api-0 -- sh", "cluster-exec"),
    ("kubectl exec api-0 -- sh -c 'ls /app'", "cluster-exec"),
    ("kubectl exec api-0 -- cat /etc/app/config.yaml", "cluster-exec"),
    ("kubectl --kubeconfig /tmp/k exec api-0 -- ls /app", "cluster-exec"),
    ("kubectl exec api-0 exec -- ls /app", "cluster-exec"),
    ("kubectl exec api-0 -- ls ../..", "cluster-exec"),
    ("kubectl apply -f k8s/", "cluster-change"),
]


@pytest.mark.parametrize(("command", "rule"), STOPPED)
def test_remote_changes_and_secrets_stay_asked(command: str, rule: str) -> None:
    decision, found = decided(command)
    assert decision in ("ask", "deny"), command
    assert found == rule or decision == "deny", (command, found)


@pytest.mark.parametrize(
    "command",
    [
        "ssh web1 cat ~/.ssh/id_ed25519",
        "kubectl exec api-0 -- cat /var/run/secrets/kubernetes.io/serviceaccount/token",
        "kubectl exec api-0 -- cat /app/.env",
    ],
)
def test_remote_secrets_stay_denied(command: str) -> None:
    assert decided(command)[0] == "deny", command
