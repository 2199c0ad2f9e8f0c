"""Nothing a person cannot get back, judged on real repositories the tests make: what git
ignores or can give back is granted, what would lose work is asked, and where the guard
cannot tell (no repository, no answer in time) there is no grant."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.guard import Places, Policy, Verdict, judge
from amplifier_hooks.guard.losses import asks_of as asks_of_pieces
from amplifier_hooks.guard.policy import pieces_for
from amplifier_hooks.guard.repo import Entry, GitQuery, ask_git
from tests.guard.conftest import committed, git, project_places, write

SLOW_MACHINE = 60.0
"""git's deadline in these tests: they are about the facts, not about git's speed."""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository on ``main`` with: ``src/clean.py`` (tracked, unchanged),
    ``src/changed.py`` (tracked, changed), ``notes.txt`` (untracked), ``build/`` and
    ``*.log`` (ignored), an ignored ``.env``; a stash; a branch ``feature`` one commit past
    its tag ``v1``, a tag ``v2`` on a commit no branch has, a branch ``done`` and a tag
    ``v0`` merged into main; a linked worktree ``../wt`` with a change."""
    top = tmp_path_factory.mktemp("losses") / "project"
    write(top / ".gitignore", "build/\n*.log\n.env\n")
    write(top / "src" / "clean.py", "clean = 1\n")
    write(top / "src" / "changed.py", "changed = 1\n")
    committed(top)
    git(top, "tag", "v0")
    git(top, "branch", "done")
    git(top, "switch", "-qc", "feature")
    write(top / "src" / "feature.py", "feature = 1\n")
    git(top, "add", ".")
    git(top, "commit", "-qm", "feature")
    git(top, "tag", "v1")
    write(top / "src" / "feature.py", "feature = 2\n")
    git(top, "commit", "-qam", "more")
    git(top, "switch", "-q", "--detach", "main")
    write(top / "src" / "lone.py", "lone = 1\n")
    git(top, "add", ".")
    git(top, "commit", "-qm", "lone")
    git(top, "tag", "v2")
    git(top, "switch", "-q", "main")
    write(top / "src" / "clean.py", "stashed = 1\n")
    git(top, "stash", "-q")
    git(top, "worktree", "add", "-q", str(top.parent / "wt"), "done")
    write(top.parent / "wt" / "src" / "clean.py", "in the worktree\n")
    write(top / "src" / "changed.py", "changed = 2\n")
    write(top / "notes.txt", "my notes\n")
    write(top / "build" / "out.o", "object\n")
    write(top / "run.log", "log\n")
    write(top / ".env", "TOKEN=1\n")
    return top


@pytest.fixture
def places(project: Path) -> Places:
    return project_places(project)


def asks_of(data: dict[str, Any], places: Places) -> list[GitQuery]:
    command, pieces, _ = pieces_for(data, places)
    return asks_of_pieces(pieces, places, command)


def bash(command: str) -> dict[str, Any]:
    return {"tool_name": "bash", "tool_input": {"command": command}}


def decide(command: str, pack: Policy, places: Places) -> Verdict:
    """As ah-guard does: ask git first (one run), then judge."""
    data = bash(command)
    facts = ask_git(asks_of(data, places), SLOW_MACHINE)
    return judge(data, pack, places, facts)


def test_git_says_what_each_path_is(project: Path) -> None:
    specs = frozenset({"src", "notes.txt", "build", "run.log", "missing"})
    facts = ask_git([GitQuery("status", str(project), specs)], SLOW_MACHINE)
    assert facts is not None
    assert set(facts.entries) >= {
        Entry("1", "src/changed.py"), Entry("?", "notes.txt"), Entry("!", "build/"),
        Entry("!", "run.log"),
    }  # fmt: skip
    assert not any(e.path.startswith(("src/clean", "missing")) for e in facts.entries)


