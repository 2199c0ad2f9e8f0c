"""Write docs/api.md, the API reference, from the package's own signatures and docstrings.

Run ``.venv/bin/python scripts/gen_api_docs.py`` after changing the public API;
``--check`` exits 1 if docs/api.md is out of date (tests/test_api_docs.py compares the two).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
import sys
import typing
from pathlib import Path
from typing import Any

import amplifier_hooks

TARGET = Path(__file__).resolve().parent.parent / "docs" / "api.md"

SUBPACKAGES = (
    "amplifier_hooks.engine.registry",
    "amplifier_hooks.engine.fold",
    "amplifier_hooks.engine.collection",
    "amplifier_hooks.session.coordinator",
    "amplifier_hooks.engine.channels",
    "amplifier_hooks.injection",
    "amplifier_hooks.approvals",
    "amplifier_hooks.ui.approval_app",
    "amplifier_hooks.ui.approval_screen",
    "amplifier_hooks.ui.console",
    "amplifier_hooks.ui.providers",
    "amplifier_hooks.bundles",
    "amplifier_hooks.modules",
    "amplifier_hooks.hosts",
    "amplifier_hooks.transports.http",
    "amplifier_hooks.testing",
    "amplifier_hooks.testing.turns",
    "amplifier_hooks.testing.messages_api",
    "amplifier_hooks.testing.responses_api",
    "amplifier_hooks.testing.gemini_api",
    "amplifier_hooks.testing.chat_completions",
    "amplifier_hooks.testing.claude_code",
    "amplifier_hooks.testing.gemini_cli",
    "amplifier_hooks.testing.copilot_cli",
    "amplifier_hooks.testing.opencode_cli",
    "amplifier_hooks.testing.cline_cli",
    "amplifier_hooks.testing.servers",
    "amplifier_hooks.amplifier.alias",
    "amplifier_hooks.typing",
)
"""Public subpackages documented after the top level, each from its own ``__all__``."""

HEADER = """# API reference

Generated from the code by `scripts/gen_api_docs.py`; do not edit by hand. Every name up to
the first `##` section is importable from `amplifier_hooks` (listed in its `__all__`); each
section after it is a public subpackage (its own `__all__`). The guides explain how the
pieces fit: [handlers](handlers.md), [injection](injection.md), [approvals](approvals.md),
[coordinator](coordinator.md), [bundles](bundles.md), [CLI](cli.md).
"""


def first_paragraph(obj: Any) -> str:
    doc = inspect.getdoc(obj) or ""
    return doc.split("\n\n")[0].replace("\n", " ").strip()


_ADDRESS = re.compile(r" at 0x[0-9a-f]+")
"""A function's memory address in its repr: different on every run, so the file would be
out of date as soon as it was written."""


def signature(obj: Any) -> str:
    try:
        # eval_str turns postponed annotations back into readable types; names only
        # imported for type checking cannot be evaluated, so fall back to the strings.
        return _ADDRESS.sub("", str(inspect.signature(obj, eval_str=True)))
    except (NameError, TypeError, AttributeError, ValueError):
        pass
    try:
        return str(inspect.signature(obj)).replace("'", "")
    except (TypeError, ValueError):
        return "(...)"


def public_members(cls: type) -> list[tuple[str, Any]]:
    """The class's own public methods and properties, then those of its mixins (the
    package's classes named ``*Mixin``, as the Coordinator's parts are): they are as much
    its API as what it defines itself."""
    members = []
    seen: set[str] = set()
    for owner in cls.__mro__:
        if owner is not cls and not _is_mixin(owner):
            continue
        for name, value in vars(owner).items():
            if name in seen:
                continue  # overridden further down the class tree
            seen.add(name)
            if name.startswith("_") or name in {"model_config", "model_fields"}:
                continue
            if isinstance(value, classmethod | staticmethod):
                value = value.__func__
            if inspect.isfunction(value) or isinstance(value, property):
                members.append((name, value))
    return members


def _is_mixin(cls: type) -> bool:
    return cls.__name__.endswith("Mixin") and cls.__module__.startswith("amplifier_hooks.")


def describe(name: str, obj: Any) -> list[str]:
    lines: list[str] = []
    if inspect.ismodule(obj):
        lines += [f"### `{name}` (module)", "", first_paragraph(obj), ""]
        constants = [n for n in vars(obj) if n.isupper() and not n.startswith("_")]
        if constants:
            lines += [", ".join(f"`{c}`" for c in constants), ""]
        return lines
    if inspect.isclass(obj):
        if getattr(obj, "_is_protocol", False):  # its signature says nothing
            lines += [f"### `{name}` (protocol)", "", first_paragraph(obj), ""]
        else:
            kind = "exception" if issubclass(obj, BaseException) else "class"
            lines += [f"### `{name}{signature(obj)}` ({kind})", "", first_paragraph(obj), ""]
        fields = getattr(obj, "model_fields", None)
        if fields:
            own = [f for f in fields if not f.startswith("_")]
            lines += ["Fields: " + ", ".join(f"`{f}`" for f in own) + ".", ""]
        for member, value in public_members(obj):
            if isinstance(value, property):
                lines.append(f"- `.{member}` (property): {first_paragraph(value)}")
            else:
                prefix = "async " if inspect.iscoroutinefunction(value) else ""
                lines.append(f"- `{prefix}{member}{signature(value)}`: {first_paragraph(value)}")
        if lines[-1] != "":
            lines.append("")
        return lines
    if typing.get_origin(obj) is typing.Annotated:
        base = typing.get_args(obj)[0].__name__
        checks = " ".join(first_paragraph(m.func) for m in obj.__metadata__ if hasattr(m, "func"))
        return [f"### `{name}`", "", f"A field type: `{base}`. {checks}".rstrip(), ""]
    if typing.get_origin(obj) is not None:
        return [f"### `{name}`", "", f"A type alias: `{_type_text(obj)}`.", ""]
    if callable(obj):
        prefix = "async " if inspect.iscoroutinefunction(obj) else ""
        return [f"### `{prefix}{name}{signature(obj)}`", "", first_paragraph(obj), ""]
    return [f"### `{name}`", "", f"A constant: `{obj!r}`.", ""]


def _type_text(obj: Any) -> str:
    return repr(obj).replace("typing.", "").replace("collections.abc.", "")


def render() -> str:
    parts = [HEADER]
    for name in sorted(amplifier_hooks.__all__, key=str.lower):
        parts.append("\n".join(describe(name, getattr(amplifier_hooks, name))))
    for dotted in SUBPACKAGES:
        package = importlib.import_module(dotted)
        parts.append(f"## `{dotted}`\n\n{first_paragraph(package)}\n")
        for name in sorted(package.__all__, key=str.lower):
            parts.append("\n".join(describe(name, getattr(package, name))))
    return "\n".join(parts).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if docs/api.md is stale")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET} is out of date: run python scripts/gen_api_docs.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
