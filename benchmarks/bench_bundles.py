"""How long does `load_bundle` take on the worst inputs, against an ordinary bundle?

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_bundles

Times, in the same process, `load_bundle` on:

* ``default.md``      — ``bundles/default.md`` (the baseline: what people load);
* ``alias bomb``      — ten nested lists of nine aliases (refused at the value limit);
* ``5 MB file``       — 150,000 hook entries (refused at the size limit);
* ``nested 5,000``    — 5,000 nested brackets (refused at the depth limit);
* ``20,000 values``   — the largest document the value limit lets through (loaded).

Each time is the minimum over several repeats of the mean per load, with its ratio to the
baseline; the peak of Python's own allocations (tracemalloc) during one load is shown too.
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from amplifier_hooks.bundles import BundleError, load_bundle
from amplifier_hooks.bundles.safe_yaml import LIMITS, USING_LIBYAML
from benchmarks._targets import add_smoke, no_target
from benchmarks._timing import calibrate

ROOT = Path(__file__).resolve().parent.parent


def laughs(levels: int) -> str:
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def inputs(directory: Path) -> dict[str, Path]:
    """The measured bundle files, written into ``directory``."""
    texts = {
        "alias bomb": laughs(10),
        "5 MB file": "hooks:\n"
        + "".join(f"  - module: m{i}\n    config: {{a: {i}}}\n" for i in range(150_000)),
        "nested 5,000": "hooks: " + "[" * 5000 + "]" * 5000 + "\n",
        "20,000 values": "hooks:\n  - module: m\n    config: {x: ["
        + ", ".join(["1"] * (LIMITS.max_nodes - 10))
        + "]}\n",
    }
    paths = {"default.md": ROOT / "bundles" / "default.md"}
    for name, text in texts.items():
        path = directory / (name.replace(" ", "_").replace(",", "") + ".yaml")
        path.write_text(text, encoding="utf-8")
        paths[name] = path
    return paths


def load(path: Path) -> str:
    """Load once; what happened, in a word."""
    try:
        load_bundle(path, environ={})
    except BundleError as error:
        return "refused: " + str(error).split(": ", 2)[-1][:48]
    return "loaded"


def timed(path: Path) -> Callable[[int], float]:
    def run(loops: int) -> float:
        started = time.perf_counter()
        for _ in range(loops):
            load(path)
        return time.perf_counter() - started

    return run


def peak_bytes(path: Path) -> int:
    tracemalloc.start()
    try:
        load(path)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--budget", type=float, default=0.2, help="seconds per repeat")
    add_smoke(parser)
    args = parser.parse_args(argv)
    if args.smoke:
        args.repeats, args.budget = 1, 0.001
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}; "
        f"libyaml: {USING_LIBYAML}"
    )
    with tempfile.TemporaryDirectory() as directory:
        paths = inputs(Path(directory))
        means: dict[str, float] = {}
        for name, path in paths.items():
            run = timed(path)
            loops = calibrate(run, args.budget)
            means[name] = min(run(loops) / loops for _ in range(args.repeats))
        baseline = means["default.md"]
        print("| input | size | outcome | ms per load | / default.md | peak MB |")
        print("|---|---:|---|---:|---:|---:|")
        for name, path in paths.items():
            size = path.stat().st_size
            shown = f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.1f} kB"
            print(
                f"| {name} | {shown} | {load(path)} | {means[name] * 1e3:.2f} | "
                f"{means[name] / baseline:.2f}x | {peak_bytes(path) / 1e6:.2f} |"
            )
    print()
    no_target(
        "context for the limits (docs/bundles.md); the hostile inputs must be refused, "
        "and each row says how it ended"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