def test_commits_only_a_ref_reaches_are_told_apart(project: Path) -> None:
    def lost(*refs: str) -> bool | None:
        facts = ask_git([GitQuery("refs", str(project), frozenset(refs))], SLOW_MACHINE)
        return None if facts is None else facts.lost

    assert lost("refs/heads/feature") is True
    # a tag that is there is lost even when a branch keeps its commit (no reflog; an
    # annotated tag's object goes): tests/guard/test_fetch_tags.py
    assert lost("refs/tags/v1") is True
    assert lost("refs/tags/v2") is True
    assert lost("refs/tags/no-such-tag") is False
    assert lost("refs/heads/done") is False
    assert lost("refs/heads/no-such-branch") is None


GRANTED = [
    "rm -rf build", "rm run.log", "rm -f src/clean.py", "rm -rf build run.log",
    "git restore --staged src/changed.py", "git restore --sta src/changed.py",
    "echo x >> src/changed.py", "echo x > new.txt", "> src/clean.py", "rm no-such-file",
    "find build -name '*.o' -delete",
    "git branch -f done main",  # done's commit is on main too
    "git checkout -B done main",
    # `git mv --force` onto nothing, or onto a file git can give back
    "git mv -f src/clean.py src/renamed.py", "git mv --force notes.txt src/clean.py",
    "git mv -f src/clean.py build/", "git mv -n -f src/clean.py notes.txt",
    # packed, then deleted: what git ignores
    "tar -czf /tmp/build.tgz --remove-files build", "zip -qm logs.zip run.log",
]  # fmt: skip


@pytest.mark.parametrize("command", GRANTED)
def test_what_git_ignores_or_can_give_back_is_granted(
    command: str, pack: Policy, places: Places
) -> None:
    verdict = decide(command, pack, places)
    assert verdict.decision == "allow", verdict.pieces


@pytest.mark.parametrize(
    "command",
    ["git checkout feature", "git tag -d no-such-tag", "git restore src/clean.py"],
)
def test_what_loses_nothing_is_not_asked(command: str, pack: Policy, places: Places) -> None:
    # Not granted either: the program table does not grant these (a checkout's operand may
    # be a branch or a path; a restore is a discard; tags are not in its reach); the host
    # decides.
    assert decide(command, pack, places).decision is None


