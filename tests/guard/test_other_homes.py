"""Root's home folder holds the same keys and tokens as the person's own (``/root``, a
system folder by place, once read under a grant; another user's home is outside the
workspace, never granted); and the system keeps a few of its own (a cluster's admin
kubeconfig, a CI runner's token, mysql's maintenance login, each container's
environment)."""

from __future__ import annotations

import pytest

from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "command",
    [
        "cat /root/.aws/credentials",
        "head -3 /root/.netrc",
        "jq .auths /root/.docker/config.json",
        "cat /root/.git-credentials",
        "cat /root/.config/gh/hosts.yml",
        "cat /var/root/.pypirc",
        "cat /var/lib/postgresql/.pgpass",
        "cat /etc/kubernetes/admin.conf",
        "cat /etc/rancher/k3s/k3s.yaml",
        "cat /etc/mysql/debian.cnf",
        "cat /etc/gitlab-runner/config.toml",
        "jq .Config.Env /var/lib/docker/containers/abc/config.v2.json",
    ],
)
def test_another_homes_credentials_are_denied(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision == "deny", (command, judged)


@pytest.mark.parametrize(
    "command",
    ["cat /root/.bash_history", "cat /root/notes.txt", "ls /root", "tail /var/root/x.log"],
)
def test_a_read_in_roots_home_is_not_granted(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision != "allow", (command, judged)


@pytest.mark.parametrize(
    "command", ["cat /etc/passwd", "cat /etc/os-release", "ls -la /usr/bin", "man -w git"]
)
def test_the_systems_public_files_are_still_granted(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision == "allow", (command, judged)


@pytest.mark.parametrize(
    "command",
    [
        "cat /etc/kubernetes/manifests/README",
        "tail -n 50 /var/log/syslog",
        "ls /var/lib/docker",
        "cat /etc/grafana/provisioning/dashboards/main.yaml",
        "cat /opt/app/config/settings.yml",
        "grep -rn timeout /srv/site/config",
        "cat /usr/local/etc/redis.conf",
    ],
)
def test_a_services_folder_is_read_free_but_never_granted(verdict: Judge, command: str) -> None:
    # a service's configuration or data may hold its passwords under any name
    judged = verdict(command)
    assert judged.decision is None, (command, judged)
    assert "where services keep" in (judged.pieces[0].reason or ""), judged


@pytest.mark.parametrize(
    "command",
    ["cat /home/alice/.ssh/id_ed25519.pub", "cat /root/.ssh/known_hosts",
     "cat /home/alice/.ssh/config"],
)  # fmt: skip
def test_public_ssh_files_of_another_home_are_not_denied(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision != "deny", (command, judged)
