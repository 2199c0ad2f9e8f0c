"""Classes of calls asked (or denied) with no git facts: row level security switched off,
personal data selected and printed, Django's settings printed, packages from an unknown
conda channel or past the system's guard (--break-system-packages), every package
uninstalled from a listing, a cloud object written by a copy, migrations dropped, a Lua
script run by pandoc, ImageMagick fed from the network, a local secret store's HTTP
interface, find -L deleting where links lead; each beside the everyday
call next to it, which stays free."""

from __future__ import annotations

from typing import Any

import pytest

from tests.guard.conftest import tool_decided
from tests.guard.tables import stopped_and_free

STOPPED = [
    ('supabase db execute --linked "alter table public.profiles disable row level security"',
     "deny", "sql-row-level-security-off"),
    ("psql \"$DATABASE_URL\" -c 'ALTER TABLE orders DISABLE ROW LEVEL SECURITY'", "deny",
     "sql-row-level-security-off"),
    ('psql -d analytics -c "select email, ssn from customers"', "ask", "sql-personal-data-print"),
    ("python manage.py diffsettings --all", "ask", "django-settings-print"),
    ("conda install -y -c gpu-tools-unofficial cudnn-fast", "ask", "conda-unknown-channel"),
    ("mamba install --channel=someone fastlib", "ask", "conda-unknown-channel"),
    ("pip install --break-system-packages requests", "ask", "pip-break-system-packages"),
    ("pip freeze | xargs pip uninstall -y", "ask", "pip-uninstall-listed"),
    ("aws s3 cp models/untested.pt s3://acme-ml-models/prod/model.pt", "ask",
     "cloud-copy-to-production"),
    ("aws s3 cp dist/ s3://acme-artifacts/releases/2.3.0/ --recursive", "ask",
     "cloud-copy-to-production"),
    ("npx drizzle-kit drop --config drizzle.config.ts", "ask", "drizzle-drop-migration-runner"),
    ("drizzle-kit drop", "ask", "drizzle-drop-migration"),
    ("pandoc lua downloads/convert.lua", "ask", "pandoc-lua-script"),
    ('convert "https://203.0.113.7/x.mvg" out.png', "ask", "imagemagick-fetched-input"),
    ("magick https://img.example.net/a.svg out.png", "ask", "imagemagick-fetched-input"),
    ("curl -s http://localhost:8500/v1/kv/?recurse=true", "ask", "secret-store-http-read-shell"),
    ("find -L vendor -name '*.pyc' -o -name '*.py' -delete", "deny", "find-follow-delete"),
    ("find -L . -type l -exec rm {} +", "deny", "find-follow-delete"),
]  # fmt: skip

FREE = [
    "aws s3 cp s3://bucket/x.csv data/",
    "aws s3 ls s3://bucket/",
    "aws s3 cp outputs/metrics.json s3://acme-ml-data/runs/2026-11-30/metrics.json",
    "aws s3 cp dist/app-1.4.2.zip s3://acme-build-artifacts/app/1.4.2/",
    "aws s3 cp s3://acme-ml-models/prod/model.pt models/",
    "pandoc --lua-filter=filters/diagram.lua -s docs/arch.md -o build/arch.html",
    "conda install -c conda-forge numpy",
    "conda create -n py311 -c conda-forge python=3.11",
    "conda install numpy pandas",
    "pip install -r requirements.txt",
    "pip uninstall -y requests",
    "convert in.png -resize 50% out.jpg",
    'psql -d app -c "select id, email from users limit 5"',
    'psql -d app -c "select count(*) from sessions"',
    "pandoc README.md -o README.html",
    "python manage.py migrate",
    "npx drizzle-kit generate",
    "gsutil cp gs://bucket/data.csv ./data/",
    "find vendor -name '*.pyc' -delete",
    "find -L . -name '*.md' -exec grep -l TODO {} +",
]


test_stopped, test_everyday_stays_free = stopped_and_free(STOPPED, FREE)


@pytest.mark.parametrize(
    ("tool", "given", "expected"),
    [
        ("WebFetch", {"url": "http://localhost:8500/v1/kv/?recurse=true", "prompt": "dump"},
         ("ask", "secret-store-http-read")),
        ("WebFetch", {"url": "http://127.0.0.1:8200/v1/secret/data/prod", "prompt": "show"},
         ("ask", "secret-store-http-read")),
        ("WebFetch", {"url": "http://localhost:8500/v1/status/leader", "prompt": "leader?"},
         None),
    ],
)  # fmt: skip
def test_tools(tool: str, given: dict[str, Any], expected: tuple[str, str] | None) -> None:
    found = tool_decided(tool, given)
    if expected is None:
        assert found[0] not in ("deny", "ask")
    else:
        assert found == expected
