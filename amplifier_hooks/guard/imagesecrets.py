"""An edit of a Dockerfile that copies a secret file into the image.

``COPY .env /app/.env``, ``ADD id_rsa /root/.ssh/id_rsa``: the file becomes a layer of
the image, read by everyone who pulls it (a registry, a customer, CI's cache), and a later
``RUN rm`` does not take it out of the layer below. A ``COPY`` or ``ADD`` line the new text
adds whose source is a secret by name (`secrets.secret_kind`: a private key, a keystore, a
``.env``) is marked `SECRET_IN_IMAGE` (asked); a build's secret mount (``RUN
--mount=type=secret``) is how an image build reads one without keeping it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import change_pairs
from amplifier_hooks.guard.secrets import secret_kind

__all__ = ["SECRET_IN_IMAGE", "copies_secret_into_image"]

SECRET_IN_IMAGE = "@secret-in-image"
_COPY = re.compile(r"(?im)^\s*(?:COPY|ADD)\s+(?:--[\w-]+=\S+\s+)*(?P<sources>[^\n]+?)\s*$")
_MAX_TEXT = 64 * 1024


def copies_secret_into_image(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit of a Dockerfile among ``paths`` adds a COPY or ADD of a secret."""
    if not any(_dockerfile(p) for p in paths):
        return False
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        before = {m.group(0).strip() for m in _COPY.finditer(old)}
        for found in _COPY.finditer(new):
            if found.group(0).strip() in before:
                continue
            words = found["sources"].replace("[", " ").replace("]", " ").replace(",", " ").split()
            if any(secret_kind(w.strip("\"'")) is not None for w in words[:-1]):
                return True
    return False


def _dockerfile(path: str) -> bool:
    name = posixpath.basename(path).lower()
    return (
        name == "dockerfile"
        or name.startswith("dockerfile.")
        or name.endswith((".dockerfile", "containerfile"))
    )
