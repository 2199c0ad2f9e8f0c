"""The names of inline Python the reader (`pyreader`) knows: the modules, calls,
attributes and methods that change nothing and reach nothing (*quiet*), the names that run
code the text does not show (*dynamic*), and the calls that reach the network.

A list, not a guess: a call on none of them keeps the code asked.
"""

from __future__ import annotations

from amplifier_hooks.guard.pydata import HUB_LOADS

__all__ = [
    "ALIASES",
    "DATA_ATTRIBUTES",
    "DATA_CALLS",
    "DYNAMIC",
    "NETWORK",
    "PURE_BUILTINS",
    "QUIET_ATTRIBUTES",
    "QUIET_CALLS",
    "QUIET_METHODS",
    "QUIET_MODULES",
    "QUIET_PREFIXES",
    "READ_CALLS",
    "VERSION_ATTRIBUTES",
    "canonical",
    "column_like",
]

QUIET_MODULES = frozenset(
    {"sys", "os", "os.path", "json", "platform", "math", "re", "pathlib", "datetime",
     "collections", "itertools", "functools", "string", "textwrap", "statistics",
     "decimal", "fractions", "keyword", "tomllib", "sysconfig", "struct", "typing",
     "operator", "unicodedata", "locale", "shutil", "subprocess", "time", "calendar",
     "pprint", "hashlib", "base64", "binascii", "uuid", "random", "__future__", "secrets",
     "csv",
     # widely installed packages, asked about by name (``import fastapi``, a version)
     "yaml", "pandas", "numpy", "polars", "pyarrow", "fastapi", "pydantic", "starlette",
     "django", "flask", "sqlalchemy", "click", "typer", "rich", "attrs", "jinja2", "toml",
     "tomli", "packaging", "pytest", "uvicorn", "pyarrow.parquet", "certifi", "torch", "duckdb",
     # parsers of the standard library that only build data from text
     "ast", "xml.etree.ElementTree"}
)  # fmt: skip
"""Modules whose import runs nothing but their own definitions; what the code then calls
is judged call by call (importing ``subprocess`` is quiet, calling it is not)."""

VERSION_ATTRIBUTES = frozenset({"__version__", "VERSION"})
"""A module's version, read without calling anything (``fastapi.__version__``)."""

READ_CALLS = frozenset(
    {"pandas.read_csv", "pandas.read_parquet", "pandas.read_json", "pandas.read_table",
     "pandas.read_excel", "pandas.read_feather", "polars.read_csv", "polars.read_parquet",
     "polars.read_json", "polars.scan_csv", "polars.scan_parquet",
     "pyarrow.parquet.read_metadata", "pyarrow.parquet.read_schema",
     "pyarrow.parquet.read_table", "numpy.load", "numpy.loadtxt", "numpy.genfromtxt",
     "xml.etree.ElementTree.parse", "configparser.ConfigParser.read",
     "configparser.RawConfigParser.read",
     # tensors from a safetensors file: a header and raw numbers, no pickle, nothing run
     "safetensors.torch.load_file", "safetensors.numpy.load_file",
     # a workbook's cells and sheets (a zip of XML; its macros are kept, never run)
     "openpyxl.load_workbook",
     # a SQLite database, its statements read where they are run (`pysqlite`)
     "sqlite3.connect"}
)  # fmt: skip
"""Calls that read the file their first argument names and change nothing: a read of
that path (a URL: the network), judged; what they return is data."""
READER_OBJECTS = frozenset({"configparser.ConfigParser", "configparser.RawConfigParser"})
"""Objects whose methods are named by the object's kind (``cp = ConfigParser();
cp.read(path)`` is ``configparser.ConfigParser.read``), so a read through one is judged."""

