"""The script an installed command hook runs, as ``PYTHON -S -P <this file> HOST hook ...``.

A hook process starts for every tool call, and in a virtual environment most of an
interpreter's start is `site` (its ``.pth`` files, an editable install's import hooks:
about two thirds of ``python -c pass`` here, docs/performance.md). ``-S`` skips it: this
script puts the directory that holds ``amplifier_hooks`` at the end of the path itself,
which is all the relay (stdlib only) needs. Whatever needs more -- the full command line,
the host adapter's fail-closed answer -- runs `site` first
(`amplifier_hooks.transports.relay.command.load_site`), so it sees what a plain start
sees. ``-P`` keeps this file's directory off the path (and with it, the working
directory of ``python -m``: a project's own ``json.py`` is never imported by its guard).
"""

if __name__ == "__main__":
    import os
    import sys

    sys.path.append(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    from amplifier_hooks.cli import main

    raise SystemExit(main())