ASKED = [
    ("rm src/changed.py", "rm-loses-work"), ("rm notes.txt", "rm-loses-work"),
    ("rm -rf src", "rm-loses-work"), ("rm -f *.txt", "rm-loses-work"),
    ("rm -rf build notes.txt", "rm-loses-work"), ("cd src && rm changed.py", "rm-loses-work"),
    ("git restore src/changed.py", "git-loses-work"),
    ("git restore --source HEAD src/changed.py", "git-loses-work"),
    ("git restore --sou=HEAD --work src/changed.py", "git-loses-work"),
    ("git restore --staged --worktree src/changed.py", "git-loses-work"),
    ("git restore -SW src/changed.py", "git-loses-work"),
    ("git checkout HEAD src/changed.py", "git-loses-work"),
    ("git checkout main src/changed.py src/clean.py", "git-loses-work"),
    ("git rm -f src/changed.py", "git-loses-work"),
    ("git rm --forc src/changed.py", "git-loses-work"),
    ("git branch -d -f feature", "git-branch-force-delete"),
    ("git branch --delete --force done", "git-branch-force-delete"),
    ("git branch -df feature", "git-branch-force-delete"), ("git tag -d v2 v0", "git-loses-work"),
    ("git tag -d v0", "git-loses-work"), ("git tag -d v1 v0", "git-loses-work"),
    ("git worktree remove --force ../wt", "git-loses-work"),
    ("git worktree remove --forc ../wt", "git-loses-work"),
    ("> src/changed.py", "truncate-loses-work"), ("echo x > notes.txt", "truncate-loses-work"),
    ("cat <<'EOF' > notes.txt\nnew\nEOF", "truncate-loses-work"),
    ("rm .env", "env-file-read"), ("> .env", "secret-overwrite"),
    ("cat <<'EOF' > .env\nTOKEN=2\nEOF", "secret-overwrite"),
    ("git stash drop", "git-stash-clear"), ("git stash clear", "git-stash-clear"),
    ("git branch -D feature", "git-branch-force-delete"), ("RM -rf src", "rm-loses-work"),
    ("Find src -name '*.py' -delete", "rm-loses-work"),
    ("FIND . -name changed.py -exec rm {} +", "rm-loses-work"),
    ("Cp notes.txt src/changed.py", "overwrite-loses-work"),
    # resetting or renaming onto a branch drops the commits only it reached
    ("git branch -f feature main", "git-loses-work"),
    ("git branch --forc feature v1", "git-loses-work"),
    ("git branch -M done feature", "git-loses-work"),
    ("git branch -m --force done feature", "git-loses-work"),
    ("git checkout -B feature main", "git-loses-work"),
    ("git checkout -qB feature main", "git-loses-work"),
    ("git switch -C feature main", "git-loses-work"),
    ("git switch --force-create=feature main", "git-loses-work"),
    # `git mv --force` replaces its destination: an untracked file, uncommitted changes
    ("git mv -f src/clean.py notes.txt", "git-loses-work"),
    ("git mv --force src/clean.py src/changed.py", "git-loses-work"),
    ("git mv -k -f src/clean.py notes.txt", "git-loses-work"),
    ("git mv --force src/clean.py ./notes.txt", "git-loses-work"),
    ("f=notes.txt; git mv -f src/clean.py \"$f\"", "git-loses-work"),
    ("for f in src/clean.py; do git mv -f \"$f\" notes.txt; done", "git-loses-work"),
    # the ignored folder removed, then made a link to the sources: build/ is src/
    ("rm -rf build && ln -s src build && rm -rf build/", "rm-loses-work"),
    ("rm -rf build; ln -s src build; python3 -c 'import shutil; shutil.rmtree(\"build/\")'",
     "rm-loses-work"),
    # packed, then deleted: the archive may be lost or left out of every backup
    ("tar -czf /tmp/src.tgz --remove-files src", "rm-loses-work"),
    ("tar cf /tmp/n.tar --remove-files -C . notes.txt", "rm-loses-work"),
    ("zip -m notes.zip notes.txt", "rm-loses-work"), ("zip -rm /tmp/s.zip src", "rm-loses-work"),
    ("7z a -sdel /tmp/n.7z notes.txt", "rm-loses-work"),
]  # fmt: skip


@pytest.mark.parametrize(("command", "rule"), ASKED)
def test_what_would_lose_work_is_asked(
    command: str, rule: str, pack: Policy, places: Places
) -> None:
    verdict = decide(command, pack, places)
    assert (verdict.decision, verdict.rule) == ("ask", rule), verdict.pieces


def test_a_merge_abort_is_asked_only_when_tracked_files_changed(
    tmp_path: Path, pack: Policy
) -> None:
    top = tmp_path / "merging"
    write(top / "a.txt", "a\n")
    git(tmp_path, "init", "-q", str(top))
    git(top, "add", ".")
    git(top, "commit", "-qm", "a")
    places = Places.of(top, home=tmp_path / "home")
    write(top / "untracked.txt", "kept by an abort\n")
    assert decide("git merge --abort", pack, places).decision == "allow"
    write(top / "a.txt", "resolved by hand\n")
    verdict = decide("git merge --abo", pack, places)
    assert (verdict.decision, verdict.rule) == ("ask", "git-loses-work")


@pytest.mark.parametrize("command", ["rm -rf build", "git restore src/clean.py", "> src/clean.py"])
def test_no_answer_from_git_is_no_grant(command: str, pack: Policy, places: Places) -> None:
    data = bash(command)
    assert ask_git(asks_of(data, places), 1e-9) is None  # too late, whatever the machine
    assert judge(data, pack, places, None).decision is None