DATA_CALLS = frozenset(
    {"pandas.json_normalize", "pandas.DataFrame", "pandas.Series", "pandas.concat",
     "pandas.merge", "pandas.to_datetime", "pandas.to_numeric", "pandas.crosstab",
     "pandas.isna", "polars.col", "polars.lit", "polars.len", "polars.count",
     "polars.concat", "polars.DataFrame", "numpy.array", "numpy.asarray", "numpy.mean",
     "numpy.median", "numpy.std", "numpy.percentile", "numpy.arange", "numpy.zeros",
     "numpy.unique",
     "statistics.mean", "statistics.median", "statistics.stdev", "statistics.pstdev",
     "statistics.variance", "statistics.quantiles", "statistics.mode", "statistics.fmean",
     "ast.parse", "ast.walk", "ast.dump", "ast.unparse", "ast.literal_eval",
     "ast.iter_child_nodes", "ast.get_docstring", "xml.etree.ElementTree.fromstring",
     "certifi.where", "torch.cuda.is_available", "torch.cuda.device_count",
     "torch.cuda.mem_get_info", "torch.cuda.get_device_name", "torch.cuda.current_device",
     # a DuckDB statement's files are read from its text where it is called (`sqlfiles`)
     "duckdb.sql", "duckdb.query",
     # plots drawn into a figure in memory (saved only by a write `pydata` judges)
     "matplotlib.use", "matplotlib.pyplot.figure", "matplotlib.pyplot.subplots",
     "matplotlib.pyplot.plot", "matplotlib.pyplot.title", "matplotlib.pyplot.xlabel",
     "matplotlib.pyplot.ylabel", "matplotlib.pyplot.legend", "matplotlib.pyplot.tight_layout",
     "matplotlib.pyplot.close", "seaborn.histplot", "seaborn.scatterplot", "seaborn.lineplot",
     "seaborn.barplot", "seaborn.boxplot", "seaborn.heatmap", "seaborn.countplot",
     "seaborn.kdeplot", "seaborn.violinplot", "seaborn.set_theme", "plotly.express.scatter",
     "plotly.express.line", "plotly.express.bar", "plotly.express.histogram",
     "plotly.express.box",
     # models fitted and scored in memory
     "sklearn.model_selection.cross_val_score", "sklearn.model_selection.train_test_split",
     "sklearn.linear_model.LogisticRegression", "sklearn.linear_model.LinearRegression",
     "sklearn.metrics.accuracy_score", "sklearn.metrics.f1_score",
     "sklearn.metrics.classification_report", "sklearn.ensemble.RandomForestClassifier",
     "sklearn.ensemble.RandomForestRegressor", "sklearn.linear_model.Ridge",
     "sklearn.metrics.confusion_matrix", "sklearn.metrics.roc_auc_score",
     "sklearn.metrics.precision_score", "sklearn.metrics.recall_score",
     "sklearn.metrics.mean_squared_error", "sklearn.metrics.mean_absolute_error",
     "sklearn.metrics.r2_score", "sklearn.model_selection.KFold",
     "sklearn.model_selection.StratifiedKFold", "sklearn.preprocessing.StandardScaler",
     "xgboost.XGBClassifier", "xgboost.XGBRegressor", "lightgbm.LGBMClassifier",
     "lightgbm.LGBMRegressor",
     # a cron schedule's next times, from its text
     "croniter.croniter"}
)  # fmt: skip
"""Calls of data-analysis and parsing libraries that build data from data and touch no
file (``pd.json_normalize``, ``pl.col``, ``statistics.median``, ``ast.parse`` of a text:
parsing runs nothing), or answer a question about the machine (``torch.cuda``,
``certifi.where``)."""

QUIET_CALLS = frozenset(
    {"print", "len", "str", "int", "float", "bool", "repr", "sorted", "reversed", "list",
     "dict", "tuple", "set", "frozenset", "range", "enumerate", "zip", "min", "max", "sum",
     "abs", "round", "any", "all", "isinstance", "chr", "ord", "hex", "oct", "bin", "format",
     "divmod", "pow", "hash", "type", "map", "filter", "ascii", "bytes", "iter", "next",
     "json.load", "json.loads", "json.dumps", "json.dump", "tomllib.load", "tomllib.loads",
     "csv.reader", "csv.DictReader",
     "platform.system", "platform.machine", "platform.platform", "platform.release",
     "platform.version", "platform.python_version", "platform.python_implementation",
     "platform.architecture", "platform.processor", "platform.node", "platform.uname",
     "platform.mac_ver", "platform.libc_ver", "platform.python_version_tuple",
     "os.getcwd", "os.cpu_count", "os.getpid", "os.path.join", "os.path.basename",
     "os.path.dirname", "os.path.splitext", "os.path.split", "os.path.exists",
     "os.path.isfile", "os.path.isdir", "os.path.expanduser", "os.path.abspath",
     "os.path.normpath", "os.path.realpath", "os.path.getsize", "os.fspath",
     "sys.getrecursionlimit", "sys.getdefaultencoding", "sys.getfilesystemencoding",
     "sys.exit", "sysconfig.get_python_version", "sysconfig.get_platform",
     "sysconfig.get_paths", "sysconfig.get_path", "math.sqrt", "math.floor", "math.ceil",
     "math.log", "math.pi", "datetime.date", "datetime.datetime", "datetime.time",
     "datetime.timedelta", "calendar.isleap", "calendar.monthrange", "calendar.weekday",
     "datetime.datetime.now", "datetime.date.today", "unicodedata.normalize",
     "unicodedata.category", "unicodedata.lookup",
     "datetime.datetime.utcnow", "time.time", "hashlib.sha256", "hashlib.md5",
     "hashlib.sha1", "base64.b64encode", "base64.b64decode", "uuid.uuid4", "re.match",
     "re.search", "re.findall", "re.sub", "re.compile", "re.fullmatch", "re.split",
     "textwrap.dedent", "textwrap.indent", "textwrap.fill", "pprint.pprint", "open",
     "io.open", "pathlib.Path", "pathlib.PurePath", "pathlib.Path.home", "pathlib.Path.cwd",
     "shutil.which", "shutil.disk_usage", "collections.Counter", "collections.OrderedDict",
     "collections.defaultdict", "random.random", "random.randint", "random.choice",
     "struct.calcsize", "locale.getpreferredencoding", "unicodedata.name",
     "secrets.token_hex", "secrets.token_urlsafe", "secrets.token_bytes",
     "secrets.randbelow", "secrets.choice", "yaml.safe_load", "yaml.safe_load_all",
     "yaml.safe_dump", "django.get_version", *READ_CALLS, *DATA_CALLS,
     # a download by hub name into a cache, whose arguments `pyreader` checks first
     *HUB_LOADS}
)  # fmt: skip
"""Calls that change nothing and reach nothing (``open`` only for reading: a write mode
makes it an act; ``json.dump`` writes only the file it is given, whose opening is one); a
file they read is judged as a read of it."""

