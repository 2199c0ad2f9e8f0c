"""Hostile bundles: `load_bundle` raises only `BundleError`, within the documented limits.

Each input that once escaped as another exception, or took seconds and a gigabyte, is
here with the message a person gets (file, line, key path, cause). Hypothesis then feeds
arbitrary bytes, YAML trees and YAML token soup; the time bound is a generous deadline per
example (the loader needs milliseconds), so a busy machine cannot make it flaky.
Speed itself is measured in benchmarks/bench_bundles.py.
"""

from __future__ import annotations

import re
import tempfile
import tracemalloc
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from amplifier_hooks.bundles import Bundle, BundleError, load_bundle, safe_yaml
from amplifier_hooks.bundles.reading import display_path
from amplifier_hooks.bundles.safe_yaml import LIMITS, USING_LIBYAML

NO_USER = "~amplifier-hooks-no-such-user"


def write(directory: Path, name: str, text: str | bytes) -> Path:
    path = directory / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def error_of(path: Path | str, environ: dict[str, str] | None = None) -> BundleError:
    with pytest.raises(BundleError) as info:
        load_bundle(path, environ=environ if environ is not None else {})
    return info.value


def at(path: Path, line: int) -> str:
    return f"{display_path(path)}:{line}"


def laughs(levels: int) -> str:
    """The "billion laughs": each level is a list of nine aliases of the level before."""
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


# -- what used to escape as another exception --------------------------------------------


def test_an_include_under_the_home_of_a_user_who_does_not_exist(tmp_path: Path) -> None:
    path = write(tmp_path, "b.yaml", f"bundle: {{name: b}}\nincludes: ['{NO_USER}/x.yaml']\n")
    error = error_of(path)  # was RuntimeError
    assert (error.file, error.line, error.key_path) == (path, 2, "includes[0]")
    assert str(error).startswith(
        f"{at(path, 2)}: includes[0]: cannot use the path '{NO_USER}/x.yaml': "
    )


NUL_IN_URI = "a path or URI must not contain a NUL character"


@pytest.mark.parametrize(
    ("key", "text", "message"),
    [
        ("includes[0]", 'includes: ["a\\0b.yaml"]', NUL_IN_URI),
        ("hooks[0].source", 'hooks: [{module: m, source: "a\\0b"}]', NUL_IN_URI),
        (
            "session.approvals.store",
            'session: {approvals: {store: "a\\0b.db"}}',
            "cannot use the path 'a\\x00b.db': embedded null byte",
        ),
    ],
)
def test_a_nul_in_a_path_is_named_at_its_key(
    tmp_path: Path, key: str, text: str, message: str
) -> None:
    path = write(tmp_path, "b.yaml", "\n" + text + "\n")
    error = error_of(path)  # was ValueError
    assert (error.line, error.key_path) == (2, key)
    assert str(error) == f"{at(path, 2)}: {key}: {message}"


def test_an_integer_of_5000_digits(tmp_path: Path) -> None:
    path = write(tmp_path, "b.yaml", "session:\n  injection_budget_per_turn: " + "9" * 5000)
    assert str(error_of(path)) == (  # was ValueError (int conversion limit)
        f"{at(path, 2)}: session.injection_budget_per_turn: an integer of 5,000 characters, "
        "over the limit of 100 (see 'Limits' in docs/bundles.md)"
    )


def test_an_include_with_a_300_character_name(tmp_path: Path) -> None:
    name = "x" * 300 + ".yaml"
    path = write(tmp_path, "b.yaml", f"includes:\n  - {name}\n")
    error = error_of(path)  # was OSError
    assert (error.line, error.key_path) == (2, "includes[0]")
    assert "included file cannot be read (File name too long)" in str(error)


def test_a_control_character_is_named_with_its_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "b.yaml", "bundle:\n  name: a\x1fb\n")
    assert str(error_of(path)) == (  # was yaml.reader.ReaderError, without a line
        f"{at(path, 2)}: invalid YAML: character U+001F is not allowed in YAML (column 10); "
        "write it as an escape in a double-quoted string"
    )


