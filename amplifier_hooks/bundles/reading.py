"""Reading one bundle file: front matter, YAML with line numbers, `${VAR}` expansion.

Every problem becomes a `BundleError` that names the file, the line and the key path, so
a person can go straight to the spot. Line numbers come from the composed YAML node tree
(PyYAML's data loses them), which is also where duplicate keys are caught: PyYAML would
otherwise keep the last one silently. Whatever the bytes, the result is a `Document` or a
`BundleError`, within the limits of `safe_yaml.LIMITS`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from amplifier_hooks.bundles.safe_yaml import (
    LIMITS,
    LimitError,
    PlacedError,
    SecondDocument,
    compose,
    construct,
    find_unprintable,
)
from amplifier_hooks.modules.validation_messages import (
    KEY_QUOTED_AT_MOST,
    describe_value,
    quotable,
)

KeyPath = tuple[str | int, ...]

FRONT_MATTER_SUFFIXES = frozenset({".md", ".markdown"})
_FENCE_CLOSERS = ("---", "...")
_MAX_DEPTH = LIMITS.max_depth


def display_path(path: Path | str | None) -> str:
    """``path`` relative to the working directory when it is inside it, else absolute."""
    if path is None:
        return "<bundle>"
    path = Path(path)
    try:
        shown = str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        shown = str(path)
    # A NUL or a control character in a name would garble the message that names it.
    return shown if shown.isprintable() else repr(shown)[1:-1]


def render_key_path(path: KeyPath) -> str:
    """``("hooks", 2, "config", "level")`` -> ``hooks[2].config.level``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not quotable(part, KEY_QUOTED_AT_MOST):
            # Not quoted: a long or secret-shaped key may be a token (see QUOTED_AT_MOST).
            out += f"[<a key of {len(part):,} characters>]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", part):
            out += f".{part}" if out else part
        else:
            out += f"[{part!r}]"
    return out


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a bundle, located as precisely as we can."""

    message: str
    file: Path | None = None
    line: int | None = None
    key_path: str = ""

    def __str__(self) -> str:
        where = display_path(self.file) if self.file is not None else ""
        if where and self.line is not None:
            where += f":{self.line}"
        parts = [p for p in (where, self.key_path, self.message) if p]
        return ": ".join(parts)


class BundleError(ValueError):
    """A bundle cannot be used. ``str(error)`` is the message for the person: one line
    per problem, each with file, line (where known), key path and what was expected."""

    def __init__(self, problems: list[Problem] | Problem | str) -> None:
        if isinstance(problems, str):
            problems = [Problem(problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        if not problems:
            raise ValueError("BundleError needs at least one problem")
        self.problems: list[Problem] = problems
        super().__init__("\n".join(str(p) for p in problems))

    @property
    def file(self) -> Path | None:
        """The file of the first problem."""
        return self.problems[0].file

    @property
    def line(self) -> int | None:
        """The line of the first problem, if known."""
        return self.problems[0].line

    @property
    def key_path(self) -> str:
        """The key path of the first problem (``hooks[2].config``), possibly empty."""
        return self.problems[0].key_path


@dataclass
class Document:
    """One parsed bundle file: its data, where each key path sits, and its Markdown body."""

    path: Path
    data: Any
    lines: dict[KeyPath, int] = field(default_factory=dict)
    body: str = ""

    def line_for(self, path: KeyPath) -> int | None:
        """The line of ``path``, or of its nearest ancestor that exists in the file (a
        missing key is reported at the mapping that lacks it)."""
        for end in range(len(path), -1, -1):
            line = self.lines.get(path[:end])
            if line is not None:
                return line
        return None

    def problem(self, path: KeyPath, message: str) -> Problem:
        """A `Problem` at ``path`` in this file."""
        return Problem(message, self.path, self.line_for(path), render_key_path(path))


@dataclass(frozen=True)
class Written:
    """Where something was written: a document and its key path there. Kept after
    composition, so a value inherited from an include is reported in the include."""

    doc: Document
    where: KeyPath

    def problem(self, below: KeyPath, message: str) -> Problem:
        """A `Problem` at ``below`` inside what was written here (or at its nearest
        ancestor in this file, when ``below`` itself is not in it)."""
        return self.doc.problem((*self.where, *below), message)


def read_document(path: Path) -> Document:
    """Read and parse ``path`` (front matter for ``*.md``, else plain YAML)."""
    text = _read_text(path)
    body = ""
    offset = 0
    if path.suffix.lower() in FRONT_MATTER_SUFFIXES:
        text, offset, body = split_front_matter(text, path)
    data, lines = parse_yaml(text, path, offset)
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        got = describe_value(data)
        raise BundleError(
            Problem(f"expected a mapping of bundle keys at the top, got {got}", path, offset + 1)
        )
    return Document(path, data, lines, body)


def _read_text(path: Path) -> str:
    """The file's text, refusing one over the size limit before reading all of it."""
    limit = LIMITS.max_file_bytes
    try:
        raw = _read_at_most(path, limit)
    except FileNotFoundError:
        raise BundleError(Problem("bundle file not found", path)) from None
    except IsADirectoryError:
        raise BundleError(Problem("expected a bundle file, got a directory", path)) from None
    except OSError as exc:
        raise BundleError(Problem(f"cannot read file: {exc.strerror or exc}", path)) from None
    except ValueError as exc:  # a NUL in the path, or a name the OS cannot encode
        raise BundleError(Problem(f"cannot read file: {exc}", path)) from None
    if raw is None:
        raise _too_large(path, limit)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BundleError(Problem(f"not UTF-8 text ({exc.reason})", path)) from None


