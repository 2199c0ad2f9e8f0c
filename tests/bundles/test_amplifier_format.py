"""Bundle files written for Amplifier load: include mappings, git sources fetched into a
cache keyed by commit (reused with no network), the amplifier.modules entry-point group,
and sections for other kinds of module reported as ignored."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from amplifier_hooks.amplifier.alias import uninstall_amplifier_core_alias
from amplifier_hooks.bundles import BundleError, git_sources, load_bundle
from amplifier_hooks.bundles.git_sources import GitSourceError, parse_git_source
from amplifier_hooks.bundles.loading import build_coordinator
from amplifier_hooks.bundles.reading import display_path
from amplifier_hooks.cli.check import check

GUARD = '''"""A guard published in a git repository, written against amplifier_core."""

from amplifier_core import HookResult
from amplifier_core.events import TOOL_PRE


async def mount(coordinator, config=None):
    blocked = tuple((config or {}).get("blocked", ["rm -rf /"]))

    async def guard(event, data):
        command = str(data.get("tool_input", {}).get("command", ""))
        if any(word in command for word in blocked):
            return HookResult(action="deny", reason=f"amp-git-guard blocks {command!r}")
        return HookResult()

    coordinator.get("hooks").register(TOOL_PRE, guard, name="amp-git-guard")
'''

BEHAVIOUR = """\
bundle: {name: guard-behaviour}
hooks:
  - module: amp-git-guard
    source: ../modules/amp-git-guard
    config: {blocked: ["rm -rf /"]}
"""

AGENT = """\
---
bundle:
  name: amplifier-style
  version: 1.0.0
  description: A bundle written for Amplifier
includes:
  - bundle: ./base.yaml
  - bundle: git+file://REPO@v1.0#subdirectory=behaviors/guard.yaml
session:
  orchestrator:
    module: loop-streaming
    source: git+https://github.com/microsoft/amplifier-module-loop-streaming@main
  context:
    module: context-simple
  injection_budget_per_turn: 5000
tools:
  - module: tool-filesystem
    source: git+https://github.com/microsoft/amplifier-module-tool-filesystem@main
  - module: tool-bash
providers:
  - module: provider-anthropic
    config: {default_model: some-model}
agents:
  include: [foundation:explorer]
hooks:
  - module: amp-git-guard
    source: git+file://REPO@v1.0#subdirectory=modules/amp-git-guard
    config: {blocked: ["rm -rf /", "shutdown"]}
---
# An agent

The Markdown body is documentation for people.
"""


def git(*args: str, cwd: Path) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.setenv("AMPLIFIER_HOOKS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("AMPLIFIER_HOOKS_OFFLINE", raising=False)

    def purge() -> None:
        uninstall_amplifier_core_alias()
        for name in [n for n in sys.modules if n.startswith("amplifier_module_amp_")]:
            del sys.modules[name]

    purge()
    yield
    purge()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A module repository with an annotated tag v1.0 on main."""
    root = tmp_path / "amp-repo"
    package = root / "modules" / "amp-git-guard" / "amplifier_module_amp_git_guard"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(GUARD, encoding="utf-8")
    (root / "behaviors").mkdir()
    (root / "behaviors" / "guard.yaml").write_text(BEHAVIOUR, encoding="utf-8")
    git("init", "--quiet", "--initial-branch=main", cwd=root)
    git("add", ".", cwd=root)
    git("commit", "--quiet", "-m", "v1", cwd=root)
    git("tag", "-a", "v1.0", "-m", "release 1.0", cwd=root)
    return root


def agent_bundle(tmp_path: Path, repo: Path, ref: str = "v1.0") -> Path:
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    (project / "base.yaml").write_text(
        "bundle: {name: base}\nsession: {injection_size_limit: 4096}\n", encoding="utf-8"
    )
    path = project / "agent.md"
    path.write_text(AGENT.replace("REPO", str(repo)).replace("@v1.0", f"@{ref}"), encoding="utf-8")
    return path


def unreachable(repo: Path) -> None:
    """Make the remote unreachable, as a network outage would."""
    repo.rename(repo.with_name("gone"))


def cache_trees(tmp_path: Path) -> dict[Path, int]:
    """Every fetched commit tree in the cache, with its inode (a new clone changes it)."""
    trees = [p for p in (tmp_path / "cache").glob("*/*") if p.is_dir()]
    return {p: p.stat().st_ino for p in trees}


