"""Our OpenCode plugin needs nothing from npm: everything it imports is built into the
runtime. (OpenCode's own install of ``@opencode-ai/plugin`` may fail offline; ours loads
all the same, which tests/opencode/test_opencode_plugin.py shows on the real binary.)"""

from __future__ import annotations

import re
from pathlib import Path

from amplifier_hooks.hosts.opencode.install import OpenCodePlan

SPECIFIER = re.compile(
    r"""(?:\bimport\b[^"'`;]*?\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(["'`])([^"'`]+)\1"""
)


def imports(text: str) -> list[str]:
    """Every module specifier ``text`` imports: static, dynamic, or ``require``."""
    return [match.group(2) for match in SPECIFIER.finditer(text)]


def test_the_parser_sees_each_kind_of_import() -> None:
    text = (
        'import a from "@opencode-ai/plugin"\nimport { b } from "zod"\n'
        "import 'side-effect'\nconst c = await import(`node:fs`)\nrequire('x')\n"
    )
    assert imports(text) == ["@opencode-ai/plugin", "zod", "side-effect", "node:fs", "x"]


def test_the_installed_plugin_imports_only_node_builtins(tmp_path: Path) -> None:
    plan = OpenCodePlan(tmp_path / "b.md", "relay-2", "AMPLIFIER_HOOKS_TOKEN", "/nowhere")
    found = imports(plan.render())
    assert found and all(name.startswith("node:") for name in found), found