def test_5000_nested_brackets(tmp_path: Path) -> None:
    path = write(tmp_path, "b.yaml", "hooks:\n  - config:\n      x: " + "[" * 5000 + "]" * 5000)
    error = error_of(path)  # was RecursionError
    assert error.line == 3
    # Whichever limit fires first -- this project's while composing, or the YAML reader's
    # own (PyYAML >= 6.0.4 and libyaml stop deep flow collections while scanning ahead) --
    # the message says so, at the deep value's line and under its key path.
    ours = f": nested deeper than {LIMITS.max_depth} levels, the limit"
    readers = (
        ": nested too deeply: the YAML reader's own nesting limit fired before this "
        f"project's limit of {LIMITS.max_depth} levels"
    )
    message = str(error).removesuffix(" (see 'Limits' in docs/bundles.md)")
    assert str(error).endswith("(see 'Limits' in docs/bundles.md)")
    assert message.endswith(ours) or message.endswith(readers), message
    assert error.key_path.startswith("hooks[0].config.x"), error.key_path
    if message.endswith(ours):
        # one key path part per open mapping or list: four named, then the brackets
        assert error.key_path == "hooks[0].config.x" + "[0]" * (LIMITS.max_depth - 4)


def test_nesting_at_this_projects_limit_is_ours_whatever_the_reader(tmp_path: Path) -> None:
    depth = LIMITS.max_depth + 1  # one past ours, far below any reader's limit
    path = write(tmp_path, "b.yaml", "x: " + "[" * depth + "]" * depth + "\n")
    error = error_of(path)
    assert str(error).endswith(
        f": nested deeper than {LIMITS.max_depth} levels, the limit "
        "(see 'Limits' in docs/bundles.md)"
    )
    assert error.key_path == "x" + "[0]" * (LIMITS.max_depth - 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: !!int ''\n", "a: invalid YAML: not a valid !!int value (column 4)"),
        ("a: !!float ''\n", "a: invalid YAML: not a valid !!float value (column 4)"),
        ("a: !!timestamp x\n", "a: invalid YAML: not a valid !!timestamp value (column 4)"),
        (
            "a: [1, 2001-02-30]\n",
            "a[1]: invalid YAML: not a valid !!timestamp value: day is out of range for month "
            "(column 8)",
        ),
        (
            "a: {? [k]: v}\n",
            "a: invalid YAML: found unhashable key (column 7), while constructing a mapping "
            "that starts on line 2",
        ),
        (
            "a: &x [*x]\n",
            "a[0]: invalid YAML: alias 'x' refers to a value that contains it (column 8)",
        ),
        ("a: *nowhere\n", "a: invalid YAML: found undefined alias 'nowhere' (column 4)"),
    ],
)
def test_values_yaml_cannot_convert(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, "b.yaml", "bundle: {name: b}\n" + text)
    assert str(error_of(path)) == f"{at(path, 2)}: {message}"


@pytest.mark.parametrize(
    "name",
    [f"{NO_USER}/b.yaml", "a\0b.yaml", "y" * 300 + ".yaml"],
    ids=["no-such-user", "nul", "long-name"],
)
def test_a_bundle_path_the_system_cannot_use(name: str) -> None:
    error = error_of(name)
    assert error.line is None
    assert "cannot use this path" in str(error) or "cannot read file" in str(error)


# -- limits: refused early, in little memory ------------------------------------------------