async def test_an_amplifier_bundle_loads_mounts_and_is_checked(tmp_path: Path, repo: Path) -> None:
    path = agent_bundle(tmp_path, repo)
    bundle = load_bundle(path)
    [guard] = bundle.hooks
    assert guard.module == "amp-git-guard"
    assert guard.config == {"blocked": ["rm -rf /", "shutdown"]}
    commit = git("rev-parse", "v1.0^{commit}", cwd=repo)
    assert guard.source is not None and f"/{commit}/modules/amp-git-guard" in guard.source
    assert bundle.session.injection_budget_per_turn == 5000
    assert bundle.session.injection_size_limit == 4096
    shown = display_path(path)
    assert bundle.ignored == [
        f"{shown}:16: tools: not hook modules: ignored (tool-filesystem, tool-bash)",
        f"{shown}:20: providers: not hook modules: ignored (provider-anthropic)",
        f"{shown}:23: agents: not hook modules: ignored (include)",
        f"{shown}:10: session.orchestrator: not hook modules: ignored (loop-streaming)",
        f"{shown}:13: session.context: not hook modules: ignored (context-simple)",
    ]

    coord = await build_coordinator(path)
    assert not (await coord.dispatch("tool:pre", {"tool_input": {"command": "shutdown"}})).allowed
    assert (await coord.dispatch("tool:pre", {"tool_input": {"command": "ls"}})).allowed
    assert [t["module"] for t in coord.config["tools"]] == ["tool-filesystem", "tool-bash"]
    assert coord.config["session"]["orchestrator"]["module"] == "loop-streaming"
    await coord.cleanup()

    as_json = io.StringIO()
    assert await check(path, as_json, as_json=True) == 0
    assert json.loads(as_json.getvalue())["ignored"] == bundle.ignored
    out = io.StringIO()
    assert await check(path, out) == 0
    text = " ".join(out.getvalue().split())  # the console wraps long lines
    assert "bundle amplifier-style is valid: 1 module, 1 handler" in text
    assert "tools: not hook modules: ignored (tool-filesystem, tool-bash)" in text
    assert "session.orchestrator: not hook modules: ignored (loop-streaming)" in text


async def test_a_second_load_needs_no_network_and_no_new_clone(
    tmp_path: Path, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = agent_bundle(tmp_path, repo)
    coord = await build_coordinator(path)
    await coord.cleanup()
    fetched = cache_trees(tmp_path)
    assert len(fetched) == 1  # the include and the module share one commit tree

    unreachable(repo)

    def no_git(*args: str) -> str:
        raise AssertionError(f"git was run: {args}")

    monkeypatch.setattr(git_sources, "_git", no_git)
    coord = await build_coordinator(path)
    assert not (await coord.dispatch("tool:pre", {"tool_input": {"command": "rm -rf /"}})).allowed
    await coord.cleanup()
    assert cache_trees(tmp_path) == fetched


def test_a_branch_is_re_resolved_and_falls_back_offline(tmp_path: Path, repo: Path) -> None:
    path = agent_bundle(tmp_path, repo, ref="main")
    load_bundle(path)
    first = cache_trees(tmp_path)
    (repo / "behaviors" / "guard.yaml").write_text(
        BEHAVIOUR.replace('["rm -rf /"]', '["rm -rf /", "reboot"]'), encoding="utf-8"
    )
    git("commit", "--quiet", "-am", "v2", cwd=repo)
    load_bundle(path)
    assert len(cache_trees(tmp_path)) == 2  # the new commit of main was fetched
    latest = git("rev-parse", "main", cwd=repo)
    unreachable(repo)
    offline = load_bundle(path)
    assert offline.hooks[0].source is not None and f"/{latest}/" in offline.hooks[0].source
    assert set(first) < set(cache_trees(tmp_path))


def test_offline_without_a_cached_commit_is_a_clear_error(
    tmp_path: Path, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AMPLIFIER_HOOKS_OFFLINE", "1")
    path = agent_bundle(tmp_path, repo)
    with pytest.raises(BundleError) as info:
        load_bundle(path)
    assert str(info.value) == (
        f"{display_path(path)}:8: includes[1].bundle: offline, and file://{repo}@v1.0 "
        "was never fetched"
    )


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("git+ext::sh -c touch% /tmp/x", "unsupported git transport"),
        ("git+file:///repo@v1#subdirectory=../../etc", "must be a relative path"),
        ("git+file:///repo@-bad", "invalid git ref"),
        ("git+file:///repo@v1#egg=x", "unknown fragment 'egg'"),
        ("git+https://", "no repository path"),
    ],
)
def test_bad_git_uris_are_refused(uri: str, message: str) -> None:
    with pytest.raises(GitSourceError, match=message):
        parse_git_source(uri)


