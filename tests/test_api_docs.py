"""docs/api.md covers the whole public API."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import amplifier_hooks

ROOT = Path(__file__).resolve().parent.parent


def test_every_public_name_is_documented_in_the_api_reference() -> None:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^### `(?:async )?([A-Za-z_]\w*)", text, re.MULTILINE))
    missing = sorted(set(amplifier_hooks.__all__) - headings)
    assert not missing, f"not in docs/api.md (run scripts/gen_api_docs.py): {missing}"


def test_the_generator_runs_and_renders_every_name(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.path.insert(0, 'scripts');"
            "import gen_api_docs; print(gen_api_docs.render())",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    for name in amplifier_hooks.__all__:
        assert f"`{name}" in done.stdout or f"`async {name}" in done.stdout


def test_the_module_authors_kit_has_its_own_section() -> None:
    import amplifier_hooks.kit

    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = text.split("## `amplifier_hooks.kit`", 1)[1]
    headings = set(re.findall(r"^### `(?:async )?([A-Za-z_]\w*)", section, re.MULTILINE))
    missing = sorted(set(amplifier_hooks.kit.__all__) - headings)
    assert not missing, f"not in docs/api.md (run scripts/gen_api_docs.py): {missing}"
