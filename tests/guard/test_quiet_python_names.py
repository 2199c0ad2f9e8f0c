"""Everyday inline Python the reader clears as quiet (no ask, never a grant): a package's
version, YAML loaded safely, a token from ``secrets``, a table read with pandas, the files
a path's ``rglob`` yields read, a chain of quiet methods on data. And its neighbours that
stay asked or denied."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.codeacts import CodeAct
from amplifier_hooks.guard.pyreader import read_python
from tests.guard.conftest import Judge

QUIET = [
    "import fastapi, pydantic; print(fastapi.__version__, pydantic.VERSION)",
    "import numpy as np; print(np.__version__)",
    "import secrets; print(secrets.token_urlsafe(24))",
    'import yaml; print(yaml.safe_load(open("docker-compose.yml"))["services"].keys())',
    'import tomllib\nwith open("pyproject.toml", "rb") as f:\n    cfg = tomllib.load(f)\n'
    'print(cfg.get("project", {}).get("version"))',
    "import pandas as pd; df = pd.read_csv('reports/q3.csv'); print(df.describe().tail(3))",
    'import pathlib; print(len([p for p in pathlib.Path("tests").rglob("test_*.py")]))',
    'import pathlib\nfor p in pathlib.Path("docs").glob("*.md"):\n'
    '    print(p.read_text().count("TODO"))',
    "from datetime import date, timedelta\n"
    "print((date(2024, 1, 1) + timedelta(days=90)).isoformat())",
    'print(open("VERSION").read().strip().split(".")[0])',
    # an import runs the module as `python -m` would; its version and file are strings
    "import app; print(app.__version__)",
    "import requests; print(requests.__version__)",
    "import lib, sys; print(lib.__file__)",
]


@pytest.mark.parametrize("code", QUIET)
def test_everyday_code_is_quiet(code: str) -> None:
    reading = read_python(code)
    assert reading.parsed and reading.quiet, code


LOUD = [
    "import fastapi; fastapi.__loader__",  # a dunder other than the version
    "import numpy; numpy.VERSION()",  # called: not a listed call
    "import app; print(app.run())",  # the project's code, called: not read
    "import yaml; yaml.load(open('ci.yml'), Loader=yaml.Loader)",  # may build any object
    "import pandas as pd; pd.read_csv('a.csv').to_csv(input())",  # a write it cannot name
    "import pandas as pd; pd.read_csv(input())",
    "import pandas as pd; print(pd.read_csv('https://x.example/t.csv'))",
    'import pathlib; [p.unlink() for p in pathlib.Path("src").rglob("*.pyc")]',
    # Python's globs take dot-names too: any name, or a secret's, may be read
    'import pathlib; [print(p.read_text()) for p in pathlib.Path("src").rglob("*")]',
    'import pathlib; [print(open(p).read()) for p in pathlib.Path(".").rglob("*.env")]',
    'import pathlib; [print(p.read_text()) for p in pathlib.Path("src").glob("../*/*.py")]',
    "import requests; print(requests.get(u))",  # the network's calls stay asked
    "import secrets, os; print(secrets.token_hex(8), os.environ)",
]


@pytest.mark.parametrize("code", LOUD)
def test_neighbours_are_not_quiet(code: str) -> None:
    assert not read_python(code).quiet, code


def test_what_quiet_code_reads_is_judged_as_reads() -> None:
    acts = read_python(
        "import pandas as pd, pathlib; pd.read_parquet('data/a.parquet');"
        " [p.read_text() for p in pathlib.Path('src').rglob('*.py')]"
    ).acts
    assert CodeAct("read", "data/a.parquet") in acts
    assert CodeAct("read", "src/**/*.py") in acts
    url = read_python("import pandas as pd; pd.read_json('https://x.example/a.json')").acts
    assert CodeAct("network", "https://x.example/a.json") in url


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("python3 -c \"import fastapi; print(fastapi.__version__)\"", None),
        ("python3 -c \"import pandas as pd; print(pd.read_csv('data/raw/a.csv').head())\"", None),
        ("python3 -c \"import pandas as pd; print(pd.read_csv('.env'))\"", "ask"),
        ("python3 -c 'import pathlib; [print(p.read_text()) for p in "
         "pathlib.Path.home().glob(\".ssh/id_*\")]'", "deny"),
        ("python3 -c 'import yaml; print(yaml.safe_load(open("
         "\"/home/ada-guard-test/.kube/config\")))'", "deny"),
    ],
)  # fmt: skip
def test_quiet_code_is_never_granted_and_its_reads_are_judged(
    verdict: Judge, command: str, decision: str | None
) -> None:
    result = verdict(command)
    assert result.decision == decision, result.pieces