QUIET_ATTRIBUTES = frozenset(
    {"ast.FunctionDef", "ast.AsyncFunctionDef", "ast.ClassDef", "ast.Call", "ast.Import",
     "ast.ImportFrom", "ast.Name", "ast.Attribute", "ast.Constant", "ast.Assign",
     "sys.version", "sys.version_info", "sys.platform", "sys.executable", "sys.prefix",
     "sys.base_prefix", "sys.path", "sys.maxsize", "sys.byteorder", "sys.implementation",
     "sys.argv", "sys.stdin", "sys.stdout", "sys.stderr", "sys.flags",
     "os.sep", "os.name", "os.linesep", "os.pathsep", "os.curdir", "math.pi", "math.e",
     "math.inf", "string.ascii_letters", "string.digits", "string.ascii_lowercase",
     "string.ascii_uppercase", "string.punctuation"}
)  # fmt: skip
"""Module attributes read without calling anything (``os.environ`` is not one: it holds
secrets)."""

QUIET_METHODS = frozenset(
    {"read", "readline", "readlines", "strip", "lstrip", "rstrip", "split", "rsplit",
     "splitlines", "join", "upper", "lower", "title", "startswith", "endswith", "replace",
     "format", "encode", "decode", "get", "keys", "values", "items", "count", "index",
     "find", "partition", "rpartition", "zfill", "ljust", "rjust", "center", "isdigit",
     "isalpha", "hexdigest", "digest", "copy", "casefold", "removeprefix", "removesuffix",
     "read_text", "read_bytes", "exists", "is_file", "is_dir", "resolve", "absolute",
     "expanduser", "joinpath", "with_suffix", "with_name", "as_posix", "isoformat",
     "strftime", "most_common", "group", "groups", "glob", "rglob", "iterdir",
     # a data frame's (pandas, polars): each returns data and writes nothing
     "describe", "isna", "isnull", "notna", "sum", "mean", "median", "std", "min", "max",
     "groupby", "sort_values", "sort_index", "head", "tail", "value_counts", "nunique",
     "unique", "shape", "columns", "dtypes", "info", "to_string", "tolist", "to_list",
     "reset_index", "dropna", "nlargest", "nsmallest", "size", "merge", "sample", "agg",
     "aggregate", "to_dict", "to_numpy", "astype", "drop", "corr", "quantile", "fillna",
     "set_index", "drop_duplicates", "isin", "cumsum", "var", "idxmax", "idxmin",
     "reshape", "flatten", "transpose", "len", "contains", "select", "filter", "collect",
     "with_columns", "group_by", "is_null", "is_not_null", "alias", "item",
     # a parsed XML tree's or syntax tree's
     "getroot", "iter", "findall", "findtext",
     # a compiled pattern's
     "search", "match", "fullmatch", "finditer", "sub", "subn",
     # a DuckDB relation's
     "df", "fetchall", "fetchone", "fetchdf", "pl", "arrow", "show",
     # a frame drawn into a figure in memory; a cron schedule's next time
     "plot", "get_next", "get_prev",
     # a model's (scikit-learn's, XGBoost's): fitted and scored in memory
     "fit", "predict", "predict_proba", "score", "fit_transform", "get_params",
     # a SQLite connection's, given SQL that only reads (`pyreader`, `pysqlite`)
     "execute", "fetchmany"}
)  # fmt: skip

