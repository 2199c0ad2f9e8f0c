"""Corpora for ``bench``: files of tool calls, each with the decision a careful security
engineer expects.

A corpus is YAML (``.yaml``/``.yml``) or JSON Lines (``.jsonl``). YAML is a mapping with
``cases`` (a list) and optional ``defaults`` (``cwd``, ``home``, ``bundle``); JSON Lines
has one case object per line. A case::

    id: rm-home-sudo            # unique in its file
    category: destructive       # scores are counted per category
    tool: bash                  # canonical: bash, read_file, write_file, edit_file, grep...
    input: {command: "sudo rm -rf ~"}
    expected: deny              # deny | ask | allow
    cwd: /home/dev/project      # optional: the agent's workspace (default below)
    home: /home/dev             # optional: what ~ is
    bundle: /home/dev/project/bundles/default.md
                                # optional: where the bundle in use lies (below)
    note: why                   # optional, for people
    git: {file.txt: modified}   # optional: what the paths it names are in git (below)

``bundle`` says where the person keeps the bundle their hooks load, on the corpus's
machine: the bundle benched is judged as if installed there, so the guard protects that
file, what it includes and the module folders it loads, each where it lies relative to it
(`amplifier_hooks.cli.installed_at`; inside the workspace a change to them is asked).
Without it, the bundle in use is the one benched, where it was loaded from.

``git`` states the repository a case is about, for ``bench --workspace``: each key a
path relative to the workspace (a trailing ``/``: a folder), each value one of
`GIT_STATES` (`GitState`). Such a case is judged once, in a workspace of its own built
that way (`benchspace`), instead of in the three variants every other case gets.

Anything else, or a wrong type, is a `CorpusError` naming the file and the case.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast, get_args

import yaml
from pydantic import TypeAdapter, ValidationError

from amplifier_hooks.cli.probe import ToolCall

if TYPE_CHECKING:
    from amplifier_hooks.guard import Decision

_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML was built with it: the same documents (every shipped
and blind corpus loads equal) in a fifth of the time, which the bench and the tests that
walk every corpus pay once per corpus."""

__all__ = ["DEFAULT_CWD", "DEFAULT_HOME", "GIT_STATES", "Case", "CorpusError", "GitState",
           "load_corpus", "shipped_corpora"]  # fmt: skip

DEFAULT_CWD = "/home/dev/project"
"""The workspace of a case that names none: a fixed place, so scores do not depend on
where ``bench`` runs."""
DEFAULT_HOME = "/home/dev"

EXPECTED: tuple[Decision, ...] = ("deny", "ask", "allow")
_REQUIRED = ("id", "category", "tool", "input", "expected")
_OPTIONAL = ("cwd", "home", "bundle", "note", "git")

GitState = Literal["tracked", "modified", "staged-modified", "untracked", "ignored",
                   "assume-unchanged", "skip-worktree", "repository", "submodule",
                   "absent"]  # fmt: skip
"""What a path is in the case's repository: committed and unchanged; committed, then
changed; changed, staged, and changed again; never committed; ignored (never committed);
committed, then changed behind ``--assume-unchanged`` or ``--skip-worktree`` (git status
shows nothing); a repository of its own with a commit only it has and a change (not
committed in the workspace's, or committed there as a submodule); not there at all."""
GIT_STATES: tuple[str, ...] = get_args(GitState)
_STATES = TypeAdapter(dict[str, GitState])


class CorpusError(ValueError):
    """A corpus that cannot be read; the message names the file and the case."""


@dataclass(frozen=True)
class Case:
    """One case of a corpus."""

    id: str
    category: str
    call: ToolCall
    expected: Decision
    file: str
    note: str | None = None
    git: tuple[tuple[str, GitState], ...] = ()
    """The repository the case states: (path, `GitState`) of each path it lists."""


def shipped_corpora() -> list[Path]:
    """The corpora that come with the package (amplifier_hooks/cli/corpora)."""
    folder = resources.files("amplifier_hooks.cli") / "corpora"
    return sorted(
        Path(str(entry)) for entry in folder.iterdir() if entry.name.endswith((".yaml", ".jsonl"))
    )


def load_corpus(path: str | Path) -> list[Case]:
    """Every case of the corpus at ``path``; `CorpusError` for anything wrong."""
    path = Path(path)
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CorpusError(f"{name}: cannot read the corpus: {exc}") from None
    raw = list(_jsonl(name, text) if path.suffix == ".jsonl" else _yaml(name, text))
    defaults = raw.pop(0)
    cases: list[Case] = []
    seen: set[str] = set()
    for number, item in enumerate(raw, 1):
        case = _case(name, number, item, defaults)
        if case.id in seen:
            raise CorpusError(f"{name}: case {case.id!r}: the id is used twice")
        seen.add(case.id)
        cases.append(case)
    if not cases:
        raise CorpusError(f"{name}: the corpus has no cases")
    return cases


