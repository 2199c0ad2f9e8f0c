"""amplifier-hooks: observe, gate and enrich an AI agent runtime with hooks.

The top level holds what the three ways in need — handlers in code, bundles, approvals in
the terminal — and the names of the public contract. Everything else lives in the package
named after its concept, one package per layer (docs/architecture.md): `.engine` (results,
registry, the fold), `.session` (the Coordinator), `.approvals`, `.injection`, `.modules`
(for module authors), `.bundles`, `.amplifier` (Amplifier compatibility), `.hosts`,
`.transports`, `.web`, `.ui`, `.cli`, `.testing`, and `.typing` (the records plugin and
host authors annotate with).

Every name here is imported on first use (PEP 562 ``__getattr__``, from the table below),
so ``import amplifier_hooks`` costs almost nothing: a hook module that takes `HookResult`
pays for pydantic, not for the terminal UI, YAML, tiktoken or the bundle models; and a
command hook, whose process starts for every tool call, passes its call to a running
server having imported nothing but the standard library (see docs/claude-code.md, "How
state lasts"). Type checkers read the same names as imports in ``__init__.pyi``
(tests/test_imports.py checks that both list the same).
"""

import importlib

_PUBLIC = {
    "ApprovalDecision": "amplifier_hooks.approvals",
    "ApprovalGate": "amplifier_hooks.approvals",
    "ApprovalProvider": "amplifier_hooks.approvals",
    "ApprovalRequest": "amplifier_hooks.approvals",
    "build_coordinator": "amplifier_hooks.bundles",
    "Bundle": "amplifier_hooks.bundles",
    "BundleError": "amplifier_hooks.bundles",
    "configure_logging": "amplifier_hooks.logs",
    "ContextInjector": "amplifier_hooks.injection",
    "CONTINUE": "amplifier_hooks.engine.result",
    "ContributionChannels": "amplifier_hooks.engine.channels",
    "Coordinator": "amplifier_hooks.session.coordinator",
    "default_provider": "amplifier_hooks.ui.providers",
    "events": "amplifier_hooks.events",
    "hook": "amplifier_hooks.engine.decorators",
    "HookOptions": "amplifier_hooks.engine.options",
    "HookRegistry": "amplifier_hooks.engine.registry",
    "HookResult": "amplifier_hooks.engine.result",
    "load_bundle": "amplifier_hooks.bundles",
    "Outcome": "amplifier_hooks.session.outcome",
    "PolicyApprovalProvider": "amplifier_hooks.approvals",
    "PolicyRule": "amplifier_hooks.approvals",
    "reload_bundle": "amplifier_hooks.bundles",
    "Resolution": "amplifier_hooks.engine.resolution",
    "resolve": "amplifier_hooks.engine.fold",
}
"""Each public name -> the module it comes from (a submodule: its own path)."""

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> object:
    path = _PUBLIC.get(name)
    if path is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(path)
    value = module if path == f"{__name__}.{name}" else getattr(module, name)
    globals()[name] = value  # later lookups are plain module attributes
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC})
