"""A container run reaches this machine only through its mounts: the source of ``-v
SRC:DST`` and ``--mount source=SRC`` is a host path; the destination, ``-w``, the image and
the container's command are not."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.containers import Mounts, mounts
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('run --rm -v $PWD:/src -w /src node:22 npm test', Mounts((".",), (".",))),
        ("run -v $(pwd)/data:/d img", Mounts(("./data",), ("./data",))),
        ("run --volume=~/cache:/c img", Mounts(("~/cache",), ("~/cache",))),
        ("run -v/etc:/e:ro img", Mounts(("/etc",), ())),
        ("run -v cache:/root/.cache -v /anon img", Mounts((), ())),
        ("create --mount type=bind,source=/srv,target=/s,readonly img",
         Mounts(("/srv",), ())),
        ("container run --mount type=bind,src=/srv,dst=/s img", Mounts(("/srv",), ("/srv",))),
        ("run --env-file .env img", Mounts((".env",), ())),
        ("run --mount type=tmpfs,target=/t img", Mounts((), ())),
    ],
)  # fmt: skip
def test_the_host_paths_of_a_container_run(command: str, expected: Mounts) -> None:
    assert mounts("docker", tuple(command.split())) == expected


@pytest.mark.parametrize("command", ["ps -a", "build -t app .", "volume ls", "exec -it c sh"])
def test_other_container_commands_are_read_as_before(command: str) -> None:
    assert mounts("docker", tuple(command.split())) is None
    assert mounts("ls", ("run", "-v", "/:/h")) is None


@pytest.mark.parametrize(
    "command",
    ['docker run --rm -v "$PWD":/src -w /src node:22 npm test',
     "podman run --rm -v $(pwd):/app:Z -w /app python:3.12 pytest -q",
     "docker run --rm -v npm-cache:/root/.npm node:22 npm ci"],
)  # fmt: skip
def test_mounting_the_workspace_is_everyday_work(verdict: Judge, command: str) -> None:
    assert verdict(command).decision is None


@pytest.mark.parametrize(
    ("command", "rule", "named"),
    [
        ("docker run --rm -v ~:/h alpine ls /h", "container-mount-home", "/home/ada-guard-test"),
        ('docker run -v "$HOME":/h alpine true', "container-mount-home", "/home/ada-guard-test"),
        ("docker run -v ~/.codex:/c alpine true", "self-protect-hook-folders", ".codex"),
        ("docker run -v /:/host ubuntu", "docker-host-root", ""),
    ],
)
def test_mounting_home_or_an_agent_folder_is_denied_and_named(
    verdict: Judge, command: str, rule: str, named: str
) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == ("deny", rule)
    assert named in (found.reason or "")
    assert ":/h" not in (found.reason or "")  # the source alone, not SRC:DST as one path


@pytest.mark.parametrize(
    ("program", "command"),
    [("docker", "run -itv /srv:/s img"), ("podman", "run -itv/srv:/s img"),
     ("docker", "run -it --rm -v /srv:/s img"), ("docker", "-H unix:///d run -v /srv:/s img"),
     ("docker", "--context ci container run --volume /srv:/s img"),
     ("nerdctl", "run -dv /srv:/s img"), ("docker", "run --name web -v=/srv:/s img")],
)  # fmt: skip
def test_a_mount_in_any_spelling_docker_reads_is_a_host_path(program: str, command: str) -> None:
    """The run's options are read from the table (`table.commanders.CONTAINER_RUN`) as
    pflag reads them: ``-v`` bundled (``-itv``), attached or after ``=``, and docker's own
    options before ``run`` (a reading of single words missed ``-itv``)."""
    assert mounts(program, tuple(command.split())) == Mounts(("/srv",), ("/srv",)), command


def test_a_mounted_agent_folder_is_denied_in_a_bundle_too(verdict: Judge) -> None:
    for command in ("podman run -itv ~/.claude:/c alpine", "docker run -dtv ~/.codex:/c img"):
        assert verdict(command).decision == "deny", command
