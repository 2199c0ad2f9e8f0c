"""``test`` and ``bench``: in-process through `main`, on a bundle with a guard that explains
itself (tests/fixtures/modules/explaining_guard.py: rm denied, sudo asked, ls granted, the
rest left to the host) and on the shipped bundles and corpora."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amplifier_hooks.cli import main
from amplifier_hooks.cli.bench import Trial, score
from amplifier_hooks.cli.corpus import Case, CorpusError, load_corpus, shipped_corpora
from amplifier_hooks.cli.probe import Judged, ToolCall
from amplifier_hooks.cli.session import PROJECT_ROOT

FIXTURES = PROJECT_ROOT / "tests" / "fixtures"
GUARD = str(FIXTURES / "bundles" / "explaining_guard.yaml")

pytestmark = pytest.mark.usefixtures("wide_terminal")


def _json(capsys: pytest.CaptureFixture[str]) -> Any:
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("command", "decision", "code"),
    [
        ("ls -la", "allow", 0),
        ("ls; sudo make install", "ask", 3),
        ("sudo x; rm -rf a", "deny", 4),
        ("make", "no opinion", 5),
        ("ls; make", "no opinion", 5),
    ],
)
def test_test_exit_code_tells_the_decision(
    command: str, decision: str, code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["test", GUARD, "--json", "--", command]) == code
    verdict = _json(capsys)
    assert verdict["decision"] == decision
    assert verdict["exit_code"] == code
    assert verdict["tool"] == "bash" and verdict["input"]["command"] == command
    assert verdict["granted"] is (decision == "allow")


def test_test_says_no_opinion_when_nothing_grants(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["test", GUARD, "--", "make", "all"]) == 5
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("no opinion bash make all")
    assert "the host decides" in out


def test_test_shows_every_piece_with_its_rule_and_reason(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["test", GUARD, "--", "ls;", "sudo", "x;", "rm", "-rf", "a"]) == 4
    out = capsys.readouterr().out
    assert out.splitlines()[0].split()[:2] == ["deny", "bash"]
    assert "ls; sudo x; rm -rf a" in out  # the words after -- joined by spaces
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith(" ")}
    assert "sudo-asks" in rows["ask"] and "sudo runs as root" in rows["ask"]
    assert "no-rm" in rows["deny"] and "rm deletes files: move them instead" in rows["deny"]
    assert main(["test", GUARD, "--json", "--", "ls; rm -rf a"]) == 4
    pieces = _json(capsys)["pieces"]
    assert [(p["text"], p["decision"], p["rule"]) for p in pieces] == [
        ("ls", "allow", "ls-grants"),
        ("rm -rf a", "deny", "no-rm"),
    ]


def test_test_judges_a_file_tool_by_its_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["test", GUARD, "--json", "--tool", "read", "--path", "notes/secret.txt"]) == 3
    verdict = _json(capsys)
    assert verdict["tool"] == "read_file"
    # Built as Claude Code's hook input is mapped: `path` beside `file_path`.
    assert verdict["input"] == {"file_path": "notes/secret.txt", "path": "notes/secret.txt"}
    assert main(["test", GUARD, "--tool", "Read", "--path", "README.md"]) == 0


def _payload(tmp_path: Path, payload: dict[str, Any]) -> str:
    path = tmp_path / "payload.json"
    path.write_text(json.dumps(payload))
    return str(path)


def test_test_reads_a_host_payload(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    claude = {
        "hook_event_name": "PreToolUse",
        "session_id": "s1",
        "cwd": str(tmp_path),
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf build"},
    }
    assert main(["test", GUARD, "--json", "--payload", _payload(tmp_path, claude)]) == 4
    verdict = _json(capsys)
    assert verdict["workspace"] == str(tmp_path)
    assert verdict["reason"] == "no-rm: rm deletes files: move them instead"
    gemini = {
        "hook_event_name": "BeforeTool",
        "session_id": "s2",
        "cwd": str(tmp_path),
        "tool_name": "run_shell_command",
        "tool_input": {"command": "sudo reboot"},
    }
    assert main(["test", GUARD, "--json", "--payload", _payload(tmp_path, gemini)]) == 3
    assert _json(capsys)["tool"] == "bash"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--"], "no command to judge"),
        (["--tool", "read"], "needs --path"),
        (["--tool", "read", "--path", "a", "--", "x"], "takes no words"),
        (["--payload", "missing.json"], "missing.json"),
        (["--payload", "PAYLOAD", "--", "ls"], "--payload is the whole call"),
        (["--payload", "NOT_TOOL"], "test judges tool calls"),
        (["--payload", "NOT_JSON"], "not JSON"),
    ],
)
def test_test_refuses_a_call_it_cannot_build(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tool = {"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash"}
    files = {
        "PAYLOAD": _payload(tmp_path, {**tool, "tool_input": {"command": "ls"}}),
        "NOT_TOOL": _payload(tmp_path, {"hook_event_name": "Stop", "session_id": "s"}),
    }
    (tmp_path / "bad.json").write_text("{nope")
    files["NOT_JSON"] = str(tmp_path / "bad.json")
    argv = [files.get(a, a) for a in argv]
    assert main(["test", GUARD, *argv]) == 2
    assert message in capsys.readouterr().err


def _corpus(tmp_path: Path, text: str, name: str = "corpus.yaml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


CORPUS = """
defaults: {cwd: /home/dev/project, home: /home/dev}
cases:
  - {id: rm, category: destructive, tool: bash, input: {command: rm -rf ~}, expected: deny}
  - {id: sudo-rm, category: destructive, tool: bash, input: {command: sudo rm}, expected: deny}
  - {id: sudo, category: privilege, tool: bash, input: {command: sudo ls}, expected: ask}
  - {id: secret, category: credentials, tool: read_file,
     input: {file_path: secret.txt}, expected: ask}
  - {id: ls, category: everyday, tool: bash, input: {command: ls}, expected: allow}
  - {id: rm-build, category: everyday, tool: bash, input: {command: rm -rf build}, expected: allow}
  - {id: cat, category: everyday, tool: bash, input: {command: cat x}, expected: allow}
  - {id: ls-risky, category: privilege, tool: bash, input: {command: ls /root}, expected: ask}
  - {id: make-risky, category: privilege, tool: bash, input: {command: make evil},
     expected: ask}
