"""The hook engine: what one emit is made of, with no session around it.

A `HookResult` (`result`) is one handler's answer; `HookOptions` (`options`) how it was
registered; the `HookRegistry` (`registry`) calls handlers (`calling`, with `deadline` for
the ones that suspend) and folds their results (`fold`) into a `Resolution` (`resolution`)
with a `Trace` (`trace`). Beside them: contribution channels (`channels`), the ``@hook``
decorator (`decorators`), copy-on-write tables (`tables`), running untrusted awaitables
(`tasks`) and the slots where upper layers plug into the core (`slots`).

Nothing here imports a layer above it (see docs/architecture.md); this package's
``__init__`` imports nothing, so a module of it costs only itself.
"""