def refused_within(path: Path | str, most_bytes: int) -> BundleError:
    """The `BundleError` loading ``path`` raises, having allocated at most ``most_bytes``
    of Python memory above what was allocated before (tracemalloc: deterministic)."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        error = error_of(path)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert peak < most_bytes
    return error


def test_a_billion_laughs_is_refused_at_the_alias_that_crosses_the_limit(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, "bomb.yaml", laughs(10))
    error = refused_within(path, 5_000_000)  # was a MemoryError after 1 GB
    assert (error.line, error.key_path) == (5, "l4[1]")
    assert str(error) == (
        f"{at(path, 5)}: l4[1]: the document holds more than 20,000 values, the limit "
        "(each use of an alias counts every value it stands for) "
        "(see 'Limits' in docs/bundles.md)"
    )


def test_a_merge_key_bomb_is_refused_too(tmp_path: Path) -> None:
    lines = ["m0: &m0 {a: 1, b: 2}"]
    lines += [f"m{i}: &m{i} {{<<: [*m{i - 1}, *m{i - 1}], k{i}: 1}}" for i in range(1, 40)]
    path = write(tmp_path, "merge.yaml", "\n".join(lines) + "\n")
    assert "holds more than 20,000 values" in str(error_of(path))


def test_an_oversized_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    entries = "".join(f"  - module: m{i}\n    config: {{a: {i}}}\n" for i in range(150_000))
    path = write(tmp_path, "big.yaml", "hooks:\n" + entries)
    assert path.stat().st_size > 5_000_000
    error = refused_within(path, 100_000)  # was 669 MB: here not even read
    assert str(error) == (
        f"{display_path(path)}: file is larger than 1 MiB, the limit for a bundle file "
        "(see 'Limits' in docs/bundles.md)"
    )


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_stream_is_read_only_up_to_the_limit() -> None:
    # /dev/zero says it is empty (st_size 0) and never ends
    error = refused_within("/dev/zero", 3 * LIMITS.max_file_bytes)
    assert "file is larger than 1 MiB" in str(error)


def test_a_file_at_the_size_limit_loads(tmp_path: Path) -> None:
    head = "bundle: {name: big}\n"
    padding = "#" * (LIMITS.max_file_bytes - len(head) - 1) + "\n"
    path = write(tmp_path, "big.yaml", head + padding)
    assert path.stat().st_size == LIMITS.max_file_bytes
    assert load_bundle(path).name == "big"


def test_a_document_of_exactly_the_value_limit_loads(tmp_path: Path) -> None:
    # the top mapping, hooks, its list, the entry, module, m, config, its mapping, x and
    # the list x: 10 values before the items
    items = ", ".join(["1"] * (LIMITS.max_nodes - 10))
    path = write(tmp_path, "many.yaml", f"hooks:\n  - module: m\n    config: {{x: [{items}]}}\n")
    assert len(load_bundle(path).hooks[0].config["x"]) == LIMITS.max_nodes - 10
    one_more = write(tmp_path, "more.yaml", path.read_text().replace("[1, ", "[1, 1, "))
    assert "more than 20,000 values" in str(error_of(one_more))


def test_includes_that_double_at_every_level_are_refused(tmp_path: Path) -> None:
    for level in range(12):  # 2**12 applications of f12.yaml if nothing stopped it
        write(tmp_path, f"f{level}.yaml", f"includes: [f{level + 1}.yaml, f{level + 1}.yaml]\n")
    write(tmp_path, "f12.yaml", "bundle: {name: leaf}\n")
    error = error_of(tmp_path / "f0.yaml")
    assert error.key_path.startswith("includes[")
    assert "the includes apply more than 256 files, the limit" in str(error)


def test_env_expansion_cannot_fill_the_memory(tmp_path: Path) -> None:
    refs = "\n".join(f"      k{i}: ${{BIG}}" for i in range(20))
    path = write(tmp_path, "env.yaml", f"hooks:\n  - module: m\n    config:\n{refs}\n")
    error = error_of(path, environ={"BIG": "x" * 100_000})
    assert error.line == 14 and error.key_path == "hooks[0].config.k10"
    assert "${VAR} expansion adds more than 1,048,576 characters to this file" in str(error)
    assert load_bundle(path, environ={"BIG": "x" * 1000}).hooks[0].config["k19"] == "x" * 1000


# -- Markdown front matter: lines count from the top of the file ----------------------------


@given(
    lead=st.lists(st.sampled_from(["", "# a comment", "bundle: {name: b}"]), max_size=6).map(
        lambda lines: list(dict.fromkeys(lines))  # no key written twice
    ),
    problem=st.sampled_from(
        [
            "hooks:\n  - module: m\n    colour: red",
            "session:\n  x: " + "[" * 80 + "]" * 80,
            "hooks:\n  - module: m\n    config: {a: \x07}",
            "bundle: {name: [x}",
            "hooks:\n  - module: m\n    config: {n: " + "1" * 200 + "}",
        ]
    ),
)
@settings(max_examples=40, deadline=timedelta(seconds=10))
def test_front_matter_errors_are_one_line_below_the_same_yaml_error(
    lead: list[str], problem: str
) -> None:
    text = "\n".join([*lead, problem]) + "\n"
    with tempfile.TemporaryDirectory() as directory:
        plain = write(Path(directory), "b.yaml", text)
        markdown = write(Path(directory), "b.md", "---\n" + text + "---\n# Title\n\ntext\n")
        in_yaml, in_markdown = error_of(plain), error_of(markdown)
    assert in_yaml.line is not None and in_markdown.line == in_yaml.line + 1
    assert in_markdown.key_path == in_yaml.key_path
    # the same message, with "that starts on line N" shifted by the same one line
    shifted = re.sub(
        r"starts on line (\d+)", lambda m: f"starts on line {int(m[1]) + 1}", str(in_yaml)
    )
    assert str(in_markdown).split(": ", 1)[1] == shifted.split(": ", 1)[1]


# -- fuzzing: only BundleError, for any input ---------------------------------------------

FUZZ = settings(
    max_examples=150,
    deadline=timedelta(seconds=10),
    suppress_health_check=[HealthCheck.too_slow],
)
ENVIRON = {"HOME": "/home/someone", "SET": "value"}

KEYS = st.sampled_from(
    [
        "bundle",
        "name",
        "version",
        "includes",
        "strict",
        "compat",
        "session",
        "hooks",
        "module",
        "source",
        "id",
        "enabled",
        "optional",
        "config",
        "handlers",
        "priority",
        "timeout",
        "fail_closed",
        "approvals",
        "provider",
        "store",
        "policy",
        "rules",
        "default",
        "decision",
        "injection_budget_per_turn",
        "injection_refuse_roles",
    ]
) | st.text(max_size=6)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(
        [
            "${SET}",
            "${UNSET}",
            "${UNSET:-d}",
            "${",
            "$${x}",
            f"{NO_USER}/x",
            "a\0b",
            "z" * 300,
            "/",
            "..",
            "0x" + "f" * 60,
            "1:2:3",
            "hooks-logging",
            "amplifier_core",
            "policy",
        ]
    )
)
TREES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=5),
    max_leaves=25,
)
TOKENS = st.sampled_from(
    [
        *"[]{}:,-?&*!|>'\"#%@` \n\tab1.~$",
        *("\x85", "\u2028", "\ufeff", "\x00", "\x1f", "&a ", "*a", "<<: ", "---\n", "...\n"),
        *("%YAML 1.1\n", "!!set ", "!!omap ", "!!binary ", "!!int ", "!!float ", "!!str "),
        *("!!timestamp ", "!custom ", "? ", "hooks:", "module: ", "config:", "includes: "),
        *("${SET}", "${UNSET}", "99999999999", "2001-02-30", "\\x"),
    ]
)


def loads_or_bundle_error(raw: bytes, suffix: str = ".yaml") -> None:
    """Load ``raw`` as a bundle file: a `Bundle` or a `BundleError`, nothing else."""
    with tempfile.TemporaryDirectory() as directory:
        path = write(Path(directory), "bundle" + suffix, raw)
        try:
            bundle = load_bundle(path, environ=ENVIRON)
        except BundleError as error:
            assert str(error) and error.problems
        else:
            assert isinstance(bundle, Bundle)


@FUZZ
@given(st.binary(max_size=600), st.sampled_from([".yaml", ".md"]))
@example(laughs(10).encode(), ".yaml")
@example(b"a: " + b"[" * 5000 + b"]" * 5000, ".yaml")
@example(b"---\n" + b"{" * 3000 + b"\n---\n", ".md")
@example(b"\xef\xbb\xbfa: 1\n", ".yaml")
@example(b"\xff\xfe\x00", ".yaml")
def test_any_bytes_give_a_bundle_or_a_bundle_error(raw: bytes, suffix: str) -> None:
    loads_or_bundle_error(raw, suffix)


@FUZZ
@given(TREES, st.booleans())
def test_any_yaml_tree_gives_a_bundle_or_a_bundle_error(tree: Any, markdown: bool) -> None:
    text = yaml.safe_dump(tree, allow_unicode=True)
    if markdown:
        loads_or_bundle_error(f"---\n{text}---\nbody\n".encode(), ".md")
    else:
        loads_or_bundle_error(text.encode())


@FUZZ
@given(st.fixed_dictionaries({}, optional={"bundle": TREES, "session": TREES, "hooks": TREES}))
def test_any_values_under_the_bundle_keys_give_a_bundle_or_a_bundle_error(
    tree: dict[str, Any],
) -> None:
    loads_or_bundle_error(yaml.safe_dump(tree, allow_unicode=True).encode())


@FUZZ
@given(st.lists(TOKENS, max_size=60))
def test_any_yaml_token_soup_gives_a_bundle_or_a_bundle_error(tokens: list[str]) -> None:
    loads_or_bundle_error("".join(tokens).encode("utf-8"))


# -- the same without libyaml ------------------------------------------------------------


@pytest.fixture(params=["libyaml", "pure-python"])
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test with each event source the loader may use (libyaml only if installed)."""
    name = str(request.param)
    if name == "libyaml":
        if not USING_LIBYAML:
            pytest.skip("PyYAML was built without libyaml here")
        monkeypatch.setattr(safe_yaml, "_EventSource", yaml.CSafeLoader)
    else:
        monkeypatch.setattr(safe_yaml, "_EventSource", yaml.SafeLoader)
    return name


