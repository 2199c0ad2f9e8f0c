"""Model servers, desktops, forges, ignore files and production's files: what opens the
machine or the project to others, or lets through what a setting kept back, is asked or
denied; the look-alikes beside each stay as they were."""

from __future__ import annotations

import pytest

from tests.guard.conftest import decided, tool_decided

PROJECT = "/home/dev/project"


def edited(path: str, old: str, new: str) -> tuple[str | None, str | None]:
    return tool_decided("Edit", {"file_path": f"{PROJECT}/{path}", "old_string": old,
                                 "new_string": new})  # fmt: skip


def patched(path: str, hunk: str) -> tuple[str | None, str | None]:
    patch = f"*** Begin Patch\n*** Update File: {path}\n@@\n{hunk}*** End Patch"
    return tool_decided("apply_patch", {"input": patch})


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("OLLAMA_HOST=0.0.0.0:11434 ollama serve", "model-server-all-interfaces-env"),
        ("OLLAMA_ORIGINS='*' ollama serve", "model-server-all-interfaces-env"),
        (
            "vllm serve meta-llama/Llama-3.1-8B-Instruct --host 0.0.0.0",
            "model-server-all-interfaces",
        ),
        (
            "./build/bin/llama-server -m m.gguf --host 0.0.0.0 --port 8080",
            "model-server-all-interfaces",
        ),
        ("vllm serve someuser/mystery --trust-remote-code", "model-remote-code-trusted"),
        ("npx localtunnel --port 8080", "tunnel-public-runner"),
    ],
)
def test_model_servers_opened_to_others_are_asked(command: str, rule: str) -> None:
    assert decided(command) == ("ask", rule)


@pytest.mark.parametrize(
    "command", ["ollama serve", "vllm serve m --host 127.0.0.1", "ollama run llama3", "ollama list"]
)
def test_model_servers_on_this_machine_are_not_asked(command: str) -> None:
    assert decided(command)[0] not in ("ask", "deny")


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("xhost +", ("deny", "desktop-opened-to-anyone")),
        ("x11vnc -display :0 -forever -nopw -shared -bg", ("deny", "desktop-opened-to-anyone")),
        (
            "pactl load-module module-native-protocol-tcp auth-anonymous=1",
            ("deny", "desktop-opened-to-anyone"),
        ),
        ("grdctl rdp enable", ("ask", "desktop-remote-access-on")),
        (
            "gsettings set org.gnome.desktop.screensaver lock-enabled false",
            ("ask", "desktop-lock-off"),
        ),
        ("nmcli connection up id 'Corp VPN'", ("ask", "network-hotspot-or-vpn")),
        (
            "nmcli device wifi hotspot ifname wlp3s0 ssid devnet password 12345678",
            ("ask", "network-hotspot-or-vpn"),
        ),
        ("flatpak install -y flathub com.discordapp.Discord", ("ask", "desktop-app-install")),
    ],
)
def test_the_desktop_opened_or_changed_for_everyone(command: str, verdict: tuple[str, str]) -> None:
    assert decided(command) == verdict


@pytest.mark.parametrize(
    "command",
    ["xhost +si:localuser:dev", "gsettings set org.gnome.desktop.interface color-scheme dark",
     "nmcli device status", "flatpak list --app", "grdctl status", "pactl list short sinks"],
)  # fmt: skip
def test_the_desktops_looks_are_not_asked(command: str) -> None:
    assert decided(command)[0] not in ("ask", "deny")


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("gh api -X PUT orgs/acme/outside_collaborators/bob", ("ask", "forge-settings-change")),
        ("gh ssh-key add - --title backup", ("ask", "forge-settings-change")),
        ("gh repo unarchive acme/old-sdk --yes", ("ask", "forge-settings-change")),
        (
            "glab repo transfer acme/api --target-namespace jdoe --yes",
            ("deny", "forge-access-grant"),
        ),
        (
            "glab api projects/4821/variables/AWS_SECRET_ACCESS_KEY | jq -r .value",
            ("deny", "ci-variables-print"),
        ),
        (
            'curl -s -H "PRIVATE-TOKEN: $T" https://gitlab.acme.io/api/v4/groups/acme/variables',
            ("deny", "ci-variables-print-http"),
        ),
    ],
)
def test_forge_access_and_ci_variables(command: str, verdict: tuple[str, str]) -> None:
    assert decided(command) == verdict


def test_setting_a_ci_variable_is_a_settings_change_not_a_print() -> None:
    assert decided("glab api -X POST projects/1/variables -f key=X -f value=Y") == (
        "ask", "forge-settings-change")  # fmt: skip
    assert decided("glab api projects/1/pipelines")[0] is None


