"""Bundles: parsing, composition, env expansion, the schema, and every error a person sees."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amplifier_hooks.bundles import (
    Bundle,
    BundleError,
    HandlerOverride,
    HookEntry,
    bundle_json_schema,
    load_bundle,
)
from amplifier_hooks.bundles.env import expand_string
from amplifier_hooks.bundles.reading import display_path
from amplifier_hooks.bundles.safe_yaml import USING_LIBYAML

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "bundles"
MODULES = ROOT / "tests" / "fixtures" / "modules"


def fixture(name: str) -> Path:
    return FIXTURES / name


def where(path: Path, line: int) -> str:
    """How a message names a file and line (relative to the working directory if inside)."""
    return f"{display_path(path)}:{line}"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def error_of(path: Path, **kwargs: object) -> BundleError:
    with pytest.raises(BundleError) as info:
        load_bundle(path, **kwargs)  # type: ignore[arg-type]
    return info.value


# -- composition -------------------------------------------------------------------------


def test_composition_merges_includes_left_to_right_with_the_including_bundle_last() -> None:
    bundle = load_bundle(fixture("child.md"))

    assert bundle.name == "child"
    assert bundle.files == [fixture("base.yaml"), fixture("no_gate.yaml"), fixture("child.md")]
    assert [e.key for e in bundle.hooks] == ["echo-a", "single-file"]
    echo_a = bundle.hook("echo-a")
    assert echo_a is not None
    # config deep-merges: the child changes tag, keeps base's priority
    assert echo_a.config == {"tag": "a2", "priority": 10}
    # handler overrides merge field by field
    assert echo_a.handlers == {"stamp": HandlerOverride(priority=20, timeout=2.0)}
    # the child did not repeat module/source: inherited, source resolved against base.yaml
    assert echo_a.module == "fixture-echo"
    assert echo_a.source == str(MODULES / "fixture-echo")
    single = bundle.hook("single-file")
    assert single is not None and single.source == str(MODULES / "single_file_hook.py")
    # session deep-merges too: base's budget and policy, the child's size limit
    assert bundle.session.injection_budget_per_turn == 2000
    assert bundle.session.injection_size_limit == 4096
    policy = bundle.session.approvals.policy
    assert policy is not None and [r.tool for r in policy.rules] == ["read_file"]
    assert bundle.body.startswith("# Child bundle")


def test_enabled_false_removes_inherited_entries_including_from_a_sibling_include() -> None:
    bundle = load_bundle(fixture("child.md"))
    # no_gate.yaml (included after base.yaml) removed base's gate; child removed echo-b
    assert bundle.disabled == ["fixture-gate", "echo-b"]
    assert bundle.hook("fixture-gate") is None and bundle.hook("echo-b") is None


def test_entry_origin_names_the_last_file_that_wrote_it() -> None:
    bundle = load_bundle(fixture("child.md"))
    echo_a = bundle.hook("echo-a")
    assert echo_a is not None and echo_a.origin is not None
    assert (echo_a.origin.file, echo_a.origin.line) == (fixture("child.md"), 11)
    assert echo_a.origin.key_path == "hooks[0]"


def test_config_keys_remember_the_file_and_line_that_wrote_them(tmp_path: Path) -> None:
    base = write(
        tmp_path,
        "base.yaml",
        """
        hooks:
          - module: m
            config:
              keep: 1
              deep: {inner: 1, other: 2}
              gone: {below: 1}
        """,
    )
    top = write(
        tmp_path,
        "top.yaml",
        """
        includes: [base.yaml]
        hooks:
          - module: m
            config:
              deep: {other: 3}
              gone: flat
        """,
    )
    entry = load_bundle(top).hooks[0]

    def located(*path: str | int) -> tuple[str, str]:
        problem = entry.config_problem(path, "msg")
        assert problem is not None and problem.message == "msg"
        assert problem.file is not None and problem.line is not None
        return (where(problem.file, problem.line), problem.key_path)

    assert located("keep") == (where(base, 4), "hooks[0].config.keep")
    assert located("deep", "inner") == (where(base, 5), "hooks[0].config.deep.inner")
    assert located("deep", "other") == (where(top, 5), "hooks[0].config.deep.other")
    # a value that replaced a mapping takes what was below it along
    assert located("gone", "below") == (where(top, 6), "hooks[0].config.gone.below")
    # a key written nowhere: at its nearest written parent (the last file's config)
    assert located("missing") == (where(top, 4), "hooks[0].config.missing")
    assert located("deep", "missing") == (where(top, 5), "hooks[0].config.deep.missing")


def test_config_locations_start_over_when_the_entry_does(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "hooks:\n  - {id: g, module: m1, config: {a: 1}}\n")
    top = write(
        tmp_path,
        "top.yaml",
        "includes: [base.yaml]\nbundle: {name: t}\nhooks:\n  - {id: g, module: m2}\n",
    )
    entry = load_bundle(top).hooks[0]
    # m1's config is gone with m1; with no config written, the entry's own line
    problem = entry.config_problem(("a",), "msg")
    assert problem is not None
    assert (problem.file, problem.line, problem.key_path) == (top, 4, "hooks[0].config.a")
    assert HookEntry(module="m").config_problem(("a",), "msg") is None


def test_later_includes_win_and_the_including_file_wins_over_all(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "hooks: [{module: m, config: {tag: a, only_a: 1}}]\n")
    write(tmp_path, "b.yaml", "hooks: [{module: m, config: {tag: b}}]\n")
    ab = write(tmp_path, "ab.yaml", "includes: [a.yaml, b.yaml]\n")
    ba = write(tmp_path, "ba.yaml", "includes: [b.yaml, a.yaml]\n")
    own = write(
        tmp_path,
        "own.yaml",
        "includes: [a.yaml, b.yaml]\nhooks: [{module: m, config: {tag: own}}]\n",
    )

    assert load_bundle(ab).hooks[0].config == {"tag": "b", "only_a": 1}
    assert load_bundle(ba).hooks[0].config == {"tag": "a", "only_a": 1}
    assert load_bundle(own).hooks[0].config == {"tag": "own", "only_a": 1}


def test_lists_in_config_are_replaced_not_appended(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "hooks: [{module: m, config: {tools: [a, b], deep: {x: [1]}}}]\n")
    top = write(
        tmp_path, "top.yaml", "includes: base.yaml\nhooks: [{module: m, config: {tools: [c]}}]\n"
    )
    assert load_bundle(top).hooks[0].config == {"tools": ["c"], "deep": {"x": [1]}}


def test_a_different_module_under_the_same_id_replaces_the_entry(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "hooks: [{id: guard, module: m1, config: {a: 1}}]\n")
    top = write(tmp_path, "top.yaml", "includes: [base.yaml]\nhooks: [{id: guard, module: m2}]\n")
    entry = load_bundle(top).hooks[0]
    assert (entry.module, entry.config) == ("m2", {})


def test_an_entry_re_added_after_removal_starts_fresh(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "hooks: [{module: m, config: {a: 1}}]\n")
    write(tmp_path, "off.yaml", "hooks: [{module: m, enabled: false}]\n")
    top = write(tmp_path, "top.yaml", "includes: [base.yaml, off.yaml]\nhooks: [{module: m}]\n")
    bundle = load_bundle(top)
    assert bundle.hooks[0].config == {} and bundle.disabled == []


def test_disabling_what_nothing_enabled_is_a_warning(tmp_path: Path, logs: list[dict]) -> None:
    path = write(tmp_path, "b.yaml", "hooks:\n  - {module: hooks-loging, enabled: false}\n")
    assert load_bundle(path).hooks == []
    warning = next(r for r in logs if r["event"].startswith("bundle disables"))
    assert (warning["entry"], warning["line"]) == ("hooks-loging", 2)


def test_shorthand_strings_and_single_include(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "hooks: [ah-logging]\n")
    top = write(tmp_path, "top.yaml", "includes: base.yaml\nhooks:\n  - ah-redaction\n")
    bundle = load_bundle(top)
    assert [e.module for e in bundle.hooks] == ["ah-logging", "ah-redaction"]
    assert bundle.name == "top"  # no bundle: section -> the file name


def test_empty_sections_mean_defaults(tmp_path: Path) -> None:
    path = write(
        tmp_path, "b.yaml", "bundle:\nincludes:\nsession:\nhooks:\n  - module: m\n    config:\n"
    )
    bundle = load_bundle(path)
    assert bundle.hooks[0].config == {} and bundle.session.injection_budget_per_turn == 10_000


def test_version_written_as_a_number_is_text() -> None:
    assert load_bundle(fixture("base.yaml")).version == "1.0"


def test_approval_store_path_is_relative_to_the_file_that_names_it(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    write(tmp_path, "sub/base.yaml", "session: {approvals: {store: approvals.db}}\n")
    top = write(tmp_path, "top.yaml", "includes: [sub/base.yaml]\n")
    assert load_bundle(top).session.approvals.store == str(tmp_path / "sub" / "approvals.db")
    memory = write(tmp_path, "m.yaml", "session: {approvals: {store: ':memory:'}}\n")
    assert load_bundle(memory).session.approvals.store == ":memory:"


def test_bundle_built_in_code_validates_entries() -> None:
    bundle = Bundle(hooks=[HookEntry(module="ah-logging")])
    assert bundle.base_dir == Path.cwd()
    with pytest.raises(ValueError, match="two entries for 'm'"):
        Bundle(hooks=[HookEntry(module="m"), HookEntry(module="m")])
    with pytest.raises(ValueError, match=r"hooks\[0\] \(x\) has no module"):
        Bundle(hooks=[HookEntry(id="x")])


# -- environment expansion ---------------------------------------------------------------


def test_env_defaults_apply_when_unset() -> None:
    bundle = load_bundle(fixture("env.yaml"), environ={})
    entry = bundle.hooks[0]
    assert entry.config == {"tag": "plain-${literal}"}  # $${ is a literal ${
    assert entry.handlers["stamp"].priority == 7  # text from the env, typed by the schema
    assert entry.source == str(MODULES / "fixture-echo")
    assert bundle.session.injection_budget_per_turn == 1500


def test_env_values_replace_references() -> None:
    environ = {"ECHO_TAG": "prod", "STAMP_PRIORITY": "-3", "ECHO_BUDGET": "99"}
    bundle = load_bundle(fixture("env.yaml"), environ=environ)
    assert bundle.hooks[0].config["tag"] == "prod-${literal}"
    assert bundle.hooks[0].handlers["stamp"].priority == -3
    assert bundle.session.injection_budget_per_turn == 99


def test_env_empty_value_takes_the_default() -> None:
    bundle = load_bundle(fixture("env.yaml"), environ={"ECHO_TAG": ""})
    assert bundle.hooks[0].config["tag"] == "plain-${literal}"


def test_env_reads_os_environ_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ECHO_TAG", "from-os")
    assert load_bundle(fixture("env.yaml")).hooks[0].config["tag"] == "from-os-${literal}"


def test_env_unset_without_default_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "b.yaml", "hooks:\n  - module: m\n    config:\n      key: ${API_KEY}\n")
    error = error_of(path, environ={})
    assert str(error) == (
        f"{where(path, 4)}: hooks[0].config.key: environment variable API_KEY is not set "
        "(write ${API_KEY:-default} to give a default)"
    )


def test_env_malformed_reference_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "b.yaml", "bundle: {name: x}\nincludes: ['${1X}.yaml']\n")
    assert str(error_of(path, environ={})) == (
        f"{where(path, 2)}: includes[0]: malformed variable reference: expected ${{NAME}} or "
        "${NAME:-default} (write $${ for a literal ${)"
    )


def test_env_nested_default_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "b.yaml", "hooks: [{module: m, config: {a: '${A:-${B}}'}}]\n")
    assert "nested reference in the default of ${A} is not supported" in str(
        error_of(path, environ={})
    )


@given(st.text().filter(lambda s: "$" not in s))
def test_env_text_without_dollar_is_unchanged(text: str) -> None:
    assert expand_string(text, {}) == text


@given(st.text(), st.text(alphabet="ab$xyz{}-:", max_size=12))
def test_env_value_is_inserted_verbatim(value: str, suffix: str) -> None:
    # Whatever the variable holds (even "${...}") is inserted once, never expanded again.
    assert expand_string("${V}", {"V": value}) == value
    assert expand_string("${V}!", {"V": value}) == value + "!"


# -- errors a person sees ----------------------------------------------------------------


def test_unknown_key_names_file_line_path_and_the_choices() -> None:
    path = fixture("unknown_key.yaml")
    error = error_of(path)
    assert str(error) == (
        f"{where(path, 5)}: hooks[0].handlers.stamp.priorty: unknown key 'priorty' "
        "(did you mean 'priority'?); expected one of: enabled, fail_closed, priority, timeout"
    )
    assert isinstance(error, ValueError)
    assert (error.file, error.line, error.key_path) == (path, 5, "hooks[0].handlers.stamp.priorty")


def test_unknown_top_level_key(tmp_path: Path) -> None:
    path = write(tmp_path, "b.yaml", "bundle: {name: x}\nhook:\n  - module: m\n")
    assert str(error_of(path)) == (
        f"{where(path, 2)}: hook: unknown key 'hook' (did you mean 'hooks'?); "
        "expected one of: bundle, compat, hooks, includes, session, strict"
    )


def test_unknown_session_key_in_front_matter_counts_lines_from_the_file_top(
    tmp_path: Path,
) -> None:
    path = write(
        tmp_path,
        "b.md",
        """
        ---
        bundle: {name: x}
        session:
          injection_budget: 10
        ---
        text
        """,
    )
    assert str(error_of(path)) == (
        f"{where(path, 4)}: session.injection_budget: unknown key 'injection_budget' "
        "(did you mean 'injection_budget_per_turn'?); expected one of: approvals, "
        "injection_budget_per_turn, injection_refuse_roles, injection_size_limit"
    )


def test_bad_yaml_names_the_line_and_where_the_construct_began() -> None:
    path = fixture("bad_yaml.yaml")
    # libyaml does not say what it found instead; PyYAML's own parser does.
    found = "" if USING_LIBYAML else ", but got ':'"
    assert str(error_of(path)) == (
        f"{where(path, 6)}: invalid YAML: expected ',' or '}}'{found} (column 11), "
        "while parsing a flow mapping that starts on line 5"
    )


def test_bad_yaml_in_front_matter_is_offset(tmp_path: Path) -> None:
    path = write(tmp_path, "b.md", "---\nbundle:\n  name: [x\n---\n")
    error = error_of(path)
    assert error.line == 4 and "invalid YAML" in str(error)


def test_missing_include_names_the_including_file() -> None:
    path = fixture("missing_include.yaml")
    assert str(error_of(path)) == (
        f"{where(path, 4)}: includes[1]: included file not found: "
        f"{display_path(fixture('nowhere.yaml'))} (a relative include is relative to the "
        f"including file's folder, {path.parent})"
    )


def test_a_bundle_saved_elsewhere_that_includes_a_shipped_bundle_is_told_where_it_is(
    tmp_path: Path,
) -> None:
    from amplifier_hooks.cli.session import DEFAULT_BUNDLE

    mine = tmp_path / "mine.yaml"
    mine.write_text("includes: [bundles/default.md]\n")
    assert str(error_of(mine)).endswith(
        f"includes[0]: included file not found: {tmp_path / 'bundles' / 'default.md'} "
        f"(a relative include is relative to the including file's folder, {tmp_path}); "
        f"the shipped default.md is {DEFAULT_BUNDLE}"
    )


def test_include_cycle_names_the_including_file_and_the_cycle() -> None:
    a, b = fixture("cycle_a.yaml"), fixture("cycle_b.yaml")
    assert str(error_of(a)) == (
        f"{where(b, 3)}: includes[0]: include cycle: "
        f"{display_path(a)} -> {display_path(b)} -> {display_path(a)}"
    )


def test_an_error_inside_an_included_file_names_that_file(tmp_path: Path) -> None:
    inner = write(tmp_path, "inner.yaml", "hooks:\n  - module: m\n    enabled: maybe\n")
    top = write(tmp_path, "top.yaml", "includes: [inner.yaml]\n")
    assert (
        str(error_of(top))
        == f"{where(inner, 3)}: hooks[0].enabled: expected true or false, got 'maybe'"
    )


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("hooks: {module: m}\n", 1, "hooks: expected a list, got a mapping"),
        (
            "hooks:\n  - module: m\n    config: [1, 2]\n",
            3,
            "hooks[0].config: expected a mapping (key: value lines), got a list",
        ),
        (
            "hooks:\n  - module: m\n    handlers: {h: {priority: high}}\n",
            3,
            "hooks[0].handlers.h.priority: expected a whole number, got 'high'",
        ),
        (
            "hooks:\n  - module: m\n    handlers: {h: {timeout: -1}}\n",
            3,
            "hooks[0].handlers.h.timeout: expected a number greater than or equal to 0, got -1",
        ),
        (
            "hooks:\n  - module: 'not an id'\n",
            2,
            "hooks[0].module: expected a module id such as ah-logging (letters, digits, "
            "'-' and '_'), got 'not an id'",
        ),
        (
            "hooks:\n  - config: {}\n",
            2,
            "hooks[0]: expected 'module' (a module id such as ah-logging), or 'id' to "
            "change an entry inherited from an include",
        ),
        (
            "session:\n  approvals:\n    policy:\n      rules:\n"
            "        - {tool: bash, decision: maybe}\n",
            5,
            "session.approvals.policy.rules[0].decision: expected 'allow' or 'deny', got 'maybe'",
        ),
        (
            "session:\n  approvals: {provider: console, policy: {default: allow}}\n",
            2,
            "session.approvals: policy rules apply only with provider: policy or auto "
            "(got provider: console, which never consults them)",
        ),
        (
            "session:\n  injection_refuse_roles: [robot]\n",
            2,
            "session.injection_refuse_roles[0]: expected 'system', 'user' or 'assistant', "
            "got 'robot'",
        ),
        (
            "compat: [amplifier_kore]\n",
            1,
            "compat[0]: expected 'amplifier_core' or 'none', got 'amplifier_kore'",
        ),
        (
            "bundle: {name: x}\nbundle: {name: y}\n",
            2,
            "bundle: duplicate key 'bundle' (first written on line 1)",
        ),
        (
            "hooks:\n  - module: m\n  - {module: m, config: {a: 1}}\n",
            3,
            "hooks[1]: a second entry for 'm' (the first is hooks[0]); give one of them an id",
        ),
        (
            "hooks:\n  - id: only-an-id\n",
            2,
            "hooks[0]: entry 'only-an-id' has no module, and no included bundle defines an "
            "entry 'only-an-id' for it to change",
        ),
        ("- just\n- a list\n", 1, "expected a mapping of bundle keys at the top, got a list"),
        (
            "bundle: {name: x}\nsession:\n  approvals: {}\n  1: x\n",
            4,
            "session['1']: unknown key 1 (a number); expected one of: approvals, "
            "injection_budget_per_turn, injection_refuse_roles, injection_size_limit",
        ),
        (
            "session: {1: x}\n",
            1,
            "session['1']: unknown key 1 (a number); expected one of: approvals, "
            "injection_budget_per_turn, injection_refuse_roles, injection_size_limit",
        ),
        (
            "bundle: {name: x}\n0x10: y\n",
            2,
            "['16']: unknown key 16 (a number); expected one of: bundle, compat, hooks, "
            "includes, session, strict",
        ),
        (
            "hooks:\n  - module: m\n    handlers:\n      7: {priority: 1}\n",
            4,
            "hooks[0].handlers['7']: expected a text key, got 7 (a number); write '7' in quotes "
            "if that is the name",
        ),
        (
            "hooks:\n  - module: m\n    config:\n      a: 1\n      true: 2\n",
            5,
            "hooks[0].config.true: expected a text key, got true (a boolean); write 'true' in "
            "quotes if that is the name",
        ),
        (
            "hooks:\n  - module: m\n    config:\n      null: 2\n",
            4,
            "hooks[0].config.null: expected a text key, got null; write 'null' in quotes if "
            "that is the name",
        ),
    ],
)
def test_validation_errors_read_like_instructions(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    path = write(tmp_path, "b.yaml", text)
    assert str(error_of(path)) == f"{where(path, line)}: {message}"


def test_several_problems_are_reported_together(tmp_path: Path) -> None:
    path = write(tmp_path, "b.yaml", "strict: sometimes\nhooks:\n  - module: m\n    colour: red\n")
    lines = str(error_of(path)).splitlines()
    assert lines == [
        f"{where(path, 1)}: strict: expected true or false, got 'sometimes'",
        f"{where(path, 4)}: hooks[0].colour: unknown key 'colour'; expected one of: config, "
        "enabled, handlers, id, module, optional, source",
    ]


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "b.md",
            "bundle: {name: x}\n",
            "1: expected YAML front matter: a Markdown bundle must start with a '---' line",
        ),
        (
            "b.md",
            "---\nbundle: {name: x}\n",
            "1: front matter is not closed: expected a '---' line after the YAML",
        ),
        (
            "b.yaml",
            "a: 1\n---\nb: 2\n",
            "2: invalid YAML: a bundle holds one YAML document, "
            "but a second one starts here (a '---' line?)",
        ),
    ],
)
def test_file_shape_errors(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert str(error_of(path)) == f"{display_path(path)}:{message}"


def test_missing_bundle_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.yaml"
    assert str(error_of(path)) == f"{display_path(path)}: bundle file not found"


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_bytes(b"bundle: {name: \xff}\n")
    assert "not UTF-8 text" in str(error_of(path))


def test_an_empty_file_is_an_empty_bundle(tmp_path: Path) -> None:
    path = write(tmp_path, "empty.yaml", "")
    assert load_bundle(path).hooks == []


# -- schema and the shipped bundles ----------------------------------------------------


def test_exported_schema_is_current() -> None:
    on_disk = json.loads((ROOT / "docs" / "bundle.schema.json").read_text(encoding="utf-8"))
    assert on_disk == bundle_json_schema()


def test_schema_describes_the_format_for_editors() -> None:
    schema = bundle_json_schema()
    assert schema["additionalProperties"] is False
    assert set(schema["properties"]) == {
        "bundle",
        "includes",
        "strict",
        "compat",
        "session",
        "hooks",
        # Amplifier's sections for other kinds of module: accepted, ignored
        *("tools", "providers", "agents", "context", "spawn", "orchestrator", "ui"),
    }
    items = schema["properties"]["hooks"]["items"]["anyOf"]
    assert items[0]["type"] == "string"
    entry = schema["$defs"]["HookEntry"]
    assert entry["additionalProperties"] is False
    assert set(entry["properties"]) == {
        "module",
        "source",
        "id",
        "enabled",
        "optional",
        "config",
        "handlers",
    }
    assert "reported" in entry["properties"]["optional"]["description"]
    assert "description" in entry["properties"]["source"]
    # config belongs to the module: any keys
    assert entry["properties"]["config"].get("additionalProperties", True) is True


@pytest.mark.parametrize("name", ["default.md", "strict.yaml", "minimal.yaml"])
def test_shipped_bundles_parse_and_point_at_real_modules(name: str) -> None:
    bundle = load_bundle(ROOT / "bundles" / name, environ={})
    assert bundle.hooks
    for entry in bundle.hooks:
        assert entry.source is not None
        package = Path(entry.source) / entry.import_name
        assert (package / "__init__.py").is_file(), f"{name}: {entry.key} has no {package}"


def test_strict_bundle_is_strict_and_fails_closed() -> None:
    bundle = load_bundle(ROOT / "bundles" / "strict.yaml", environ={})
    assert bundle.strict is True
    approvals = bundle.session.approvals
    assert approvals.policy is not None and approvals.policy.default == "deny"
