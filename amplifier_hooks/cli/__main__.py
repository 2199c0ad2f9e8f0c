"""``python -m amplifier_hooks.cli``: the same as the ``amplifier-hooks`` command."""

from amplifier_hooks.cli import main

raise SystemExit(main())
