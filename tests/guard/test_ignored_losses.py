"""Ignored is not regenerable (issue 34): on a real repository the tests make, deleting,
emptying or writing over what git ignores is granted only when its name says a build, an
install or a run makes it again; an ignored database, state file, env file or experiment
store is asked (`ignored-data-loss`), and another ignored path gets no grant."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.guard import Places, Policy, Verdict
from amplifier_hooks.guard.ignorednames import ignored_kind
from amplifier_hooks.guard.lost import Loss, ignored_stake
from amplifier_hooks.guard.repo import Entry, GitQuery, RepoFacts
from tests.guard.conftest import committed, judged_with_git, project_places, write

"""git's deadline in these tests: they are about the facts, not about git's speed."""

IGNORES = """\
build/
node_modules/
.pytest_cache/
__pycache__/
*.log
*.sqlite3
prisma/dev.db
terraform.tfstate*
mlruns/
.env
Build-Output/
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository whose .gitignore keeps out build outputs, dependencies and caches, and
    also a local database, Prisma's dev database, Terraform's state, MLflow's runs and a
    ``.env``; ``notes/`` is kept out by ``.git/info/exclude`` (a person's private notes)."""
    top = tmp_path_factory.mktemp("ignored") / "project"
    write(top / ".gitignore", IGNORES)
    write(top / "src" / "app.py", "app = 1\n")
    committed(top)
    write(top / ".git" / "info" / "exclude", "notes/\n")
    for name in ("build/out.o", "node_modules/left-pad/index.js", ".pytest_cache/v/x",
                 "src/__pycache__/app.cpython-312.pyc", "run.log", "data/app.sqlite3",
                 "prisma/dev.db", "terraform.tfstate", "terraform.tfstate.backup",
                 "mlruns/0/meta.yaml", ".env", "notes/private.md", "Build-Output/app.o",
                 "build/cache.sqlite3"):  # fmt: skip
        write(top / name, "data\n")
    return top


@pytest.fixture
def places(project: Path) -> Places:
    return project_places(project)


def decide(data: dict[str, Any], pack: Policy, places: Places) -> Verdict:
    """As ah-guard judges it (`judged_with_git`)."""
    return judged_with_git(data, pack, places)


def bash(command: str) -> dict[str, Any]:
    return {"tool_name": "bash", "tool_input": {"command": command}}


@pytest.mark.parametrize(
    "command",
    ["rm -rf build node_modules .pytest_cache", "rm run.log", "rm -rf src/__pycache__",
     "rm -rf build", "> run.log", "rm -rf BUILD-OUTPUT/app.o", "cp src/app.py build/out.o"],
)  # fmt: skip
def test_what_a_build_makes_again_stays_granted(command: str, pack: Policy, places: Places) -> None:
    verdict = decide(bash(command), pack, places)
    assert verdict.decision == "allow", verdict.pieces


@pytest.mark.parametrize(
    "command",
    ["rm data/app.sqlite3", "> prisma/dev.db", "rm -rf mlruns", "rm -rf data",
     "cp src/app.py data/app.sqlite3", "rm -rf build data/app.sqlite3",
     "rm -rf mlruns node_modules", "rm -f build/cache.sqlite3", "truncate -s 0 prisma/dev.db"],
)  # fmt: skip
def test_ignored_data_is_asked(command: str, pack: Policy, places: Places) -> None:
    verdict = decide(bash(command), pack, places)
    assert (verdict.decision, verdict.rule) == ("ask", "ignored-data-loss"), verdict.pieces
    assert "move it aside" in (verdict.reason or "")


@pytest.mark.parametrize("command", ["rm terraform.tfstate", "rm terraform.tfstate.backup"])
def test_terraform_state_is_asked(command: str, pack: Policy, places: Places) -> None:
    # the pack asks first (`secret-store-read`: the state holds secrets); asked either way
    assert decide(bash(command), pack, places).decision == "ask"


def test_a_write_over_an_ignored_env_is_asked(project: Path, pack: Policy, places: Places) -> None:
    data = {"tool_name": "Write",
            "tool_input": {"file_path": str(project / ".env"), "content": "A=1\n"}}  # fmt: skip
    verdict = decide(data, pack, places)
    assert verdict.decision == "ask", verdict.pieces


@pytest.mark.parametrize(
    "command", ["rm notes/private.md", "rm -rf notes", "rm -rf notes build", "> notes/private.md"]
)
def test_another_ignored_path_gets_no_grant(command: str, pack: Policy, places: Places) -> None:
    assert decide(bash(command), pack, places).decision is None


def test_a_find_that_picks_files_below_data_is_no_grant(pack: Policy, places: Places) -> None:
    # find's tests pick what is deleted (`-name '*.tmp'`); the database there may not be
    # one of them, so it is not asked, yet not granted either
    assert decide(bash("find data -name '*.tmp' -delete"), pack, places).decision is None
    assert decide(bash("find build -name '*.o' -delete"), pack, places).decision == "allow"
    assert decide(bash("find src -name '*.pyc' -delete"), pack, places).decision == "allow"


def test_the_strictest_wins_on_a_call_mixing_them(pack: Policy, places: Places) -> None:
    verdict = decide(bash("rm -rf build notes data/app.sqlite3"), pack, places)
    assert (verdict.decision, verdict.rule) == ("ask", "ignored-data-loss")


def test_a_disabled_rule_leaves_no_grant(pack: Policy, places: Places) -> None:
    less = pack.extend((), disable=("ignored-data-loss",))
    assert decide(bash("rm data/app.sqlite3"), less, places).decision is None


@pytest.mark.parametrize(
    ("path", "kind"),
    [("build/", "regenerable"), ("node_modules/", "regenerable"), ("NODE_MODULES/", "regenerable"),
     ("src/__pycache__/", "regenerable"), ("a/b.pyc", "regenerable"), ("run.log", "regenerable"),
     (".coverage.host.12", "regenerable"), ("cmake-build-debug/", "regenerable"),
     ("Thumbs.db", "regenerable"), ("data/app.sqlite3", "data"), ("data/App.SQLite3", "data"),
     ("prisma/dev.db", "data"), ("prisma/dev.db-journal", "data"),
     ("terraform.tfstate", "data"), ("terraform.tfstate.backup", "data"),
     ("terraform.tfstate.d/", "data"), ("mlruns/", "data"), ("wandb/", "data"),
     (".env", "data"), (".env.local", "data"), ("certs/server.key", "data"),
     ("settings.local.json", "data"), ("local_settings.py", "data"),
     ("build/app.sqlite3", "data"), ("uploads/", "data"), ("backup.sql", "data"),
     ("notes/private.md", None), ("data/", None), ("local/", None), (".idea/", None)],
)  # fmt: skip
def test_names_say_what_an_ignored_path_holds(path: str, kind: str | None) -> None:
    assert ignored_kind(path) == kind


def test_only_a_files_losses_reach_ignored_paths() -> None:
    ask = GitQuery("status", "/r", frozenset({"data"}))
    facts = RepoFacts(ask, entries=(Entry("!", "data/app.sqlite3"),))
    assert ignored_stake(Loss("rm-loses-work", "/r/data", ask, "data"), facts) == (
        "data", "data/app.sqlite3")  # fmt: skip
    assert ignored_stake(Loss("git-loses-work", "/r/data", ask, "data"), facts) is None
    assert ignored_stake(Loss("rm-loses-work", "/r/data", ask, "data"), None) is None
    other = GitQuery("status", "/elsewhere", frozenset({"data"}))
    assert ignored_stake(Loss("rm-loses-work", "/r/data", other, "data"), facts) is None


def test_a_folder_git_reports_above_the_path_is_judged_by_the_path() -> None:
    ask = GitQuery("status", "/r", frozenset({"node_modules/x/app.db"}))
    facts = RepoFacts(ask, entries=(Entry("!", "node_modules/"),))
    loss = Loss("rm-loses-work", "/r/node_modules/x/app.db", ask, "node_modules/x/app.db")
    assert ignored_stake(loss, facts) == ("data", "node_modules/x/app.db")
