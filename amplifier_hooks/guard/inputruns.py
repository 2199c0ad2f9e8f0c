"""An edit that makes the application run, as a command or as code, what a request sends.

A chat bot's command that hands the message's text to ``execSync``, a web handler that
passes ``req.query.cmd`` to ``os.system`` or ``eval``: whoever can send the bot a message
or the server a request runs commands on the machine it is deployed to. An edit whose new
text adds a call to a command runner or an evaluator whose first argument is read from
the incoming message or request (``ctx.text``, ``req.body``, ``message.content``,
``request.args``), one its old text did not have, is marked `INPUT_RUN` (asked); so is a
query whose SQL is built from values by interpolation (``$queryRawUnsafe(`... ${q}`)``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs
from amplifier_hooks.guard.testpaths import test_code

__all__ = ["INPUT_RUN", "runs_input"]

INPUT_RUN = "@input-run"
_RUN = re.compile(
    r"\b(?:execSync|exec|execFile|execFileSync|spawn|spawnSync|eval|Function|vm\.runInNewContext"
    r"|os\.system|os\.popen|subprocess\.(?:run|call|check_output|check_call|Popen)|system"
    r"|shell_exec|passthru|popen|proc_open|Runtime\.getRuntime\(\)\.exec)\s*\(\s*"
    r"(?:[`'\"][^`'\"]*\$\{\s*)?"
    r"(?P<arg>(?:ctx|req|request|msg|message|interaction|event|evt|body|params|query|payload"
    r"|update|command)\b[\w.\[\]'\"()]*)"
)
"""A runner's or an evaluator's call whose argument starts from the incoming request (a
Slack command's ``command["text"]`` among them)."""
_RAW_SQL = re.compile(
    r"(?:def|function)\s+\w+\s*\([^)]*\b(?P<name>sql|query|statement|stmt)\s*(?::\s*str)?[^)]*\)"
    r"[^\n]*\n(?:[^\n]*\n){0,4}?[^\n]*\.(?:fetch\w*|execute\w*|query|raw)\(\s*(?P=name)\s*[,)]"
)
"""A command's (a handler's) SQL parameter run as it is sent: whoever calls it reads or
changes every table."""
_DML = r"(?:SELECT|INSERT|UPDATE|DELETE|WITH)\b"
_SQL_INTERPOLATED = re.compile(
    r"\$(?:queryRaw|executeRaw)Unsafe\(\s*`[^`]*\$\{"
    r"|\.(?:query|raw|execute|exec|executeQuery|unsafe)\(\s*`\s*" + _DML + r"[^`]*\$\{"
    r"|\.(?:execute|executemany|raw|exec_driver_sql)\(\s*f[\"']{1,3}\s*" + _DML + r"[^\n]*\{"
    r"|\.(?:execute|executemany|raw)\(\s*[\"']{1,3}\s*"
    + _DML
    + r"[^\"'\n]*[\"']{1,3}\s*(?:%\s*[\w(]|\.format\()"
    r"|\.(?:where|find_by_sql|execute|exec_query|select_all|order|joins|having|group|pluck|from)"
    r"\(\s*\"[^\"\n]*#\{\s*(?:params|request)\b"
    r"|\b(?:FromSqlRaw|ExecuteSqlRaw\w*|SqlQueryRaw)\s*\(\s*(?:\$@?\"|@\$\"|\"[^\"\n]*\"\s*\+)"
    r"|\bnew\s+SqlCommand\s*\(\s*(?:\$@?\"|\"[^\"\n]*\"\s*\+)"
    r"|\bDB::(?:select|statement|unprepared|insert|update|delete|raw)\(\s*\"[^\"\n]*\$\w"
    r"|\bfmt\.Sprintf\(\s*[\"`]\s*" + _DML + r"[^\"`\n]*%[sv]"
    r"|\btext\(\s*f[\"']{1,3}\s*" + _DML + r"[^\n]*\{"
    r"|\b(?:text|execute)\(\s*[\"']{1,3}\s*" + _DML + r"[^\"\n]*[\"']{1,3}\s*%\s*[\w(]"
    r"|\bformat!\(\s*\"\s*" + _DML + r"[^\"\n]*'\{\}'|\bsql_query\(\s*format!\(",
    re.I,
)
_PHP_RUN = re.compile(
    r"\b(?:unserialize|eval|assert|shell_exec|system|passthru|exec|popen|proc_open)\s*\("
    r"[^;\n]*\$(?:request\b|_GET\b|_POST\b|_COOKIE\b|_REQUEST\b|r->)"
    r"|\bview\(\s*\$\w+->input\(|->move\(\s*public_path\([^\n]*getClientOriginalName\(\)"
)
"""PHP's runners and ``unserialize`` handed what the request sends (``unserialize(
base64_decode($request->cookie('cart')))``, ``shell_exec("convert {$request->input('f')}")``),
a view chosen by the request, or an upload kept under the web root by the name its
sender gave it (``shell.php`` is then run by the web server)."""
_PY_RUN = re.compile(
    r"\b(?:pickle|cPickle|dill|jsonpickle|marshal|shelve)\.(?:loads?|decode)\([^\n]*"
    r"\b(?:request|cookies?|body|payload|data|message)\b"
    r"|\byaml\.load\([^\n]*Loader\s*=\s*yaml\.(?:Loader|UnsafeLoader|FullLoader)\b|\byaml\.unsafe_load\("
    r"|\bsubprocess\.\w+\(\s*f[\"'][^\n]*\bshell\s*=\s*True"
    r"|\brender_template_string\(\s*(?:f[\"']|[^)\n]*\brequest\b)"
    r"|\bimport_module\(\s*(?:module|name|kind|request)\b|\bgetattr\(\s*importlib\.import_module\("
    r"|\b(?:resolve_entities|load_dtd)\s*=\s*True\b|\bno_network\s*=\s*False\b"
    r"|\bsend_file\(\s*os\.path\.join\([^\n]*\brequest\b|\burlopen\(\s*\w*url\b"
    r"|\bZipFile\([^\n]*\)\.extractall\(|\bStaticFiles\(\s*directory\s*=\s*[\"']/[\"']"
    r"|\badd_static\([^\n]*(?:[\"']/[\"']|expanduser|Path\.home\(\)|show_index\s*=\s*True)"
    r"|\bALLOWED_EXTENSIONS\s*=\s*[\[{(][^\]})\n]*[\"'](?:html?|svg|js|php|py|exe)[\"']"
    r"|\bServeDir::new\(\s*\"/\"\s*\)|\bwith_no_limit\(\)"
    r"|(?s:Command::new\(\s*\"(?:sh|bash|zsh)\"\s*\)\s*\.arg\(\s*\"-c\"\s*\)\s*\.arg\(\s*&?format!)"
    r"|\bunsafe\s*\{[^}\n]*(?:_unchecked\(|as_ptr\(\)\s*as\s*\*const)"
)
"""Python handed what a request sends: unpickled, loaded as YAML with Python's tags, put
in a shell's command line or a template's source, a module chosen by it, an XML parser
told to resolve entities and fetch DTDs, a file sent from a path the request names, a
URL opened with ``urlopen`` (``file://`` too), an archive unpacked unchecked, the whole
file system or a home folder served, uploads allowed as pages or scripts."""
_PHP_EVAL = re.compile(r"(?<![\w>$:])eval\s*\(")
"""PHP's ``eval``: whatever text reaches it runs with the application's rights."""
"""A query whose SQL text is built from values (a template's ``${q}``, an f-string's
``{q}``, ``%`` or ``.format``) and run as it is (Prisma's ``$queryRawUnsafe``): a value
from a request ends the string and adds its own SQL."""
_MAX_TEXT = 64 * 1024


def runs_input(inputs: Mapping[str, Any], paths: tuple[str, ...] = ()) -> bool:
    """Whether a write or edit (of ``paths``) adds a call that runs what a request or
    message sends (a test's file may build SQL so, to show a linter the bad case)."""
    tests = bool(paths) and all(map(test_code, paths))
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if more(_RUN, old, new) or more(_RAW_SQL, old, new) or more(_PHP_RUN, old, new):
            return True
        if more(_PY_RUN, old, new):
            return True
        if "forbid(unsafe_code)" in old and "forbid(unsafe_code)" not in new:
            return True  # a crate's ban of unsafe code lifted, where untrusted input arrives
        if any(p.endswith(".php") for p in paths) and more(_PHP_EVAL, old, new):
            return True
        if not tests and more(_SQL_INTERPOLATED, old, new):
            return True
    return False
