"""The ``amplifier-hooks`` command: replay agent sessions through a bundle, check bundles,
list events, manage remembered approvals, try and score a bundle's guard.

Exit codes: 0 success; 1 nothing to do for what was asked (``approvals forget`` of an
unknown key), a replay that failed, or a ``bench`` below its bar; 2 bad input (usage, a
bundle, a trace, an approval store, a corpus); 3 and 4 the ``test`` of a call that is
asked or denied, 5 one the bundle has no opinion on (nothing grants it); 130 interrupted.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Run the command in ``argv`` (default: the process's arguments); the exit code.

    This module is the start of every process of the command line, a command hook's
    included: `amplifier_hooks.cli.hook_start`, once per tool call, which must start
    about as fast as Python itself. So it imports nothing but `sys` and relays a hook
    call (`amplifier_hooks.transports.relay`, stdlib only) before anything else is
    imported; ``--version`` is answered here too, and a ``test`` process asks the
    workspace's server the same way (`amplifier_hooks.transports.relay.trial`). Every
    other command, and whatever those leave, goes to
    `amplifier_hooks.cli.dispatch`, which imports what that command uses."""
    words = sys.argv[1:] if argv is None else list(argv)
    from amplifier_hooks.host_commands import HOST_COMMANDS

    if words[1:2] == ["hook"] and words[0] in HOST_COMMANDS:
        from amplifier_hooks.transports.relay.command import fast_hook

        code = fast_hook(words[0], words[2:])
        if code is not None:
            return code
    if argv is None and words[:1] == ["test"]:
        # A `test` process asks the workspace's server, which has the bundle loaded; a
        # program that calls main() with its own words is answered in-process.
        from amplifier_hooks.transports.relay.trial import fast_test

        code = fast_test(words[1:])
        if code is not None:
            return code
    if words == ["--version"]:  # nothing else to do: nothing else imported
        from amplifier_hooks.cli.version import installed_version

        sys.stdout.write(f"amplifier-hooks {installed_version()}\n")
        return 0
    if sys.flags.no_site:  # started as a hook (-S) with more than the simple arguments
        from amplifier_hooks.transports.relay.command import load_site

        load_site()
    from amplifier_hooks.cli.dispatch import run

    return run(words)
