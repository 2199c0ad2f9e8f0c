"""Command-line spellings every command shares: the bundle argument, and what an option
nobody knows is answered with.

Every command that takes a bundle takes it both ways, ``amplifier-hooks run BUNDLE`` and
``amplifier-hooks run --bundle BUNDLE`` (`add_bundle_argument`; `resolve_bundle` puts the
one given in ``args.bundle``), so no spelling a person learnt on one command fails on
another; so does every command that listens (`add_remote_arguments`). An unknown option
gets the closest known one (`unknown_arguments`).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

__all__ = [
    "add_bundle_argument",
    "add_remote_arguments",
    "resolve_bundle",
    "unknown_arguments",
]

_POSITIONAL = "bundle_given"
_OPTION = "bundle_option"


def add_bundle_argument(
    parser: argparse.ArgumentParser, *, required: bool = True, help: str = "bundle file"
) -> None:
    """Give ``parser`` the bundle as ``BUNDLE`` and as ``--bundle BUNDLE`` (either; both
    only when they agree). After parsing, `resolve_bundle` sets ``args.bundle``; a
    required bundle that is missing is a usage error there, not in argparse, so a
    misspelt ``--bundel`` is reported as what it is."""
    parser.add_argument(_POSITIONAL, nargs="?", metavar="BUNDLE", help=help)
    parser.add_argument(
        "--bundle", dest=_OPTION, metavar="BUNDLE", help="the same as BUNDLE (either form)"
    )
    parser.set_defaults(bundle=None, bundle_required=required)


def add_remote_arguments(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    *,
    allow_remote: str,
    certfile: str,
    keyfile: str,
) -> None:
    """Give ``parser`` ``--allow-remote``, ``--certfile PEM`` and ``--keyfile PEM``, spelt
    the same on every command that listens beyond loopback; each argument is that option's
    help, which says what it does for this command."""
    parser.add_argument("--allow-remote", action="store_true", help=allow_remote)
    parser.add_argument("--certfile", metavar="PEM", help=certfile)
    parser.add_argument("--keyfile", metavar="PEM", help=keyfile)


def resolve_bundle(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Set ``args.bundle`` from whichever form was given; ``parser.error`` (exit 2) when
    the two forms name different files, or a required bundle is missing."""
    if not hasattr(args, _POSITIONAL):
        return
    given: str | None = getattr(args, _POSITIONAL)
    option: str | None = getattr(args, _OPTION)
    if given is not None and option is not None and not _same(given, option):
        parser.error(
            f"two bundles given: BUNDLE {given!r} and --bundle {option!r}; give one (either form)"
        )
    args.bundle = given if given is not None else option
    if args.bundle is None and args.bundle_required:
        parser.error("a bundle is needed: give BUNDLE (or --bundle BUNDLE)")


def _same(first: str, second: str) -> bool:
    return os.path.abspath(os.path.expanduser(first)) == os.path.abspath(os.path.expanduser(second))


def unknown_arguments(parser: argparse.ArgumentParser, unknown: Sequence[str]) -> str:
    """The usage error for arguments ``parser`` does not know: the closest option for a
    misspelt one (``unrecognized argument --bundel (did you mean --bundle?)``)."""
    import difflib

    known = [o for o in parser._option_string_actions if o.startswith("--")]
    for token in unknown:
        name = token.split("=", 1)[0]
        if not name.startswith("--"):
            continue
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.7)
        if close:
            return f"unrecognized argument {name} (did you mean {close[0]}?)"
    return f"unrecognized arguments: {' '.join(unknown)}"