def test_no_repository_is_no_grant(tmp_path: Path, pack: Policy) -> None:
    write(tmp_path / "plain" / "build" / "out.o", "x")
    places = Places.of(tmp_path / "plain", home=tmp_path / "home")
    assert asks_of(bash("rm -rf build"), places) == []  # nothing to ask
    assert decide("rm -rf build", pack, places).decision is None
    assert decide("echo x > new.txt", pack, places).decision == "allow"  # nothing to lose


def test_a_branch_reset_with_no_repository_is_no_grant(tmp_path: Path, pack: Policy) -> None:
    places = Places.of(tmp_path / "plain", home=tmp_path / "home")
    assert decide("git branch -f feature", pack, places).decision is None
    assert decide("git branch feature", pack, places).decision == "allow"  # creates only
    for command in ("git checkout -B main origin/main", "git switch -C main origin/main"):
        assert decide(command, pack, places).decision is None, command


def test_a_forced_worktree_remove_is_asked_without_facts(tmp_path: Path, pack: Policy) -> None:
    # git needs --force only when the worktree holds changes or untracked files
    places = Places.of(tmp_path / "plain", home=tmp_path / "home")
    for command in ("git worktree remove --force ../other", "git worktree remove -f $WT"):
        verdict = judge(bash(command), pack, places, None)
        assert (verdict.decision, verdict.rule) == ("ask", "git-loses-work"), command
    assert decide("git worktree remove ../other", pack, places).decision is None


def test_one_git_run_answers_every_path_of_a_call(project: Path, places: Places) -> None:
    asks = asks_of(bash("rm run.log; rm -r build && git restore src/clean.py"), places)
    assert len(asks) == 3
    facts = ask_git(asks, SLOW_MACHINE)
    assert facts is not None
    assert facts.asked.specs == frozenset({"run.log", "build", "src/clean.py"})
    assert all(facts.answers(a) for a in asks)


def test_calls_that_lose_nothing_ask_git_nothing(places: Places) -> None:
    for command in ("git status && pytest -q", "ls -la", "cat src/clean.py", "git log -5",
                    "echo x >> notes.txt", "git switch feature"):  # fmt: skip
        assert asks_of(bash(command), places) == [], command


SECRETS_DENIED = ["id_rsa.bak", "server.key", "vault.kdbx", "CERT.P12", "deploy.keypair",
                  ".git/hooks/deploy_key_rsa", "office.ovpn", "release.JKS", "Id_Ed25519-old",
                  "keys/signing.pem.orig", "store.keystore.backup"]  # fmt: skip
SECRETS_ASKED = [".ENV", ".env.local", ".env.bak", ".Env.Production", ".envrc", "deploy/prod.env",
                 "Secrets.ENV.bak"]  # fmt: skip
NOT_SECRETS = [".env.example", ".env.sample", ".env.template", "example.env", "prod.sample.env",
               "id_rsa.pub", "src/environment.py", "venv.envelope",
               "src/id_utils.py", "README.md", "keyboard.txt"]  # fmt: skip


@pytest.mark.parametrize("name", SECRETS_DENIED)
@pytest.mark.parametrize("tool", ["bash", "read_file"])
def test_keys_and_keystores_are_secret_by_name_in_any_case(
    name: str, tool: str, pack: Policy, places: Places
) -> None:
    data = bash(f"cat {name}") if tool == "bash" else {
        "tool_name": tool, "tool_input": {"file_path": name}}  # fmt: skip
    verdict = judge(data, pack, places)
    assert verdict.decision == "deny", verdict.pieces


@pytest.mark.parametrize("name", SECRETS_ASKED)
def test_env_files_shown_are_denied_in_any_case(name: str, pack: Policy, places: Places) -> None:
    verdict = judge(bash(f"cat {name}"), pack, places)
    assert (verdict.decision, verdict.rule) == ("deny", "env-file-print")