def _read_at_most(path: Path, limit: int) -> bytes | None:
    """The file's bytes, or None when it holds more than ``limit``. A regular file that
    says it is larger is not read at all; otherwise the buffer is what the file holds,
    never a buffer of the limit's size up front."""
    with path.open("rb") as handle:
        expected = os.fstat(handle.fileno()).st_size  # 0 for a pipe
        if expected > limit:
            return None
        raw = handle.read(expected + 1)
        if len(raw) > expected:  # a pipe, or a file that grew meanwhile
            raw += handle.read(limit + 1 - len(raw))
        return raw if len(raw) <= limit else None


def _too_large(path: Path, limit: int) -> BundleError:
    return BundleError(
        Problem(
            f"file is larger than {_size(limit)}, the limit for a bundle file "
            "(see 'Limits' in docs/bundles.md)",
            path,
        )
    )


def split_front_matter(text: str, path: Path) -> tuple[str, int, str]:
    """The YAML between the opening and closing ``---`` lines, how many lines precede it,
    and the Markdown after it."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip() != "---":
        raise BundleError(
            Problem(
                "expected YAML front matter: a Markdown bundle must start with a '---' line",
                path,
                1,
            )
        )
    for index in range(1, len(lines)):
        if lines[index].rstrip() in _FENCE_CLOSERS:
            return "".join(lines[1:index]), 1, "".join(lines[index + 1 :])
    raise BundleError(
        Problem("front matter is not closed: expected a '---' line after the YAML", path, 1)
    )


def parse_yaml(text: str, path: Path, offset: int = 0) -> tuple[Any, dict[KeyPath, int]]:
    """Parse one YAML document; return its data and a map of key path -> file line."""
    bad = find_unprintable(text)
    if bad is not None:
        char, line, column = bad
        raise BundleError(
            Problem(
                f"invalid YAML: character U+{ord(char):04X} is not allowed in YAML "
                f"(column {column + 1}); write it as an escape in a double-quoted string",
                path,
                line + 1 + offset,
            )
        )
    lines: dict[KeyPath, int] = {}
    places: dict[int, KeyPath] = {}  # id(start mark of a node) -> its key path
    try:
        node = compose(text)
        if node is not None:
            # Before construction, which flattens merge keys (`<<: *base`) into the
            # mapping in place: a key that overrides a merged one is not a duplicate.
            _map_lines(node, (), lines, offset, path, 0, places)
        data = construct(node) if node is not None else None
    except LimitError as exc:
        raise BundleError(_limit_problem(exc, path, offset)) from None
    except SecondDocument as exc:
        mark = exc.problem_mark
        second = mark.line + 1 + offset if mark is not None else None
        what = "a bundle holds one YAML document, but a second one starts here (a '---' line?)"
        raise BundleError(Problem(f"invalid YAML: {what}", path, second)) from None
    except yaml.MarkedYAMLError as exc:
        raise BundleError(_yaml_problem(exc, path, offset, places)) from None
    except yaml.YAMLError as exc:
        raise BundleError(Problem(f"invalid YAML: {exc}", path)) from None
    return data, lines


def _limit_problem(exc: LimitError, path: Path, offset: int) -> Problem:
    mark = exc.problem_mark
    line = mark.line + 1 + offset if mark is not None else None
    what = f"{exc.problem} (see 'Limits' in docs/bundles.md)"
    return Problem(what, path, line, render_key_path(exc.key_path))


def _yaml_problem(
    exc: yaml.MarkedYAMLError, path: Path, offset: int, places: dict[int, KeyPath]
) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    # Composing knows the key path; for a value construction refused, _map_lines placed
    # the mark of its node.
    where = places.get(id(exc.problem_mark), ())
    if isinstance(exc, PlacedError):
        where = exc.key_path
    line = mark.line + 1 + offset if mark is not None else None
    what = exc.problem or exc.context or "unreadable YAML"
    # libyaml says "did not find expected ',' or '}'" where PyYAML says "expected ...".
    what = re.sub(r"^did not find expected\b", "expected", what)
    context = exc.context_mark
    if mark is not None:
        what += f" (column {mark.column + 1})"
    if exc.problem and exc.context and context is not None and context is not mark:
        # Where the unfinished construct began: usually where the mistake is.
        what += f", {exc.context} that starts on line {context.line + 1 + offset}"
    return Problem(f"invalid YAML: {what}", path, line, render_key_path(where))


_STR_TAG = "tag:yaml.org,2002:str"


def _key_aliases(key_node: yaml.Node) -> list[Any]:
    """How validation may name a key YAML does not read as text (``1:``, ``true:``,
    ``null:``): its value and that value as text, so its line can be found either way."""
    if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _STR_TAG:
        return []
    try:
        value = yaml.constructor.SafeConstructor().construct_object(key_node)
    except Exception:  # construction reports it, at its line
        return []
    try:
        hash(value)
    except TypeError:
        return []
    return [value, str(value)]


def _map_lines(
    node: yaml.Node,
    path: KeyPath,
    lines: dict[KeyPath, int],
    offset: int,
    file: Path,
    depth: int,
    places: dict[int, KeyPath],
) -> None:
    if depth > _MAX_DEPTH:  # refused while composing; a guard all the same
        return
    lines.setdefault(path, node.start_mark.line + 1 + offset)
    places.setdefault(id(node.start_mark), path)
    if isinstance(node, yaml.MappingNode):
        first_seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                # A list or mapping as a key cannot be constructed (it is unhashable):
                # the problem is reported at the mapping that holds it.
                places.setdefault(id(key_node.start_mark), path)
                continue
            key = str(key_node.value)
            key_line = key_node.start_mark.line + 1 + offset
            if key in first_seen and key != "<<":
                raise BundleError(
                    Problem(
                        f"duplicate key {key!r} (first written on line {first_seen[key]})",
                        file,
                        key_line,
                        render_key_path((*path, key)),
                    )
                )
            first_seen[key] = key_line
            # The key's own line, not its value's: a block value starts a line later.
            lines[(*path, key)] = key_line
            places.setdefault(id(key_node.start_mark), (*path, key))
            for alias in _key_aliases(key_node):
                lines.setdefault((*path, alias), key_line)
            _map_lines(value_node, (*path, key), lines, offset, file, depth + 1, places)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _map_lines(item, (*path, index), lines, offset, file, depth + 1, places)


def _size(count: int) -> str:
    """``1048576`` -> ``1 MiB``; ``262144`` -> ``256 KiB``."""
    for unit, scale in (("MiB", 1024 * 1024), ("KiB", 1024)):
        if count >= scale and count % scale == 0:
            return f"{count // scale:,} {unit}"
    return f"{count:,} byte" if count == 1 else f"{count:,} bytes"
