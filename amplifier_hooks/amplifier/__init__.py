"""Amplifier compatibility: hook modules and bundles written for Amplifier run unchanged.

- `alias` — the ``amplifier_core`` alias (installed when no real one is importable) that
  maps the reference's import names onto this project's classes.
- `events`, `models`, `testing` — what the alias's ``amplifier_core.events``,
  ``.models``/``.interfaces`` and ``.testing`` provide.
- `module_coordinator` — `ModuleCoordinator`, the object a module's ``mount`` receives.
- `approvals` — the provider given to a module that offers ``approval.register_provider``.
- `foreign_results` — results of the reference's own ``HookResult`` classes, converted.

The core never imports this package: the reference's mount points are the coordinator's
own (`amplifier_hooks.session.mount_points`), and `foreign_results` is the default plug-in of
the core's `amplifier_hooks.engine.slots.foreign_results`, named there by module path.
Bundle files in Amplifier's format are read in `amplifier_hooks.bundles.amplifier_format`.
Nothing is imported here: each submodule is loaded by what needs it, so the compatibility
layer costs nothing to a program that does not use it.
"""
