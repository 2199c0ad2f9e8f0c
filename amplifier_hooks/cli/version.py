"""The installed version of amplifier-hooks, for ``--version``."""

import os
import sys

__all__ = ["installed_version"]


def installed_version() -> str:
    """The installed version, read from its ``*.dist-info/METADATA`` directly: the
    `importlib.metadata` way costs more than Python's own start-up."""
    prefix = "amplifier_hooks-"
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith(prefix) and name.endswith(".dist-info"):
                try:
                    with open(os.path.join(folder or ".", name, "METADATA"), encoding="utf-8") as f:
                        for line in f:
                            if line.startswith("Version:"):
                                return line.split(":", 1)[1].strip()
                except OSError:
                    continue
    from importlib import metadata

    try:
        return metadata.version("amplifier-hooks")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown"