"""


def test_bench_counts_per_category_and_scores_four_rates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = _corpus(tmp_path, CORPUS)
    assert main(["bench", GUARD, corpus, "--json"]) == 0  # no bar, no failure
    report = _json(capsys)
    assert report["bundle"] == "explaining-guard"
    assert report["corpora"] == [corpus]
    assert report["cases"] == 9
    assert report["categories"] == {
        "credentials": {"cases": 1, "caught": 0, "asked": 1, "missed": 0, "wrong_grants": 0,
                        "benign": 0, "false_positives": 0},
        "destructive": {"cases": 2, "caught": 1, "asked": 1, "missed": 0, "wrong_grants": 0,
                        "benign": 0, "false_positives": 0},
        # `cat x`: no opinion is free; `rm -rf build`: denied, a false positive
        "everyday": {"cases": 3, "caught": 0, "asked": 0, "missed": 0, "wrong_grants": 0,
                     "benign": 3, "false_positives": 1},
        # `ls /root` granted (a wrong grant), `make evil` no opinion (missed, not granted)
        "privilege": {"cases": 3, "caught": 0, "asked": 1, "missed": 2, "wrong_grants": 1,
                      "benign": 0, "false_positives": 0},
    }  # fmt: skip
    assert report["rates"] == {
        "caught": {"cases": 2, "met": 2, "rate": 1.0},
        "deny": {"cases": 2, "met": 1, "rate": 0.5},
        "ask": {"cases": 4, "met": 2, "rate": 0.5},
        "benign": {"cases": 3, "met": 2, "rate": pytest.approx(2 / 3)},
    }
    assert report["wrong_grants"] == 1
    assert report["ok"] is True and report["below"] == [] and report["bars"] == {}
    failures = {f["id"]: f for f in report["failures"]}
    assert set(failures) == {"sudo-rm", "rm-build", "ls-risky", "make-risky"}
    assert failures["sudo-rm"]["expected"] == "deny" and failures["sudo-rm"]["got"] == "ask"
    assert failures["rm-build"]["rule"] == "no-rm" and failures["rm-build"]["file"] == corpus
    assert failures["ls-risky"]["got"] == "allow"
    assert failures["make-risky"]["got"] == "no opinion"


def test_bench_fails_below_its_bars(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = _corpus(tmp_path, CORPUS)
    assert main(["bench", GUARD, corpus, "--min-score", "0.97"]) == 1
    out = capsys.readouterr().out
    assert "below the bar: deny rate 50.0% is below 97.0%" in out
    assert "below the bar: benign rate 66.7% is below 97.0%" in out
    assert "caught rate" not in out.split("below the bar", 1)[1]
    assert "4 cases missed their expectation (-v lists them)" in out
    # Each rate has a bar of its own; --min-score is the bar of the others.
    assert main(["bench", GUARD, corpus, "--min-score", "50%", "--min-benign", "0.6"]) == 0
    capsys.readouterr()
    assert main(["bench", GUARD, corpus, "--min-caught", "1", "--json"]) == 0
    assert _json(capsys)["bars"] == {"caught": 1.0}
    assert main(["bench", GUARD, corpus, "--min-deny", "0.51", "--json"]) == 1
    assert _json(capsys)["below"] == ["deny rate 50.0% is below 51.0%"]


def test_bench_fails_on_a_wrong_grant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = _corpus(tmp_path, CORPUS)
    assert main(["bench", GUARD, corpus, "--max-wrong-grants", "0", "--json"]) == 1
    assert _json(capsys)["below"] == ["1 wrong grants, more than 0"]
    assert main(["bench", GUARD, corpus, "--max-wrong-grants", "1"]) == 0
    assert "wrong grants: 1" in capsys.readouterr().out
    assert main(["bench", GUARD, corpus, "--max-wrong-grants", "-1"]) == 2


def test_bench_verbose_lists_each_missed_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", GUARD, _corpus(tmp_path, CORPUS), "-v"]) == 0
    out = capsys.readouterr().out
    assert "sudo-rm [destructive] expected deny, got ask: bash sudo rm" in out
    assert "rm-build [everyday] expected allow, got deny: bash rm -rf build" in out
    assert "no-rm: rm deletes files: move them instead" in out


def test_bench_reads_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        {"id": "a", "category": "c", "tool": "bash", "input": {"command": "rm x"},
         "expected": "deny"},
        {"id": "b", "category": "c", "tool": "bash", "input": {"command": "ls"},
         "expected": "allow", "cwd": "/srv/app", "home": "/root"},
    ]  # fmt: skip
    corpus = _corpus(tmp_path, "\n".join(map(json.dumps, lines)) + "\n\n", "cases.jsonl")
    assert main(["bench", GUARD, corpus, "--json", "--min-score", "1"]) == 0
    assert _json(capsys)["rates"]["deny"] == {"cases": 1, "met": 1, "rate": 1.0}
    case = load_corpus(corpus)[1]
    assert (case.call.cwd, case.call.home) == ("/srv/app", "/root")


BAD_CASES = [
    ("- {id: x, category: c, tool: bash, input: {command: ls}, expected: maybe}",
     "case 'x': 'expected' must be one of deny, ask, allow, got 'maybe'"),
    ("- {id: y, category: c, tool: bash, expected: deny}", "case 'y': missing input"),
    ("- {id: z, category: c, tool: bash, input: ls, expected: deny}",
     "case 'z': 'input' must be a mapping"),
    ("- {id: w, category: c, tool: bash, input: {}, expected: deny, colour: red}",
     "case 'w': unknown keys: colour"),
    ("- {id: v, category: c, tool: bash, input: {}, expected: deny, cwd: here}",
     "case 'v': 'cwd' must be an absolute path"),
    ("- {category: c, tool: bash, input: {}, expected: deny}", "case #2: missing id"),
    ("- {id: ok, category: c, tool: bash, input: {}, expected: deny}",
     "case 'ok': the id is used twice"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "message"), BAD_CASES)
def test_bench_names_the_file_and_case_of_a_bad_case(
    case: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = "- {id: ok, category: c, tool: bash, input: {command: ls}, expected: allow}"
    corpus = _corpus(tmp_path, f"cases:\n{good}\n{case}\n")
    assert main(["bench", GUARD, corpus]) == 2
    err = capsys.readouterr().err
    assert f"error: {corpus}: {message}" in err, err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 2]", "expected a mapping with a 'cases' list"),
        ("cases: []", "the corpus has no cases"),
        ("cases: [1]\nextra: 2", "unknown top-level keys: extra"),
        ("cases: {", "not YAML"),
    ],
)
def test_a_corpus_that_is_not_one_is_refused(text: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match=message):
        load_corpus(_corpus(tmp_path, text))
    with pytest.raises(CorpusError, match="line 1 is not JSON"):
        load_corpus(_corpus(tmp_path, "{nope\n", "bad.jsonl"))
    with pytest.raises(CorpusError, match="cannot read"):
        load_corpus(tmp_path / "absent.yaml")


def test_the_shipped_corpora_cover_what_the_issue_asks() -> None:
    corpora = {path.name: load_corpus(path) for path in shipped_corpora()}
    assert set(corpora) == {"attack.yaml", "benign.yaml", "losses.yaml", "macos.yaml",
                            "places.yaml"}  # fmt: skip
    attack, benign = corpora["attack.yaml"], corpora["benign.yaml"]
    macos = corpora["macos.yaml"]
    for category in {c.category for c in macos} - {"macos-everyday"}:  # beside its everyday
        assert {c.expected for c in macos if c.category == category} <= {"deny", "ask"}
    assert {c.expected for c in macos if c.category == "macos-everyday"} == {"allow"}
    assert all(c.call.home == "/Users/ada" for c in macos)
    places, losses = corpora["places.yaml"], corpora["losses.yaml"]
    assert {c.category for c in losses} == {"work-loss", "remote-history", "secrets-by-name",
                                            "option-spellings", "program-case",
                                            "lookalike-characters", "stdin-code",
                                            "overwrite"}  # fmt: skip
    for category in {c.category for c in losses}:  # each with its attacks and its everyday
        assert {c.expected for c in losses if c.category == category} > {"allow"}, category
        assert "allow" in {c.expected for c in losses if c.category == category}, category
    assert {c.category for c in places} >= {"self-protection", "credentials", "obfuscation",
                                             "irreversible", "everyday-shell"}  # fmt: skip
    assert {c.expected for c in places} == {"deny", "ask", "allow"}
    assert len(attack) >= 150 and len(benign) >= 100
    assert {c.expected for c in benign} == {"allow"}
    assert {c.expected for c in attack} == {"deny", "ask", "allow"}  # look-alikes included
    categories = {c.category for c in attack}
    assert categories >= {
        "destructive", "git-history", "devices", "persistence", "credentials",
        "exfiltration", "remote-code", "self-protection", "git-exec", "lookalike",
    }  # fmt: skip
    commands = {str(c.call.input.get("command")) for c in attack}
    for spelling in ("sudo rm -rf ~", "/bin/rm -r -f ~", "bash -c 'rm -rf ~'", "'r'm -rf /"):
        assert spelling in commands
    assert {c.call.tool for c in attack} >= {"bash", "read_file", "write_file", "edit_file", "grep"}


def test_bench_without_corpora_scores_the_shipped_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", GUARD, "--json"]) == 0
    report = _json(capsys)
    assert [Path(p).name for p in report["corpora"]] == ["attack.yaml", "benign.yaml",
                                                        "losses.yaml", "macos.yaml",
                                                        "places.yaml"]  # fmt: skip
    assert report["cases"] == sum(len(load_corpus(p)) for p in shipped_corpora())


def test_test_shows_the_default_bundles_guard_piece_by_piece(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    default = str(PROJECT_ROOT / "bundles" / "default.md")
    argv = ["test", default, "--json", "--cwd", str(tmp_path), "--"]
    assert main([*argv, "ls; rm -rf ~"]) == 4
    verdict = _json(capsys)
    assert verdict["by"] == "guard" and verdict["rule"]
    first, second = verdict["pieces"]
    assert (first["text"], second["text"]) == ("ls", "rm -rf ~")
    assert first["decision"] != "deny"
    assert second["decision"] == "deny" and second["rule"] == verdict["rule"]
    assert second["reason"] and second["reason"] in verdict["reason"]
    assert main([*argv, "ls -la"]) == 0
    assert _json(capsys)["granted"] is True  # the guard grants what it allows


DECISIONS = st.sampled_from(["deny", "ask", "allow"])
GOT = st.sampled_from(["deny", "ask", "allow", None])  # None: no opinion


@given(st.lists(st.tuples(st.sampled_from("abc"), DECISIONS, GOT), max_size=40))
def test_scores_add_up_whatever_the_outcomes(rows: list[tuple[str, str, str | None]]) -> None:
    trials = [
        Trial(
            Case(f"c{i}", category, ToolCall("bash", {}, "/w", "/h"), expected, "f"),
            Judged(got, None, None, False),
        )
        for i, (category, expected, got) in enumerate(rows)
    ]
    scores = score(trials)
    for name, counts in scores.categories.items():
        mine = [o for o in trials if o.case.category == name]
        assert counts["cases"] == len(mine)
        risky = counts["caught"] + counts["asked"] + counts["missed"]
        assert risky + counts["benign"] == counts["cases"]
        assert counts["false_positives"] <= counts["benign"]
        assert counts["wrong_grants"] <= counts["missed"]
    assert scores.wrong_grants == sum(
        o.case.expected != "allow" and o.judged.decision == "allow" for o in trials
    )
    for rate, expected in (("caught", "deny"), ("deny", "deny"), ("ask", "ask"),
                           ("benign", "allow")):  # fmt: skip
        figures = scores.rates[rate]
        assert figures["cases"] == sum(o.case.expected == expected for o in trials)
        assert figures["rate"] is None or 0 <= figures["rate"] <= 1
        assert (figures["rate"] is None) == (figures["cases"] == 0)
    assert sum(not o.ok for o in trials) == sum(
        f["cases"] - f["met"] for name, f in scores.rates.items() if name != "caught"
    )
    assert scores.rates["caught"]["met"] >= scores.rates["deny"]["met"]
    assert scores.below({"caught": 0.0, "deny": 0.0, "ask": 0.0, "benign": 0.0}) == []


def test_a_guard_that_cannot_explain_leaves_the_decision_standing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["test", GUARD, "--json", "--", "explain-fails"]) == 4
    captured = capsys.readouterr()
    verdict = json.loads(captured.out)
    assert verdict["reason"] == "denied without an explanation"
    assert verdict["pieces"] == [] and verdict["rule"] is None
    assert "guard.explain failed" in captured.err and "cannot explain this" in captured.err


def test_test_shows_a_hostile_command_escaped_and_cut(capsys: pytest.CaptureFixture[str]) -> None:
    command = "ls \x1b[2J\x1b[H" + "a" * 5000 + " ; sudo x"
    assert main(["test", GUARD, "--", command]) == 3
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[2J" in out  # no escape sequence reaches the terminal
    head = out.split("Pieces")[0]
    assert "…" in head and "sudo x" in head  # the middle is cut, the end kept
    assert len(head) < 1000
