"""Words that name things on another machine are not paths here: a command run in a
container (``docker exec``, ``kubectl exec``) writes nothing on this machine, and a log
group (``aws logs tail /aws/lambda/api``) is a name. The container's secrets and the
files a cloud call reads (``file://``) are still judged."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.elsewhere import cloud_names, runs_in_container
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("program", "command"),
    [("docker", "exec web ls -la /app"), ("docker", "-H unix:///d exec -it web sh"),
     ("docker", "container exec web ls"), ("podman", "exec -it pg psql"),
     ("kubectl", "exec -n staging deploy/api -- ls -la /app"),
     ("kubectl", "-n staging exec deploy/api -- ls"), ("oc", "exec pod -- ls")],
)  # fmt: skip
def test_a_command_run_in_a_container(program: str, command: str) -> None:
    assert runs_in_container(program, tuple(command.split()))


@pytest.mark.parametrize(
    ("program", "command"),
    [("docker", "run -v /srv:/s img ls"), ("docker", "cp web:/app/x /tmp/x"),
     ("kubectl", "cp pod:/app/x /tmp/x"), ("kubectl", "apply -f k.yaml"),
     ("ssh", "host exec"), ("docker", "ps")],
)  # fmt: skip
def test_other_commands_are_not_run_in_a_container(program: str, command: str) -> None:
    assert not runs_in_container(program, tuple(command.split()))


@pytest.mark.parametrize(
    ("command", "expected"),
    [("logs tail /aws/lambda/api --since 10m", ()),
     ("logs get-log-events --log-group-name /aws/lambda/x", ()),
     ("logs put-log-events --cli-input-json file://in.json", ("in.json",)),
     ("logs put-log-events --cli-input-json=fileb:///tmp/x", ("/tmp/x",))],
)  # fmt: skip
def test_a_log_groups_name_is_no_path(command: str, expected: tuple[str, ...]) -> None:
    assert cloud_names("aws", tuple(command.split())) == expected


@pytest.mark.parametrize(
    ("program", "command"),
    [("aws", "s3 cp /etc/hosts s3://b/x"), ("aws", "lambda invoke --function-name f out"),
     ("aws", "--debug logs tail /x"), ("aws", "--region eu-west-1 logs tail /x"),
     ("gcloud", "logging read x")],
)  # fmt: skip
def test_other_cloud_calls_are_read_as_before(program: str, command: str) -> None:
    assert cloud_names(program, tuple(command.split())) is None


@pytest.mark.parametrize(
    "command",
    ["aws logs tail /aws/lambda/api --since 10m", "docker exec web ls -la /app",
     "aws logs describe-log-streams --log-group-name /aws/ecs/web",
     "kubectl exec -n staging deploy/api -- ls -la /app"],  # a look in a pod (`readsonly`)
)  # fmt: skip
def test_names_elsewhere_are_everyday_work(verdict: Judge, command: str) -> None:
    assert verdict(command).decision is None


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [("docker exec api cat /run/secrets/db_password", "deny", "credential-read"),
     ("kubectl exec -n prod deploy/api -- cat /var/run/secrets/kubernetes.io/serviceaccount/token",
      "deny", "credential-read"),
     ("kubectl exec -n staging deploy/api -- rm -rf /app/tmp", "ask", "cluster-exec"),
     ("aws logs put-log-events --cli-input-json file://~/.aws/credentials", "deny",
      "credential-read"),
     ("aws logs tail /x > ~/.bashrc", "deny", None),
     ("aws s3 cp s3://b/x /srv/data/x", "ask", "write-outside-workspace")],
)  # fmt: skip
def test_what_elsewhere_still_reaches_here_is_judged(
    verdict: Judge, command: str, decision: str, rule: str | None
) -> None:
    found = verdict(command)
    assert found.decision == decision, (command, found)
    if rule is not None:
        assert found.rule == rule