DATA_ATTRIBUTES = frozenset(
    {"T", "str", "dt", "columns", "index", "shape", "dtype", "dtypes", "schema", "ndim",
     "size", "empty", "values", "name", "iloc", "loc", "tag", "text", "attrib", "lineno",
     "body", "names", "num_rows", "num_columns", "num_row_groups", "figure"}
)  # fmt: skip
"""Attributes of data read without calling anything (a frame's ``T`` or ``columns``, an
array's ``shape``, an XML element's ``tag``, a syntax tree's ``body``): each is data, never
a method handed on to be called elsewhere."""

_ACTING = ("to", "write", "save", "sink", "dump", "pipe", "apply", "map", "eval", "query",
           "transform", "agg", "style", "plot", "hist", "box", "export", "store", "remove",
           "delete", "unlink", "open", "read", "load", "run", "exec", "call", "send",
           "upload", "push", "_")  # fmt: skip
"""Beginnings of the names data libraries give methods that write or read a file, run a
function or an expression given to them, send, or draw (``to_pickle``, ``tofile``,
``write_csv``, ``save``, ``sink_parquet``, ``pipe``, ``apply``, ``eval``, ``query``), and
private names."""


def column_like(attribute: str) -> bool:
    """``df.y``, ``p.pred``, ``wb.sheetnames``: an attribute of data read, not called, is a
    column or a property (data) unless its name is one a method that acts may have: such a
    method handed on (``map(df.to_pickle, paths)``) is called where the reader cannot see."""
    return not attribute.startswith(_ACTING)


"""Methods that change nothing, called on a value the reader knows (a literal, a path, a
file it opened for reading, data ``json.load`` returned); ``read_text``: a read of that
path, judged."""

DYNAMIC = frozenset(
    {"eval", "exec", "compile", "__import__", "getattr", "setattr", "delattr", "globals",
     "locals", "vars", "breakpoint", "input", "importlib.import_module", "importlib",
     "runpy.run_path", "runpy.run_module", "ctypes", "pickle.load", "pickle.loads",
     "marshal.loads", "code.interact", "os.execv", "builtins"}
)  # fmt: skip
"""Names that run code the text does not show, or look names up at run time."""


NETWORK = frozenset(
    {"urllib.request.urlopen", "urllib.request.urlretrieve", "urllib.request.Request",
     "urllib.request.build_opener", "urllib.urlopen", "urllib2.urlopen",
     "http.client.HTTPConnection", "http.client.HTTPSConnection", "smtplib.SMTP",
     "smtplib.SMTP_SSL", "ftplib.FTP", "ftplib.FTP_TLS", "telnetlib.Telnet",
     "xmlrpc.client.ServerProxy", "aiohttp.ClientSession", "paramiko.SSHClient",
     "webbrowser.open", "ssl.create_connection"}
)  # fmt: skip
"""Calls that reach another machine (and every call of ``requests``, ``httpx`` and
``socket``)."""
ALIASES = {"posixpath": "os.path", "posix": "os", "ntpath": "os.path", "nt": "os",
            "_posixsubprocess": "subprocess", "pathlib.PosixPath": "pathlib.Path",
            "pathlib.WindowsPath": "pathlib.Path"}  # fmt: skip


def canonical(name: str) -> str:
    """``posix.system`` is ``os.system``: the same function under another module's name."""
    head, dot, rest = name.partition(".")
    if name in ALIASES:
        return ALIASES[name]
    if head in ALIASES and dot:
        return f"{ALIASES[head]}.{rest}"
    return name


QUIET_PREFIXES = frozenset(
    name.rsplit(".", n)[0] for name in QUIET_CALLS | QUIET_ATTRIBUTES
    for n in range(1, name.count(".") + 1)
) | QUIET_MODULES  # fmt: skip
"""Modules and classes on the way to a quiet call (``datetime.datetime``, ``os.path``)."""

PURE_BUILTINS = frozenset(
    {"len", "str", "int", "float", "bool", "repr", "sorted", "reversed", "list", "dict",
     "tuple", "set", "frozenset", "range", "enumerate", "zip", "min", "max", "sum", "abs",
     "round", "any", "all", "chr", "ord", "hex", "oct", "bin", "format", "divmod", "pow",
     "hash", "ascii", "bytes", "True", "False", "None", "print", "isinstance", "type",
     "Exception", "ValueError", "KeyError", "TypeError", "IndexError", "OSError",
     "FileNotFoundError", "StopIteration", "NotImplemented", "Ellipsis"}
)  # fmt: skip
"""Builtins that may be passed as values (``map(str, xs)``, ``key=len``): called with any
arguments they change nothing (``open`` is not one: ``map(open, paths, modes)``)."""
