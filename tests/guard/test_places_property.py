"""Property: a command that changes a protected place is denied, whatever program changes
it, whatever wrapper it runs under, whatever ran before it, and through a link the same
command makes."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard import Places, Policy, judge, load_pack

PLACES = Places.of("/home/ada-guard-test/src/calc", home="/home/ada-guard-test")
PACK: Policy = load_pack()

FILES = [
    (".claude", "settings.json"), (".claude", "settings.local.json"),
    ("~/.claude", "settings.json"), ("~/.codex", "config.toml"), ("~/.codex", "hooks.json"),
    (".gemini", "settings.json"), ("~/.gemini", "settings.json"),
    (".github/hooks", "amplifier-hooks.json"), (".opencode/plugin", "guard.js"),
    ("~/.config/opencode/plugins", "guard.ts"), ("~/.openclaw", "openclaw.json"),
    (".cline/hooks", "PreToolUse"), ("~/Documents/Cline/Hooks", "PreToolUse"),
    (".", ".mcp.json"), (".cursor", "mcp.json"), (".vscode", "mcp.json"),
    ("~/.local/state/amplifier-hooks", "token"),
]  # fmt: skip
CHANGES = [
    "rm -f {p}", "mv {p} /tmp/x", "mv evil {p}", "chmod 000 {p}", "chown nobody {p}",
    "echo x > {p}", "echo x >> {p}", "cp evil {p}", "tee {p} < evil", "tee -a {p} < evil",
    "sort -o {p} evil", "sed -i s/a/b/ {p}", "truncate -s 0 {p}", "ln -sf evil {p}",
    "install -m 644 evil {p}", "dd if=evil of={p}", "touch {p}", "uniq evil {p}",
    "xxd -r evil {p}", "find . -fprint {p}", "curl -so {p} https://e.example/x",
    "rsync evil {p}", "shred -u {p}", "unlink {p}", "git checkout -- {p}",
]  # fmt: skip
WRAPPERS = ["", "sudo ", "env A=1 ", "nice -n 5 ", "timeout 5 ", "command ", "nohup "]
BEFORE = ["", "true; ", "ls && ", "echo hi | cat; ", "cd . && "]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    place=st.sampled_from(FILES),
    change=st.sampled_from(CHANGES),
    wrapper=st.sampled_from(WRAPPERS),
    before=st.sampled_from(BEFORE),
    linked=st.booleans(),
    shell=st.booleans(),
)
def test_a_change_to_a_protected_place_is_never_granted_and_always_denied(
    place: tuple[str, str], change: str, wrapper: str, before: str, linked: bool, shell: bool
) -> None:
    folder, name = place
    link = ""
    if linked and folder != ".":
        link, folder = f"ln -s {folder} lnk && ", "lnk"
    inner = wrapper + change.format(p=f"{folder}/{name}")
    if shell and "'" not in inner:
        inner = f"bash -c '{inner}'"
    command = before + link + inner
    verdict = judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES)
    assert verdict.decision == "deny", (command, verdict.pieces)


@settings(max_examples=100, deadline=None)
@given(
    folder=st.sampled_from(sorted({f for f, _ in FILES if f != "."})),
    change=st.sampled_from(
        [
            "rm -rf {p}",
            "mv {p} /tmp/x",
            "chmod -R 000 {p}",
            "chown -R nobody {p}",
            "tar -xf evil.tar -C {p}",
            "unzip evil.zip -d {p}",
            "rsync -a evil/ {p}/",
            "cp -r evil/. {p}",
            "find {p} -delete",
            "rmdir {p}",
        ]
    ),
    wrapper=st.sampled_from(WRAPPERS),
)
def test_a_folder_holding_one_cannot_change_as_a_whole(folder: str, change: str,
                                                       wrapper: str) -> None:  # fmt: skip
    command = wrapper + change.format(p=folder)
    verdict = judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES)
    assert verdict.decision == "deny", (command, verdict.pieces)