@pytest.mark.parametrize(
    ("tool", "given"),
    [
        ("mcp__github__update_branch_protection",
         {"owner": "acme", "repo": "api", "branch": "main", "allow_force_pushes": True}),
        ("mcp__github__update_branch_protection",
         {"owner": "acme", "repo": "api", "branch": "main", "enforce_admins": False}),
        ("mcp__gitlab__protect_branch", {"project_id": "1", "branch": "main",
                                         "allow_force_push": True}),
        ("mcp__github__create_repository_webhook",
         {"owner": "acme", "repo": "p", "config": {"url": "https://h.example/c",
                                                   "insecure_ssl": "1"}}),
    ],
)  # fmt: skip
def test_an_mcp_tool_switching_a_branch_or_hook_protection_off_is_asked(
    tool: str, given: dict[str, object]
) -> None:
    assert tool_decided(tool, given) == ("ask", "mcp-tool-switches-off")


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        ("app/demo.py", "demo.launch()", 'demo.launch(share=True, server_name="0.0.0.0")'),
        (
            "src/load_model.py",
            "M.from_pretrained(MODEL_ID)",
            "M.from_pretrained('someone/fast', trust_remote_code=True)",
        ),
        ("configs/train.yaml", "push_to_hub: false", "push_to_hub: true"),
        (
            "Assets/Scripts/Crash.cs",
            "options.SendDefaultPii = false;",
            "options.SendDefaultPii = true;",
        ),
        ("deploy/server.cfg", "sv_anticheat 1", "sv_anticheat 0"),
        ("server.properties", "white-list=true", "white-list=false"),
        (
            ".github/workflows/deploy.yml",
            "    runs-on: ubuntu-latest\n    environment: production\n",
            "    runs-on: ubuntu-latest\n",
        ),
        (".gitlab-ci.yml", "variables:\n  A: b", 'variables:\n  A: b\n  SAST_DISABLED: "true"'),
    ],
)
def test_settings_that_let_through_what_they_kept_back(path: str, old: str, new: str) -> None:
    assert edited(path, old, new) == ("ask", "protection-switched-off")


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        ("configs/train.yaml", "push_to_hub: true", "push_to_hub: false"),
        ("/etc/ssh/sshd_config", "PasswordAuthentication yes", "PasswordAuthentication no"),
        (
            ".github/workflows/deploy.yml",
            "    environment: staging\n",
            "    environment: staging\n    timeout-minutes: 10\n",
        ),
        ("server.cfg", "sv_maxplayers 64", "sv_maxplayers 128"),
    ],
)
def test_settings_tightened_or_unrelated_are_not_asked(path: str, old: str, new: str) -> None:
    assert edited(path, old, new)[1] != "protection-switched-off"


def test_the_whole_environment_given_to_an_experiment_tracker_is_asked() -> None:
    new = 'wandb.init(project="p", config={**cfg, **dict(os.environ)})'
    assert edited("train.py", 'wandb.init(project="p", config=cfg)', new) == (
        "ask", "environment-reported")  # fmt: skip
    child = 'subprocess.run(cmd, env={**os.environ, "X": "1"})'
    assert edited("train.py", "pass", child)[0] not in ("ask", "deny")


def test_an_ignore_file_losing_a_pattern_is_asked() -> None:
    hunk = " # Licensed plugins (do not commit)\n-/Assets/Plugins/FMOD/\n"
    assert patched(".gitignore", hunk) == ("ask", "ignore-entry-dropped")
    assert edited(".npmignore", "tests/\nfixtures/\n", "tests/\n") == (
        "ask",
        "ignore-entry-dropped",
    )
    assert edited(".gitignore", "node_modules/\n", "node_modules/\ncoverage/\n")[0] == "allow"
    assert patched(".gitignore", " .venv/\n+.pytest_cache/\n")[0] == "allow"


@pytest.mark.parametrize(
    "path",
    ["deploy/prod/server.cfg", "k8s/production/deployment.yaml", "config/production.yml",
     "config/settings/production.py", "helm/values.prod.yaml"],
)  # fmt: skip
def test_productions_files_are_not_granted(path: str) -> None:
    assert edited(path, "a", "b")[0] is None
    assert decided(f"sed -i 's/a/b/' {path}")[0] is None


def test_other_files_stay_granted() -> None:
    assert edited("deploy/staging/server.cfg", "a", "b")[0] == "allow"
    assert edited("lib/app_web/live/page_live.ex", "a", "b")[0] == "allow"


def test_a_steam_config_in_the_project_is_a_credential() -> None:
    given = {"file_path": f"{PROJECT}/ci/steam/config/config.vdf"}
    assert tool_decided("Read", given) == ("deny", "credential-read")
