"""Write the bundle format's JSON Schema to docs/bundle.schema.json (for editors).

python scripts/export_bundle_schema.py           # regenerate
python scripts/export_bundle_schema.py --check   # exit 1 if the file is out of date
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from amplifier_hooks.bundles import bundle_json_schema

TARGET = Path(__file__).resolve().parents[1] / "docs" / "bundle.schema.json"


def render() -> str:
    return json.dumps(bundle_json_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the file is current")
    parser.add_argument("--output", type=Path, default=TARGET, help=f"default: {TARGET}")
    args = parser.parse_args(argv)
    text = render()
    current = args.output.read_text(encoding="utf-8") if args.output.exists() else None
    if args.check:
        if current != text:
            print(
                f"{args.output} is out of date: run scripts/export_bundle_schema.py",
                file=sys.stderr,
            )
            return 1
        return 0
    if current != text:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
