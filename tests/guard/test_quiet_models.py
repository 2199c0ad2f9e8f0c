"""Models fitted and scored in memory, a frame's columns read as attributes, a workbook
read (`pynames`, `pydata`, `pyreader`): quiet, each file judged as its read or write; a
method that acts handed on, a save the reader cannot name, stay asked."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.codeacts import CodeAct
from amplifier_hooks.guard.pynames import column_like
from amplifier_hooks.guard.pyreader import read_python

QUIET = [
    ("import xgboost as xgb, pandas as pd; df = pd.read_parquet('data/train.parquet'); "
     "m = xgb.XGBClassifier(n_estimators=300).fit(df.drop(columns='y'), df.y); "
     "m.save_model('models/xgb.json')",
     [CodeAct("read", "data/train.parquet"), CodeAct("write", "models/xgb.json")]),
    ("import pandas as pd; from sklearn.metrics import classification_report as cr; "
     "p = pd.read_csv('outputs/preds.csv'); print(cr(p.y, p.pred))",
     [CodeAct("read", "outputs/preds.csv")]),
    ("import pandas as pd; d = pd.read_csv('a.csv'); print(d.amount.mean(), d.y.sum())",
     [CodeAct("read", "a.csv")]),
    ("import openpyxl; wb = openpyxl.load_workbook('data/m.xlsx', read_only=True); "
     "print(wb.sheetnames)", [CodeAct("read", "data/m.xlsx")]),
    ('import sqlite3; c=sqlite3.connect("db/dev.sqlite3"); '
     'print(c.execute("pragma integrity_check").fetchone())', [CodeAct("read", "db/dev.sqlite3")]),
    ("import sqlite3; c = sqlite3.connect('db/a.db'); "
     "print(c.execute('SELECT count(*) FROM users WHERE id > ?', (3,)).fetchall())",
     [CodeAct("read", "db/a.db")]),
]  # fmt: skip


@pytest.mark.parametrize(("code", "acts"), QUIET)
def test_models_columns_and_workbooks_are_quiet(code: str, acts: list[CodeAct]) -> None:
    reading = read_python(code)
    assert reading.parsed and reading.quiet, code
    assert sorted(reading.acts, key=repr) == sorted(acts, key=repr)


LOUD = [
    # a method that writes, reads or runs, handed on to be called where it is not seen
    "import pandas as pd; df = pd.read_csv('a.csv'); list(map(df.to_pickle, ['b']))",
    "import numpy as np; a = np.array([1]); list(map(a.tofile, ['/tmp/x']))",
    "import pandas as pd; df = pd.read_csv('a.csv'); f = df.query; f('x > 1')",
    "import pandas as pd; df = pd.read_csv('a.csv'); list(map(df.pipe, [print]))",
    "import pandas as pd; df = pd.read_csv('a.csv'); print(df._mgr)",
    "import openpyxl; openpyxl.load_workbook('a.xlsx').save('b.xlsx')",  # a save: not read
    "import xgboost as xgb; xgb.XGBClassifier().save_model('s3://b/m.json')",  # elsewhere
    "import xgboost as xgb; xgb.XGBClassifier().save_model(input())",
    "import xgboost as xgb; xgb.XGBClassifier().load_model('m.json')",
    "import pandas as pd; print(pd.read_csv('a.csv').y.to_pickle('b.pkl'))",
    "import requests; r = requests.get('http://localhost:8000'); print(r.status_code)",
    # SQL that writes, attaches another file, sets a pragma, or is not literal
    "import sqlite3; sqlite3.connect('a.db').execute('drop table users')",
    "import sqlite3; sqlite3.connect('a.db').execute('select 1; drop table users')",
    "import sqlite3; sqlite3.connect('a.db').execute(\"attach '/tmp/x.db' as x\")",
    "import sqlite3; sqlite3.connect('a.db').execute('pragma journal_mode=WAL')",
    "import sqlite3; sqlite3.connect('a.db').execute('pragma journal_mode(WAL)')",
    "import sqlite3; sqlite3.connect('a.db').execute('with x as (select 1) insert into t "
    "select * from x')",
    "import sqlite3; sqlite3.connect('a.db').execute(input())",
    "import sqlite3; sqlite3.connect('a.db').executescript('select 1')",
    "import sqlite3; c = sqlite3.connect('a.db'); c.enable_load_extension(True)",
    "import sqlite3; sqlite3.connect('file:/home/x/.ssh/k?mode=rw', uri=True).execute('select 1')",
]  # fmt: skip


@pytest.mark.parametrize("code", LOUD)
def test_acting_methods_and_unnamed_saves_stay_loud(code: str) -> None:
    assert not read_python(code).quiet, code


def test_a_model_saved_outside_is_a_write_judged() -> None:
    reading = read_python("import xgboost as xgb; xgb.XGBRegressor().save_model('/etc/m')")
    assert CodeAct("write", "/etc/m") in reading.acts


@pytest.mark.parametrize("name", ["y", "pred", "sheetnames", "amount", "label"])
def test_columns_are_data(name: str) -> None:
    assert column_like(name)


@pytest.mark.parametrize("name", ["to_csv", "tofile", "write_csv", "save", "query", "_x"])
def test_acting_names_are_not_columns(name: str) -> None:
    assert not column_like(name)
