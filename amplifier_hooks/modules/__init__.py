"""The module-author API: what a hook module's ``mount(coordinator, config)`` works with.

- `view` — `CoordinatorView`, the typed protocol of what ``mount`` receives (hooks,
  channels, capabilities, observers, cleanups, session identity and config), and `HooksView`.
- `mounting` — `Mounting`, one mount's registrations undone together at cleanup, and
  `Mounts`, what ``on_session_ready`` uses to find them again.
- `subscriptions` — `Subscriptions`, one handler on every event matching globs.
- `config` — `parse_module_config` with errors at the bundle's key, `config_deprecated`
  for an old key spelling still accepted (a warning at its line), and field types for
  config models (`EventName`, `EventPattern`, `ToolName`, `ChannelName`, `PathText`).
- `inline` — marks a plain handler that never blocks, so a server that runs plain
  handlers in threads (`amplifier_hooks.engine.offload`) calls it on its loop.
- `replay` — `Replay` and `side_effects_allowed`: whether a module may act on the world, or
  is in a replay and should say what it would have done instead.
- `validation_messages` — pydantic's validation errors worded for a person editing YAML
  (used by `config`, and by `amplifier_hooks.bundles` for the bundle's own keys).
- `scoped` and `module_hooks` — the registry a mounted module holds (`ModuleHooks`) and
  the `ScopedHooks` behind it, which the bundle loader and the Amplifier layer control.

Reading a tool call out of event data is `amplifier_hooks.toolcalls` (approvals use it too).
"""

from amplifier_hooks.engine.offload import inline
from amplifier_hooks.engine.registrar import Unregister
from amplifier_hooks.modules.config import (
    ChannelName,
    ConfigProblem,
    EventName,
    EventPattern,
    ModuleConfigError,
    PathText,
    ToolName,
    config_deprecated,
    parse_module_config,
)
from amplifier_hooks.modules.mounting import Mounting, Mounts
from amplifier_hooks.modules.replay import (
    REPLAY_CAPABILITY,
    Replay,
    replay_of,
    side_effects_allowed,
)
from amplifier_hooks.modules.subscriptions import (
    Subscriptions,
    is_glob,
    known_events,
    validate_event_pattern,
)
from amplifier_hooks.modules.view import CoordinatorView, HooksView

__all__ = [
    "REPLAY_CAPABILITY",
    "ChannelName",
    "ConfigProblem",
    "CoordinatorView",
    "EventName",
    "EventPattern",
    "HooksView",
    "ModuleConfigError",
    "Mounting",
    "Mounts",
    "PathText",
    "Replay",
    "Subscriptions",
    "ToolName",
    "Unregister",
    "config_deprecated",
    "inline",
    "is_glob",
    "known_events",
    "parse_module_config",
    "replay_of",
    "side_effects_allowed",
    "validate_event_pattern",
]