def test_a_git_uri_is_parsed() -> None:
    source = parse_git_source("git+https://github.com/org/repo@v1.2#subdirectory=modules/hooks-x")
    assert (source.url, source.ref, source.subdirectory) == (
        "https://github.com/org/repo",
        "v1.2",
        "modules/hooks-x",
    )
    ssh = parse_git_source("git+ssh://git@host/org/repo.git")
    assert (ssh.url, ssh.ref) == ("ssh://git@host/org/repo.git", None)


def test_an_unknown_tag_names_the_place_in_the_bundle(tmp_path: Path, repo: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_text(
        f"hooks:\n  - module: amp-git-guard\n    source: git+file://{repo}@v9#subdirectory=x\n",
        encoding="utf-8",
    )
    with pytest.raises(BundleError) as info:
        load_bundle(path)
    assert str(info.value) == (
        f"{display_path(path)}:3: hooks[0].source: file://{repo} has no branch or tag 'v9'"
    )


def test_a_registry_name_include_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_text("includes:\n  - bundle: foundation:behaviors/logging\n", encoding="utf-8")
    with pytest.raises(BundleError, match="names a bundle in Amplifier's registry"):
        load_bundle(path)


def test_an_include_directory_reads_its_bundle_file(tmp_path: Path) -> None:
    (tmp_path / "behaviour").mkdir()
    (tmp_path / "behaviour" / "bundle.md").write_text(
        "---\nsession: {injection_budget_per_turn: 7}\n---\n", encoding="utf-8"
    )
    path = tmp_path / "b.yaml"
    path.write_text("includes:\n  - bundle: ./behaviour\n", encoding="utf-8")
    assert load_bundle(path).session.injection_budget_per_turn == 7


async def test_the_amplifier_entry_point_group_is_honoured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    package = site / "amp_ep_module"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from amplifier_core import HookResult\n"
        "async def mount(coordinator, config=None):\n"
        "    coordinator.get('hooks').register('tool:pre', lambda e, d: HookResult("
        "action='deny', reason='ep'), name='ep')\n",
        encoding="utf-8",
    )
    info = site / "amp_ep_module-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: amp-ep-module\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[amplifier.modules]\nhooks-ep-test = amp_ep_module\n")
    monkeypatch.syspath_prepend(str(site))
    path = tmp_path / "b.yaml"
    path.write_text("strict: true\nhooks: [hooks-ep-test]\n", encoding="utf-8")
    coord = await build_coordinator(path)
    outcome = await coord.dispatch("tool:pre", {})
    assert (outcome.allowed, outcome.reason) == (False, "ep")
    await coord.cleanup()
    sys.modules.pop("amp_ep_module", None)


def test_the_cache_lives_under_the_users_cache_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("AMPLIFIER_HOOKS_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert git_sources.cache_root() == tmp_path / "xdg" / "amplifier-hooks" / "git"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert git_sources.cache_root() == Path(os.path.expanduser("~/.cache/amplifier-hooks/git"))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60).map(lambda t: "git+" + t))
@example("git+https://[x/repo@v1")
@example("git+https://host:99999/repo")
def test_any_git_uri_parses_or_is_refused_with_a_reason(uri: str) -> None:
    try:
        source = parse_git_source(uri)
    except GitSourceError as exc:
        assert str(exc)
        return
    assert not source.url.startswith("-")
    assert source.subdirectory is None or not source.subdirectory.startswith(("/", ".."))
    assert source.ref is None or not source.ref.startswith("-")


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ('includes:\n  - "a\\0b"\n', "includes[0]"),
        ('includes:\n  - bundle: "file:///a\\0b"\n', "includes[0].bundle"),
        ('hooks:\n  - {module: x, source: "file:///a\\0b"}\n', "hooks[0].source"),
        ("includes:\n  - bundle: file://[x/b.yaml\n", "includes[0].bundle"),
    ],
)
def test_unusable_paths_and_uris_are_bundle_errors(tmp_path: Path, body: str, where: str) -> None:
    path = tmp_path / "b.yaml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(BundleError, match=rf"^{display_path(path)}:2: {re.escape(where)}: "):
        load_bundle(path)