@pytest.mark.parametrize("name", SECRETS_ASKED)
@pytest.mark.parametrize(
    # (a count of lines by a value's start is an oracle on it; by a name alone it is not:
    # tests/guard/test_valueless.py)
    "template",
    ["source {}", "docker compose --env-file {} up", "grep -c TOKEN=ab {}", "git add {}"],
)
def test_env_files_read_but_not_shown_are_asked(
    name: str, template: str, pack: Policy, places: Places
) -> None:
    verdict = judge(bash(template.format(name)), pack, places)
    assert (verdict.decision, verdict.rule) == ("ask", "env-file-read"), verdict.pieces


@pytest.mark.parametrize("name", NOT_SECRETS)
def test_names_that_are_not_secrets_are_read(name: str, pack: Policy, places: Places) -> None:
    assert judge(bash(f"cat {name}"), pack, places).decision == "allow"


@pytest.mark.parametrize(
    ("command", "rule"),
    [("cat .en?", "env-file-print"), ("head .env*", "env-file-print"),
     ("cat *.env", "env-file-print"),
     ("cat id_*", "secret-file-read"), ("less keys/*.p12", "secret-file-read")],
)  # fmt: skip
def test_a_pattern_aimed_at_a_secret_is_read_as_one(
    command: str, rule: str, pack: Policy, places: Places
) -> None:
    assert judge(bash(command), pack, places).rule == rule


@pytest.mark.parametrize("command", ["cat *", "cat *.py", "ls .*", "grep -rn TODO src/*"])
def test_a_pattern_that_names_ordinary_files_is_read(
    command: str, pack: Policy, places: Places
) -> None:
    assert judge(bash(command), pack, places).decision == "allow"


def test_a_search_pattern_is_not_a_secret(pack: Policy, places: Places) -> None:
    assert judge(bash("grep -rn server.key src"), pack, places).decision == "allow"
    assert judge(bash("grep -rn x server.key"), pack, places).decision == "deny"


@pytest.mark.parametrize(
    ("command", "decision"),
    [("FIND . -delete", "deny"), ("Rm -rf ~", "deny"), ("SUDO rm -rf /", "deny"),
     ("GIT push --force origin main", "deny"), ("FIND . -name x", None), ("LS", None)],
)  # fmt: skip
def test_a_program_name_in_another_case_meets_the_deny_and_ask_rules(
    command: str, decision: str | None, pack: Policy, places: Places
) -> None:
    assert judge(bash(command), pack, places).decision == decision


@pytest.mark.parametrize(
    "command",
    ["rm \u2014rf /tmp/x", "git push \u2010\u2010force origin feature",
     "ls \u201c-la\u201d", "rm \uff0drf /tmp/x"],
)  # fmt: skip
def test_a_look_alike_dash_or_quote_is_asked(command: str, pack: Policy, places: Places) -> None:
    verdict = judge(bash(command), pack, places)
    assert (verdict.decision, verdict.rule) == ("ask", "guard-lookalike"), verdict.pieces


@pytest.mark.parametrize(
    "command",
    ["git restore --bogus src/clean.py", "rm --bogus build", "git restore --s src/clean.py"],
)
def test_an_option_the_table_does_not_know_is_no_grant(
    command: str, pack: Policy, places: Places
) -> None:
    assert decide(command, pack, places).decision is None


def test_the_layer_follows_the_bundles_disable(pack: Policy, places: Places) -> None:
    relaxed = pack.extend((), disable=("secret-file-read", "guard-lookalike"))
    assert judge(bash("cat vault.kdbx"), relaxed, places).decision == "allow"
    # not asked any more, and not granted either: the option reader doubts the word
    lookalike = judge(bash("rm \u2014rf /tmp/x"), relaxed, places)
    assert lookalike.decision is None and "only looks like a dash" in (lookalike.reason or "")
    assert "secret-file-read" in pack.ids() and "secret-file-read" not in relaxed.ids()
