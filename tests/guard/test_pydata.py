"""Data libraries' writes of paths named in full, hub loads and imports in inline Python
(`pydata`, `pyreader`): quiet, each write judged as `tee -- path`; a raw write handle
(``open(p, "w")``) and anything the reader cannot name stay asked."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.codeacts import CodeAct, plain_written_path
from amplifier_hooks.guard.envs import Kind, kind_of
from amplifier_hooks.guard.pydata import hub_name
from amplifier_hooks.guard.pyreader import read_python
from tests.guard.conftest import Judge

QUIET = [
    ("import pandas as pd; pd.read_csv('data/raw/a.csv').sample(9).to_csv('data/s.csv', "
     "index=False)",
     [CodeAct("write", "data/s.csv"), CodeAct("read", "data/raw/a.csv")]),
    ("import polars as pl; pl.read_csv('a.csv').write_parquet('b.parquet')",
     [CodeAct("write", "b.parquet"), CodeAct("read", "a.csv")]),
    ("import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt; "
     "plt.savefig('reports/loss.png', dpi=150)", [CodeAct("write", "reports/loss.png")]),
    ("import seaborn as sns; sns.histplot([1, 2]).figure.savefig('f.png')",
     [CodeAct("write", "f.png")]),
    ("import plotly.express as px; px.scatter(x=[1], y=[2]).write_html('r.html')",
     [CodeAct("write", "r.html")]),
    ("import pandas as pd; print(pd.read_csv('a.csv').to_csv())", [CodeAct("read", "a.csv")]),
    ("from transformers import AutoTokenizer; t = AutoTokenizer.from_pretrained("
     "'bert-base-uncased'); print(t('hello'))", []),
    ("from datasets import load_dataset; print(load_dataset('imdb', split='train[:1%]'))", []),
    ("import app; print(app.__version__)", []),
    ("import amplifier_hooks, os; print(os.path.dirname(amplifier_hooks.__file__))", []),
    ("from croniter import croniter; print(croniter('*/5 * * * *').get_next())", []),
    ("from typing import List\nx: List[int] = [1]\nprint(x)", []),  # a name read, not called
]  # fmt: skip


@pytest.mark.parametrize(("code", "acts"), QUIET)
def test_named_writes_loads_and_imports_are_quiet(code: str, acts: list[CodeAct]) -> None:
    reading = read_python(code)
    assert reading.parsed and reading.quiet, code
    assert list(reading.acts) == acts


LOUD = [
    "import pandas as pd; pd.read_csv('a.csv').to_csv('s3://bucket/a.csv')",  # elsewhere
    "import pandas as pd; pd.read_csv('a.csv').to_csv('b.csv', storage_options={})",
    "import pandas as pd; pd.read_csv('a.csv').to_csv(input())",
    "import pandas as pd; pd.read_csv('a.csv').to_csv('out/*.csv')",  # a pattern
    "import pandas as pd; df = pd.read_csv('a.csv'); list(map(df.to_csv, ['b.csv']))",
    "import pandas as pd; w = pd.read_csv('a.csv').to_csv; w('b.csv')",
    "open('out.txt', 'w').write('x')",  # a handle any text goes through: a script
    "import json; json.dump({}, open('tests/fixtures/e.json', 'w'))",
    "import matplotlib.pyplot as plt; f = plt.savefig; f('a.png')",
    "from datasets import load_dataset; load_dataset('org/x', trust_remote_code=True)",
    "from transformers import AutoTokenizer; AutoTokenizer.from_pretrained('/home/x/.ssh')",
    "from transformers import AutoTokenizer; AutoTokenizer.from_pretrained('../m')",
    "from transformers import AutoTokenizer; AutoTokenizer.from_pretrained(input())",
    "from transformers import AutoModel; AutoModel.from_pretrained('gpt2')",  # weights
    "import app.db; app.db.drop_all()",  # the project's code, called: not read
    "from app.db import drop_all; list(map(drop_all, [1]))",  # handed on, called unseen
    "from os import system; list(map(system, ['ls']))",
    "from os import system; f = system; list(map(f, ['ls']))",  # the same, renamed
    "from . import app",  # relative: not read
    "import app; print(app.__dict__)",  # a dunder other than a module's facts
]


@pytest.mark.parametrize("code", LOUD)
def test_writes_and_loads_the_reader_cannot_name_stay_loud(code: str) -> None:
    assert not read_python(code).quiet, code


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("python -c \"import pandas as pd; pd.read_csv('data/a.csv').to_parquet('data/a.pq')\"",
         None),
        ("MPLBACKEND=Agg python -c \"import matplotlib.pyplot as plt; plt.savefig('f.png')\"",
         None),
        # the same writes into places the rules stop
        ("python -c \"import pandas as pd; pd.DataFrame().to_csv('/home/ada-guard-test/.bashrc')\"",
         "deny"),
        ("python -c \"import matplotlib.pyplot as plt; plt.savefig('.git/hooks/pre-commit')\"",
         "deny"),
        ("python -c \"import pandas as pd; pd.DataFrame().to_csv('/home/ada-guard-test/x.csv')\"",
         "ask"),
        ("python3 -c \"import pandas as pd; pd.DataFrame().to_csv('.kube/config')\"", "deny"),
        ("MPLBACKEND=module://x python -c \"import matplotlib.pyplot as plt; plt.savefig('f')\"",
         "ask"),
    ],
)  # fmt: skip
def test_a_write_by_inline_code_is_judged_where_it_lands(
    verdict: Judge, command: str, decision: str | None
) -> None:
    result = verdict(command)
    assert result.decision == decision, result.pieces  # (never "allow": code is not granted)


def test_a_protected_place_written_by_quiet_code_is_denied_by_its_own_rule(
    verdict: Judge,
) -> None:
    result = verdict("python3 -c \"import pandas as pd; pd.DataFrame().to_json('.netrc')\"")
    assert (result.decision, result.rule) == ("deny", "inline-code-protected-write")


def test_code_run_after_the_same_command_wrote_a_python_file_is_that_file_run(
    verdict: Judge,
) -> None:
    wrote = "printf 'import os\\nos.system(\"rm -rf ~\")\\n' > evil.py && python3 -c 'import evil'"
    assert verdict(wrote).decision == "deny"  # the written file is read as run: rm -rf ~
    plain = "printf 'x = 1\\n' > mod.py && python3 -c 'import mod'"
    assert verdict(plain).decision == "ask"  # (written and run at once: asked)
    assert verdict("python3 -c 'import mod; print(mod.__name__)'").decision is None


def test_a_script_a_data_library_wrote_and_the_same_command_runs_is_asked(
    verdict: Judge,
) -> None:
    wrote = (
        "python3 -c \"import pandas as pd; pd.DataFrame({'c': ['make all']})"
        ".to_csv('run.sh', index=False, header=False)\" && sh run.sh"
    )
    result = verdict(wrote)
    assert (result.decision, result.rule) == ("ask", "run-written-script")
    shown = "python3 -c \"import pandas as pd; pd.DataFrame().to_csv('a.csv')\" && head a.csv"
    assert verdict(shown).decision is None


def test_names_and_paths() -> None:
    assert hub_name("bert-base-uncased") and hub_name("org/model-1.5")
    assert not any(map(hub_name, ["../x", "./m", "/abs", "~/m", "a/b/c", "https://x", None]))
    assert plain_written_path("data/a.csv") and not plain_written_path("s3://b/a.csv")
    assert not plain_written_path("out/*.csv") and not plain_written_path(None)
    assert kind_of("MPLBACKEND", "Agg") == Kind.SAFE
    assert kind_of("MPLBACKEND", "module://x") == Kind.UNKNOWN
