"""What inline Python's data libraries write (`pyreader`): a frame's ``to_csv(path)``, a
figure's ``savefig(path)``, a plot's ``write_html(path)`` write the one file they are
given, and nothing else; a tokenizer or a data set loaded by its hub name is a download
into the library's cache, and nothing the code computes is sent.

The reader judges such a write as any write of that path (``tee -- path``): a figure
saved into the workspace is free, a frame written to ``~/.bashrc`` is what writing
``~/.bashrc`` is. A call on none of these lists stays as loud as before.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

__all__ = [
    "HUB_DOWNLOADS",
    "HUB_LOADS",
    "HUB_RESULTS",
    "TENSOR_LOADS",
    "WRITE_CALLS",
    "WRITE_METHODS",
    "hub_download",
    "hub_name",
]

WRITE_METHODS: dict[str, str] = {
    # a pandas frame's or series's (the path is the first argument, or this keyword)
    "to_csv": "path_or_buf", "to_parquet": "path", "to_json": "path_or_buf",
    "to_excel": "excel_writer", "to_feather": "path", "to_html": "buf",
    "to_markdown": "buf", "to_latex": "buf",
    # a polars frame's
    "write_csv": "file", "write_parquet": "file", "write_json": "file",
    "write_ndjson": "file", "write_ipc": "file",
    # a matplotlib figure's, a plotly figure's
    "savefig": "fname", "write_html": "file", "write_image": "file",
    # a fitted model's (XGBoost's, LightGBM's): its trees as JSON or text
    "save_model": "fname",
}  # fmt: skip
"""Methods of data (a frame, a figure) that write the file their first argument (or the
keyword named) names, and touch nothing else; given no file, the pandas ones return the
text instead (``df.to_csv()``)."""

WRITE_CALLS: dict[str, str] = {"matplotlib.pyplot.savefig": "fname"}
"""Module functions that write the file their first argument names (pyplot's current
figure, saved)."""

HUB_LOADS: dict[str, frozenset[str]] = {
    "datasets.load_dataset": frozenset({"split", "streaming", "revision", "name"}),
    "transformers.AutoTokenizer.from_pretrained": frozenset({"revision", "use_fast"}),
    "transformers.AutoConfig.from_pretrained": frozenset({"revision"}),
}
"""Loaders of a hub's data set, tokenizer or configuration by name, and the keywords that
change no more than which one is loaded. Files of text and tables, no code: a model's
weights (a pickle in older formats) and ``trust_remote_code`` are not among them."""

TENSOR_LOADS: dict[str, frozenset[str]] = {"torch.load": frozenset({"map_location", "mmap"})}
"""Loaders of a pickle that read it with their restricted unpickler when told
``weights_only=True`` (tensors, numbers, strings, plain containers; no object's code), and
the keywords besides it that only say where the tensors go: a read of the file its first
argument names. Without it (or with a keyword given a value the text does not show) the
load is a pickle, which runs code, and stays loud. (torch before 2.6 could still be made
to run code by a crafted file, CVE-2025-32434: the file is judged as any read of it, and
the code is never granted.)"""

HUB_RESULTS = frozenset(
    {"transformers.AutoTokenizer.from_pretrained"}
)  # fmt: skip
"""Loaded objects whose call only computes on data (a tokenizer splitting a text)."""

_HUB_NAME = re.compile(r"[A-Za-z0-9][\w.-]*(/[A-Za-z0-9][\w.-]*)?")


def hub_name(name: str | None) -> bool:
    """``name`` is a hub repository's name (``bert-base-uncased``, ``org/model``), not a
    path or an address: no ``..``, no leading ``.``, ``/`` or ``~``, no scheme."""
    return name is not None and _HUB_NAME.fullmatch(name) is not None and ".." not in name


HUB_DOWNLOADS: dict[str, frozenset[str]] = {
    "huggingface_hub.snapshot_download": frozenset(
        {"repo_type", "revision", "allow_patterns", "ignore_patterns", "local_dir"}
    ),
    "huggingface_hub.hf_hub_download": frozenset(
        {"filename", "repo_type", "revision", "subfolder", "local_dir"}
    ),
}
"""Downloads of a hub repository's files by its name, as ``hf download NAME --local-dir
DIR`` does (files fetched, none run), and the keywords that only choose which files and
where they go."""


def hub_download(
    node: ast.Call, keywords: frozenset[str], text: Callable[[ast.Call, int, str], str | None]
) -> tuple[bool, str | None]:
    """Whether ``node`` (one of `HUB_DOWNLOADS`) names its repository literally and gives
    only literal values of ``keywords`` (``allow_patterns=["*.json"]``), and the folder it
    writes (``local_dir``; None: the hub's cache)."""
    literal = all(_literal(a) for a in node.args) and all(
        k.arg in keywords and _literal(k.value) for k in node.keywords
    )
    if not literal or not hub_name(text(node, 0, "repo_id")):
        return False, None
    given = any(k.arg == "local_dir" for k in node.keywords)
    return True, text(node, len(node.args), "local_dir") if given else None


def _literal(node: ast.expr) -> bool:
    if isinstance(node, ast.List | ast.Tuple):
        return all(isinstance(e, ast.Constant) for e in node.elts)
    return isinstance(node, ast.Constant)
