"""The files tiktoken's encodings are read from, as OpenAI publishes them: each file's URL
and SHA-256, and cl100k_base's split pattern and special tokens (its shipped file holds
only the ranks). Its own module: published data, apart from the loading (`tokens`) that
checks files against it.
"""

from __future__ import annotations

__all__ = ["CACHED_FILES", "CL100K_PATTERN", "CL100K_SHA256", "CL100K_SPECIAL_TOKENS"]

BLOB = "https://openaipublic.blob.core.windows.net"
CL100K_URL = f"{BLOB}/encodings/cl100k_base.tiktoken"
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"

# cl100k_base's split pattern and special tokens, as OpenAI published them: the shipped
# file holds only the ranks. tests/injection/test_tokens.py checks both against tiktoken's own
# definition of cl100k_base.
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+|"""
    r""" ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
CL100K_SPECIAL_TOKENS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}

# The files each of tiktoken's own encodings is read from (URL and the SHA-256 tiktoken
# checks it against): what must be in tiktoken's cache for that encoding to load offline.
CACHED_FILES: dict[str, tuple[tuple[str, str], ...]] = {
    "gpt2": (
        (
            f"{BLOB}/gpt-2/encodings/main/vocab.bpe",
            "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
        ),
        (
            f"{BLOB}/gpt-2/encodings/main/encoder.json",
            "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
        ),
    ),
    "r50k_base": (
        (
            f"{BLOB}/encodings/r50k_base.tiktoken",
            "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
        ),
    ),
    "p50k_base": (
        (
            f"{BLOB}/encodings/p50k_base.tiktoken",
            "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
        ),
    ),
    "cl100k_base": ((CL100K_URL, CL100K_SHA256),),
    "o200k_base": (
        (
            f"{BLOB}/encodings/o200k_base.tiktoken",
            "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        ),
    ),
}
CACHED_FILES["p50k_edit"] = CACHED_FILES["p50k_base"]
CACHED_FILES["o200k_harmony"] = CACHED_FILES["o200k_base"]
