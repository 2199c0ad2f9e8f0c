"""``amplifier-hooks openclaw install|uninstall`` on the person's ``openclaw.json``: the
file comes back byte for byte, comments and all; installing twice is installing once;
what the person changed in between stays; nothing empty is left behind."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from amplifier_hooks.hosts.claude_code.install import SettingsError
from amplifier_hooks.hosts.openclaw.doctor import plugin_state
from amplifier_hooks.hosts.openclaw.install import (
    PLUGIN_ID,
    OpenClawPlaces,
    OpenClawPlan,
    hook_budget_ms,
    install_openclaw,
    uninstall_openclaw,
)
from amplifier_hooks.hosts.openclaw.json5 import Json5Error, parse
from amplifier_hooks.hosts.openclaw.node import node_problem
from tests.claude_code.guards import cli
from tests.unavailable import ROOT

DEFAULT = ROOT / "bundles" / "default.md"

CONFIGS = {
    "comments and JSON5": """// my OpenClaw
{
  agents: {defaults: {workspace: '~/work'}}, /* where it works */
  "models": {"providers": {}},
  plugins: {
    allow: ['memory-core',],
    entries: {
      'memory-core': {enabled: true}, // keep this one
    },
  },
}
""",
    "CRLF and tabs": '{\r\n\t"gateway": {\r\n\t\t"port": 18789\r\n\t}\r\n}\r\n',
    "one line": '{"plugins": {"load": {"paths": []}, "entries": {}}}',
    "empty plugins": '{\n    "plugins": {\n    }\n}\n',
    "a path of the person's": '{"plugins": {"load": {"paths": ["/opt/theirs"]}}}\n',
}


def places_in(home: Path) -> OpenClawPlaces:
    return OpenClawPlaces.find({"HOME": str(home)})


EVENTS = ("agent_end", "before_prompt_build", "before_tool_call", "session_end")
"""What install registers for the default bundle (less what needs nothing more)."""


def plan(
    bundle: Path = DEFAULT, url: str | None = None, events: tuple[str, ...] = EVENTS
) -> OpenClawPlan:
    return OpenClawPlan(bundle, events, 330_000, url)


def value(path: Path) -> dict[str, object]:
    loaded: dict[str, object] = parse(path.read_text()).value
    return loaded


@pytest.mark.parametrize("text", CONFIGS.values(), ids=CONFIGS.keys())
def test_uninstall_gives_back_the_file_install_found_byte_for_byte(
    tmp_path: Path, text: str
) -> None:
    places = places_in(tmp_path)
    places.config.parent.mkdir(parents=True)
    places.config.write_bytes(text.encode())

    report = install_openclaw(places, plan())

    assert report.changed and report.problems == ()
    wired = value(places.config)["plugins"]
    assert isinstance(wired, dict)
    assert str(places.plugin) in wired["load"]["paths"]
    entry = wired["entries"][PLUGIN_ID]
    assert entry["enabled"] is True
    assert entry["hooks"] == {
        "timeouts": {"before_tool_call": 330_000},
        "allowConversationAccess": True,  # else OpenClaw drops our prompt hooks
    }
    assert entry["config"]["bundle"] == str(DEFAULT)
    assert (places.plugin / "index.js").is_file()
    if "allow" in wired:
        assert PLUGIN_ID in wired["allow"]

    assert uninstall_openclaw(places).changed
    assert places.config.read_bytes() == text.encode()
    assert not places.ours.exists()


def test_installing_twice_is_installing_once(tmp_path: Path) -> None:
    places = places_in(tmp_path)
    places.config.parent.mkdir(parents=True)
    places.config.write_text(CONFIGS["comments and JSON5"])
    install_openclaw(places, plan())
    once = places.config.read_bytes()

    again = install_openclaw(places, plan())

    assert not again.changed and places.config.read_bytes() == once
    other = tmp_path / "other.md"
    other.write_text(DEFAULT.read_text().replace("../modules", str(ROOT / "modules")))
    install_openclaw(places, plan(other))
    entries = value(places.config)["plugins"]["entries"]  # type: ignore[index]
    assert entries[PLUGIN_ID]["config"]["bundle"] == str(other)
    uninstall_openclaw(places)
    assert places.config.read_text() == CONFIGS["comments and JSON5"]


def test_conversation_access_is_asked_for_only_when_a_hook_needs_it(tmp_path: Path) -> None:
    """A bundle that only guards tools gets no conversation access; installing one that
    injects context then asks for it, and uninstall still gives the file back."""
    places = places_in(tmp_path)
    places.config.parent.mkdir(parents=True)
    places.config.write_text(CONFIGS["comments and JSON5"])
    install_openclaw(places, plan(events=("before_tool_call", "session_end")))
    entry = value(places.config)["plugins"]["entries"][PLUGIN_ID]  # type: ignore[index]
    assert entry["hooks"] == {"timeouts": {"before_tool_call": 330_000}}

    assert install_openclaw(places, plan(events=("agent_end", "before_tool_call"))).changed
    entry = value(places.config)["plugins"]["entries"][PLUGIN_ID]  # type: ignore[index]
    assert entry["hooks"]["allowConversationAccess"] is True

    uninstall_openclaw(places)
    assert places.config.read_text() == CONFIGS["comments and JSON5"]


def test_doctor_says_when_openclaw_will_drop_our_prompt_hooks(tmp_path: Path) -> None:
    """Installed, nothing is said; with the flag gone (a person's edit, an older install)
    doctor says which hooks OpenClaw drops, and the guard is still counted as running."""
    places = places_in(tmp_path)
    install_openclaw(places, plan())
    environ = {"HOME": str(tmp_path), "PATH": os.defpath}
    state = plugin_state(environ)
    assert state is not None
    assert not any("allowConversationAccess" in n for n in state.notes + state.problems)

    text = places.config.read_text()
    edited = text.replace('"allowConversationAccess": true', '"allowConversationAccess": false')
    assert edited != text
    places.config.write_text(edited)
    state = plugin_state(environ)
    assert state is not None
    assert not any("allowConversationAccess" in p for p in state.problems)
    assert state.notes[0] == (
        f"plugins.entries.{PLUGIN_ID}.hooks.allowConversationAccess is not true: OpenClaw "
        "drops our agent_end, before_prompt_build hooks, so no context reaches the prompt "
        "(install again)"
    )


def test_a_file_install_made_goes_with_uninstall_and_nothing_empty_is_left(
    tmp_path: Path,
) -> None:
    places = places_in(tmp_path)
    install_openclaw(places, plan())
    assert json.loads(places.config.read_text())["plugins"]["entries"][PLUGIN_ID]
    assert oct(places.config.stat().st_mode & 0o777) == oct(0o600)  # it holds API keys

    uninstall_openclaw(places)

    assert not places.config.exists() and not places.state.exists()


def test_what_the_person_changed_in_between_stays(tmp_path: Path) -> None:
    """A change after install: our parts are found and taken out, the person's stay, and
    the containers install made go where they are empty."""
    places = places_in(tmp_path)
    places.config.parent.mkdir(parents=True)
    places.config.write_text('{\n  // mine\n  "gateway": {"port": 1}\n}\n')
    install_openclaw(places, plan())
    text = places.config.read_text().replace('"port": 1', '"port": 2, "bind": "loopback"')
    places.config.write_text(text)

    uninstall_openclaw(places)

    after = places.config.read_text()
    assert "// mine" in after and PLUGIN_ID not in after and "plugins" not in after
    assert value(places.config) == {"gateway": {"port": 2, "bind": "loopback"}}


THEIR_ENTRY = """{
  plugins: {
    entries: {
      // written by hand, before any install
      'amplifier-hooks': {enabled: false, hooks: {timeouts: {before_tool_call: 1000}}},
    },
  },
}
"""


def test_an_entry_the_person_wrote_under_our_id_is_refused_and_kept(tmp_path: Path) -> None:
    """Install neither replaces nor merges into an entry it did not write: it says so and
    writes nothing; uninstall leaves the entry too (it is not install's)."""
    places = places_in(tmp_path)
    places.config.parent.mkdir(parents=True)
    places.config.write_text(THEIR_ENTRY)

    with pytest.raises(SettingsError, match="not written by `amplifier-hooks openclaw install`"):
        install_openclaw(places, plan())
    assert places.config.read_text() == THEIR_ENTRY
    assert not places.ours.exists()

    assert not uninstall_openclaw(places).changed
    assert places.config.read_text() == THEIR_ENTRY

    env = {**os.environ, "HOME": str(tmp_path)}
    env.pop("OPENCLAW_STATE_DIR", None)
    env.pop("OPENCLAW_CONFIG_PATH", None)
    done = cli("openclaw", "install", "--bundle", str(DEFAULT), env=env)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"plugins.entries.{PLUGIN_ID} is already there" in done.stderr
    assert "move it away" in done.stderr
    assert places.config.read_text() == THEIR_ENTRY and not places.ours.exists()


def test_an_entry_the_person_writes_in_place_of_ours_stays_after_uninstall(
    tmp_path: Path,
) -> None:
    """Installed, then the person replaces our entry with one of their own: uninstall
    takes out our folder's path and our folder, and leaves their entry; and once
    uninstalled, an entry they write is theirs to the next uninstall too."""
    places = places_in(tmp_path)
    install_openclaw(places, plan())
    text = places.config.read_text()
    tree = value(places.config)
    ours = json.dumps(tree["plugins"]["entries"][PLUGIN_ID], indent=2)  # type: ignore[index]
    assert ours.replace("\n", "\n      ") in text
    theirs = '{"enabled": false, "config": {"note": "mine"}}'
    places.config.write_text(text.replace(ours.replace("\n", "\n      "), theirs))

    assert uninstall_openclaw(places).changed

    after = value(places.config)
    assert after["plugins"] == {"entries": {PLUGIN_ID: json.loads(theirs)}}
    assert not places.ours.exists()
    kept = places.config.read_text()
    assert not uninstall_openclaw(places).changed
    assert places.config.read_text() == kept
    with pytest.raises(SettingsError, match="move it away"):
        install_openclaw(places, plan())
    assert places.config.read_text() == kept


def test_what_the_person_wrote_before_install_stays_after_uninstall(tmp_path: Path) -> None:
    """Our id in the person's ``plugins.allow`` and our folder in their ``load.paths``,
    written before install, are theirs: install adds neither, and uninstall -- after the
    file changed, so it finds our parts by what they are -- takes out only our entry."""
    places = places_in(tmp_path)
    places.config.parent.mkdir(parents=True)
    before = {
        "plugins": {
            "allow": ["memory-core", PLUGIN_ID],
            "load": {"paths": [str(places.plugin)]},
        }
    }
    places.config.write_text(json.dumps(before, indent=2) + "\n")

    install_openclaw(places, plan())
    wired = value(places.config)["plugins"]
    assert wired["allow"] == ["memory-core", PLUGIN_ID]  # type: ignore[index]
    assert wired["load"]["paths"] == [str(places.plugin)]  # type: ignore[index]
    assert PLUGIN_ID in wired["entries"]  # type: ignore[index]
    record = json.loads(places.record.read_text())
    assert record["added"] == ["entry"]

    edited = places.config.read_text().replace('"memory-core"', '"memory"')
    places.config.write_text(edited)
    install_openclaw(places, plan())
    assert places.config.read_text() == edited  # installing again keeps the person's edit

    uninstall_openclaw(places)

    after = value(places.config)
    assert after == {
        "plugins": {"allow": ["memory", PLUGIN_ID], "load": {"paths": [str(places.plugin)]}}
    }


def test_a_file_that_is_not_json5_is_refused_and_left_alone(tmp_path: Path) -> None:
    places = places_in(tmp_path)
    places.config.parent.mkdir(parents=True)
    places.config.write_text('{"plugins": {"entries": [}\n')
    with pytest.raises(SettingsError, match="not JSON5 OpenClaw can read"):
        install_openclaw(places, plan())
    assert places.config.read_text() == '{"plugins": {"entries": [}\n'
    assert not places.ours.exists()


@pytest.mark.parametrize(
    ("plugins", "problem"),
    [
        ({"enabled": False}, "plugins.enabled is false"),
        ({"deny": [PLUGIN_ID]}, "plugins.deny names"),
        ({"entries": {}, "allow": []}, None),  # install adds our id to the list
    ],
)
def test_install_says_what_turns_the_plugin_off(
    tmp_path: Path, plugins: dict[str, object], problem: str | None
) -> None:
    places = places_in(tmp_path)
    places.config.parent.mkdir(parents=True)
    places.config.write_text(json.dumps({"plugins": plugins}))
    report = install_openclaw(places, plan())
    if problem is None:
        assert report.problems == ()
    else:
        assert any(problem in p for p in report.problems), report.problems
        assert report.status().startswith("status: WILL NOT RUN")


def test_the_budget_is_the_bundles_longest_question_and_a_margin(tmp_path: Path) -> None:
    assert hook_budget_ms(DEFAULT) == 330_000
    bundle = tmp_path / "slow.yaml"
    bundle.write_text(
        'bundle: {name: slow, version: "1"}\n'
        "hooks:\n"
        f"  - module: ah-approval\n    source: {ROOT / 'modules' / 'ah-approval'}\n"
        "    config:\n      rules:\n"
        '        - {tool: bash, command: "make *", decision: ask, timeout: 900}\n'
    )
    assert hook_budget_ms(bundle) == 600_000  # OpenClaw takes no more


def fake_node(directory: Path, version: str) -> None:
    """An ``openclaw`` whose ``#!/usr/bin/env node`` finds a Node saying ``version``."""
    directory.mkdir()
    (directory / "node").write_text(f"#!/bin/sh\necho {version}\n")
    (directory / "openclaw").write_text("#!/usr/bin/env node\n")
    for name in ("node", "openclaw"):
        (directory / name).chmod(0o755)


@pytest.mark.parametrize(
    ("version", "runs"), [("v20.20.2", False), ("v24.15.9", False), ("v24.16.0", True)]
)
def test_a_node_older_than_24_16_will_not_run_openclaw(
    tmp_path: Path, version: str, runs: bool
) -> None:
    fake_node(tmp_path / "bin", version)
    problem = node_problem({"PATH": f"{tmp_path / 'bin'}{os.pathsep}/usr/bin:/bin"})
    assert (problem is None) is runs, problem
    if not runs:
        assert f"{version}, older than the Node 24.16" in str(problem)


def test_no_openclaw_on_path_is_said() -> None:
    assert node_problem({"PATH": "/nonexistent"}) == "'openclaw' is not on PATH"


@pytest.mark.parametrize(
    "text",
    ["{a: 1,, }", "{'a': 'unterminated}", "[1, 2", "{a: 1} x", "/* open {}", '{"a": 1e}'],
)
def test_json5_that_is_broken_says_where(text: str) -> None:
    with pytest.raises(Json5Error, match="line 1 column"):
        parse(text)