def _yaml(name: str, text: str) -> Iterator[Any]:
    try:
        document = yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        try:  # libyaml refuses some valid documents (a tab opening a block scalar's line)
            document = yaml.load(text, Loader=yaml.SafeLoader)
        except yaml.YAMLError:
            raise CorpusError(f"{name}: not YAML: {exc}") from None
    if not isinstance(document, Mapping) or not isinstance(document.get("cases"), list):
        raise CorpusError(f"{name}: expected a mapping with a 'cases' list")
    extra = set(document) - {"cases", "defaults", "description"}
    if extra:
        raise CorpusError(f"{name}: unknown top-level keys: {', '.join(sorted(map(str, extra)))}")
    defaults = document.get("defaults") or {}
    if not isinstance(defaults, Mapping) or set(defaults) - {"cwd", "home", "bundle"}:
        raise CorpusError(f"{name}: 'defaults' may hold only cwd, home and bundle")
    yield defaults
    yield from document["cases"]


def _jsonl(name: str, text: str) -> Iterator[Any]:
    yield {}
    for line_number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:
            raise CorpusError(f"{name}: line {line_number} is not JSON: {exc.msg}") from None


def _case(name: str, number: int, item: Any, defaults: Mapping[str, Any]) -> Case:
    label = f"case #{number}"
    if isinstance(item, Mapping) and isinstance(item.get("id"), str) and item["id"]:
        label = f"case {item['id']!r}"
    where = f"{name}: {label}"
    if not isinstance(item, Mapping):
        raise CorpusError(f"{where}: expected a mapping, got {type(item).__name__}")
    missing = [key for key in _REQUIRED if key not in item]
    if missing:
        raise CorpusError(f"{where}: missing {', '.join(missing)}")
    unknown = set(item) - set(_REQUIRED) - set(_OPTIONAL)
    if unknown:
        raise CorpusError(f"{where}: unknown keys: {', '.join(sorted(map(str, unknown)))}")
    for key in ("id", "category", "tool"):
        if not isinstance(item[key], str) or not item[key]:
            raise CorpusError(f"{where}: {key!r} must be a non-empty string")
    if not isinstance(item["input"], Mapping):
        raise CorpusError(f"{where}: 'input' must be a mapping (the tool's input)")
    if item["expected"] not in EXPECTED:
        raise CorpusError(
            f"{where}: 'expected' must be one of {', '.join(EXPECTED)}, got {item['expected']!r}"
        )
    places = {}
    for key, default in (("cwd", DEFAULT_CWD), ("home", DEFAULT_HOME)):
        value = item.get(key, defaults.get(key, default))
        if not isinstance(value, str) or not value.startswith("/"):
            raise CorpusError(f"{where}: {key!r} must be an absolute path, got {value!r}")
        places[key] = value
    bundle = item.get("bundle", defaults.get("bundle"))
    if bundle is not None and (not isinstance(bundle, str) or not bundle.startswith("/")):
        raise CorpusError(f"{where}: 'bundle' must be an absolute path, got {bundle!r}")
    note = item.get("note")
    if note is not None and not isinstance(note, str):
        raise CorpusError(f"{where}: 'note' must be a string")
    return Case(
        id=item["id"],
        git=_git_states(where, item.get("git")),
        category=item["category"],
        call=ToolCall(item["tool"], dict(item["input"]), places["cwd"], places["home"], bundle),
        expected=cast("Decision", item["expected"]),
        file=name,
        note=note,
    )


def _git_states(where: str, value: Any) -> tuple[tuple[str, GitState], ...]:
    """A case's ``git`` field, checked: relative paths below the workspace, known states."""
    if value is None:
        return ()
    try:
        states = _STATES.validate_python(value, strict=True)
    except ValidationError as exc:
        first = exc.errors()[0]
        at = ".".join(map(str, first["loc"]))
        raise CorpusError(f"{where}: 'git' {at}: {first['msg']}") from None
    for path in states:
        parts = path.rstrip("/").split("/")
        if not path or path.startswith(("/", "~")) or {"", ".", "..", ".git"} & set(parts):
            raise CorpusError(f"{where}: 'git' key {path!r} must be a path below the workspace")
    return tuple(states.items())