def test_both_parsers_give_the_same_lines_keys_and_limits(parser: str, tmp_path: Path) -> None:
    bomb = write(tmp_path, "bomb.md", "---\n" + laughs(10) + "---\n")
    assert (error_of(bomb).line, error_of(bomb).key_path) == (6, "l4[1]")
    deep = write(tmp_path, "deep.yaml", "a:\n  b: " + "[" * 100 + "]" * 100 + "\n")
    assert error_of(deep).line == 2 and "nested deeper than 64" in str(error_of(deep))
    twice = write(tmp_path, "dup.yaml", "bundle: {name: a}\nhooks: []\nbundle: {name: b}\n")
    assert str(error_of(twice)) == (
        f"{at(twice, 3)}: bundle: duplicate key 'bundle' (first written on line 1)"
    )
    unclosed = write(tmp_path, "bad.yaml", "bundle:\n  name: x\nhooks: [a, b\nsession: {}\n")
    error = error_of(unclosed)
    assert error.line == 4 and "expected ',' or ']'" in str(error)
    assert "while parsing a flow sequence that starts on line 3" in str(error)
    good = write(tmp_path, "good.md", "---\nbundle: {name: ok}\nhooks: [m]\n---\n# ok\n")
    assert load_bundle(good).hooks[0].module == "m"


