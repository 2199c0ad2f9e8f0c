"""amplifier-hooks: observe, gate and enrich an AI agent runtime with hooks.

The top level holds what the three ways in need — handlers in code, bundles, approvals in
the terminal — and the names of the public contract. Everything else lives in the package
named after its concept, one package per layer (docs/architecture.md): `.engine` (results,
registry, the fold), `.session` (the Coordinator), `.approvals`, `.injection`, `.modules`
(for module authors), `.bundles`, `.amplifier` (Amplifier compatibility), `.hosts`,
`.transports`, `.web`, `.ui`, `.cli`, `.testing`, and `.typing` (the records plugin and
host authors annotate with).

Every name here is imported on first use (PEP 562 ``__getattr__``), so ``import
amplifier_hooks`` costs almost nothing: a hook module that takes `HookResult` pays for
pydantic, not for the terminal UI, YAML, tiktoken or the bundle models; and a Claude Code
command hook, whose process starts for every tool call, passes its call to a running
server without importing pydantic at all (see docs/claude-code.md, "How state lasts").

This module is also the composition root: it plugs the upper layers' parts of core
features into the core's extension points (`amplifier_hooks.engine.slots`), each imported
on first use. Python runs it before any module of the package, so they are always plugged.
"""

from __future__ import annotations

import importlib

# Light (typing and collections.abc only): plugging the slots costs a few milliseconds of
# the command hook's start, against about 25 ms for Python itself.
from amplifier_hooks.engine import slots

TYPE_CHECKING = False  # not typing's: importing typing is most of what this would cost
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    # The public names, written once: a type checker reads these imports, and at run
    # time `_public_names` reads the same lines to import each name on first use. Each
    # is re-exported with ``as`` (as a strict checker wants) and stays on one line.
    from amplifier_hooks import events as events
    from amplifier_hooks.approvals import ApprovalDecision as ApprovalDecision
    from amplifier_hooks.approvals import ApprovalGate as ApprovalGate
    from amplifier_hooks.approvals import ApprovalProvider as ApprovalProvider
    from amplifier_hooks.approvals import ApprovalRequest as ApprovalRequest
    from amplifier_hooks.approvals import PolicyApprovalProvider as PolicyApprovalProvider
    from amplifier_hooks.approvals import PolicyRule as PolicyRule
    from amplifier_hooks.bundles import Bundle as Bundle
    from amplifier_hooks.bundles import BundleError as BundleError
    from amplifier_hooks.bundles import build_coordinator as build_coordinator
    from amplifier_hooks.bundles import load_bundle as load_bundle
    from amplifier_hooks.bundles import reload_bundle as reload_bundle
    from amplifier_hooks.engine.channels import ContributionChannels as ContributionChannels
    from amplifier_hooks.engine.decorators import hook as hook
    from amplifier_hooks.engine.fold import resolve as resolve
    from amplifier_hooks.engine.options import HookOptions as HookOptions
    from amplifier_hooks.engine.registry import HookRegistry as HookRegistry
    from amplifier_hooks.engine.resolution import Resolution as Resolution
    from amplifier_hooks.engine.result import CONTINUE as CONTINUE
    from amplifier_hooks.engine.result import HookResult as HookResult
    from amplifier_hooks.injection import ContextInjector as ContextInjector
    from amplifier_hooks.logs import configure_logging as configure_logging
    from amplifier_hooks.session.coordinator import Coordinator as Coordinator
    from amplifier_hooks.session.outcome import Outcome as Outcome
    from amplifier_hooks.ui.providers import default_provider as default_provider
del TYPE_CHECKING  # not a public name


def _read_foreign_result(values: Mapping[str, Any]) -> HookResult:
    from amplifier_hooks.amplifier.foreign_results import from_foreign

    return from_foreign(values)


async def _build_from_bundle(bundle: Any, **options: Any) -> Coordinator:
    from amplifier_hooks.bundles.loading import build_coordinator

    return await build_coordinator(bundle, **options)


slots.foreign_results.plug(_read_foreign_result)
slots.bundle_builder.plug(_build_from_bundle)


_public: dict[str, str] | None = None


def _public_names() -> dict[str, str]:
    """Name -> module of each public name: the ``from M import N as N`` lines under
    ``if TYPE_CHECKING:`` above, read from this file on first use (no parser imported:
    a split of each line, about 0.1 ms). A public import wrapped over lines is an error."""
    global _public
    if _public is None:
        with open(__file__, encoding="utf-8") as file:
            block = file.read().partition("\nif TYPE_CHECKING:\n")[2]
        found: dict[str, str] = {}
        for line in block.partition("\ndel TYPE_CHECKING")[0].splitlines():
            words = line.split()
            if words[:1] == ["from"] and "(" in line:
                raise ImportError(f"{__file__}: write each public import on one line: {line}")
            if len(words) == 6 and words[::2] == ["from", "import", "as"] and words[3] == words[5]:
                found[words[3]] = words[1]
        _public = found
    return _public


def __getattr__(name: str) -> Any:
    if name == "__all__":
        value: Any = sorted(_public_names())
    elif (module := _public_names().get(name)) is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    elif module == __name__:  # a submodule (`events`): the name is the module itself
        value = importlib.import_module(f"{module}.{name}")
    else:
        value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups are plain module attributes
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_public_names()})
