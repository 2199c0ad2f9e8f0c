"""docs/api.md covers the whole public API."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import amplifier_hooks

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from gen_api_docs import SUBPACKAGES  # noqa: E402


def test_every_public_name_is_documented_in_the_api_reference() -> None:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^### `(?:async )?([A-Za-z_]\w*)", text, re.MULTILINE))
    missing = sorted(set(amplifier_hooks.__all__) - headings)
    assert not missing, f"not in docs/api.md (run scripts/gen_api_docs.py): {missing}"


def test_the_generator_renders_every_name_and_docs_api_md_is_what_it_renders() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.path.insert(0, 'scripts');"
            "import gen_api_docs; sys.stdout.write(gen_api_docs.render())",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    for name in amplifier_hooks.__all__:
        assert f"`{name}" in done.stdout or f"`async {name}" in done.stdout
    # A signature or docstring changed without the reference: run scripts/gen_api_docs.py.
    assert done.stdout == (ROOT / "docs" / "api.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("dotted", SUBPACKAGES)
def test_every_public_subpackage_has_its_own_section(dotted: str) -> None:
    """What left the top level is documented where it now lives."""
    package = importlib.import_module(dotted)
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = text.split(f"## `{dotted}`", 1)[1].split("\n## `", 1)[0]
    headings = set(re.findall(r"^### `(?:async )?([A-Za-z_]\w*)", section, re.MULTILINE))
    missing = sorted(set(package.__all__) - headings)
    assert not missing, f"not in docs/api.md (run scripts/gen_api_docs.py): {missing}"


def test_the_top_level_is_curated() -> None:
    """The top level is what the three ways in need plus the contract's names; a name
    added there should be a decision, so this list changes only on purpose."""
    assert sorted(amplifier_hooks.__all__) == sorted(
        [
            *("CONTINUE", "HookResult", "HookOptions", "hook", "events", "resolve"),
            *("HookRegistry", "Resolution", "Coordinator", "Outcome", "ContributionChannels"),
            *("ContextInjector", "configure_logging"),
            *("ApprovalDecision", "ApprovalGate", "ApprovalProvider", "ApprovalRequest"),
            *("PolicyApprovalProvider", "PolicyRule", "default_provider"),
            *("Bundle", "BundleError", "load_bundle", "build_coordinator", "reload_bundle"),
        ]
    )