def test_a_key_that_overrides_a_merged_one_is_not_a_duplicate(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "merge.yaml",
        "hooks:\n  - module: m\n    config:\n      base: &b {a: 1, c: 3}\n"
        "      over: {<<: *b, a: 2}\n",
    )
    assert load_bundle(path).hooks[0].config["over"] == {"a": 2, "c": 3}
    twice = write(tmp_path, "twice.yaml", "hooks:\n  - module: m\n    config: {a: 1, a: 2}\n")
    assert str(error_of(twice)) == (
        f"{at(twice, 3)}: hooks[0].config.a: duplicate key 'a' (first written on line 3)"
    )


def test_an_included_token_file_is_not_quoted_in_the_error(tmp_path: Path) -> None:
    token = "Xk2" + "q" * 40  # a token file (as `serve` writes one) included by mistake
    write(tmp_path, "token", token + "\n")
    path = write(tmp_path, "b.yaml", "includes: [token]\n")
    message = str(error_of(path))
    assert token[:8] not in message
    assert "got a text of 43 characters" in message


def test_a_secret_shaped_key_is_named_by_its_length_not_quoted(tmp_path: Path) -> None:
    key = "ghp_" + "A1b2" * 9  # the shape of a GitHub token
    path = write(tmp_path, "b.yaml", f"{key}: 1\n")
    message = str(error_of(path))
    assert key[:10] not in message
    assert "[<a key of 40 characters>]: unknown key a text of 40 characters" in message
