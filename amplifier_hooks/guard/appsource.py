"""Python the application runs on its own: the text a write or edit adds to any ``.py``
(and a Node script's or a TypeScript handler's that sends a dotenv file or the whole
environment: `_javascript`).

A package's ``__init__.py`` runs at every import, an AppConfig's ``ready()`` and a Celery
signal handler at every start, a module's top level whenever anything imports it. An
edit that adds ``os.system('curl ... | sh')``, ``exec(base64.b64decode(...))`` or a post
of the environment to a URL plants code the person's next run executes unseen. Such text
is read with the Python reader planted files are read with (`planted`), and what it runs
or sends is judged: a deny or ask says so. Everything else stays as the edit is judged
without it (a workspace edit is granted): ordinary code is the work itself.

PHP's literal shell commands (``Schedule::exec('curl .. | bash')``, ``shell_exec('..')``),
C's and C++'s (``system("...")``, ``popen``, ``execl("/bin/sh", "sh", "-c", "...")``)
and the lines of a Laravel Envoy file's tasks are judged as the commands they are.

Reading is bounded and cheap: text without any of `_SCREEN`'s words (the calls that run a
program, run computed code or reach the network or the environment) is not parsed.
"""

from __future__ import annotations

import ast
import base64
import binascii
import posixpath
import re
import shlex
import textwrap

from amplifier_hooks.guard.codeacts import CodeAct
from amplifier_hooks.guard.jsreader import read_javascript
from amplifier_hooks.guard.pylookalikes import DISGUISED, disguised_names
from amplifier_hooks.guard.pyparsed import parse_python
from amplifier_hooks.guard.pywalk import nodes_of

__all__ = ["APP_CODE", "HIDDEN", "app_code"]

APP_CODE = "@app-code"
"""The mark of a piece read from Python an edit adds: only its deny or ask counts."""
_SCREEN = (
    "system", "popen", "Popen", "exec", "eval", "spawn", "subprocess", "b64decode",
    "decompress", "marshal", "__import__", "requests", "urllib", "urlopen", "httpx",
    "http.client", "socket", "environ", "getenv", "pty",
)  # fmt: skip
"""Words every call worth judging spells (``os.system``, ``exec``, ``requests.post``,
``os.environ``); text without any is never parsed."""
HIDDEN = "hidden-code"
"""The language of code computed at run time and run (``exec(zlib.decompress(..))``): what
it does is unread (``app-hidden-code``)."""
_RUNS_CODE = frozenset({"exec", "eval", "compile"})
_DECODERS = frozenset({"b64decode", "standard_b64decode", "urlsafe_b64decode"})
_HIDING = _DECODERS | frozenset(
    {"b32decode", "b16decode", "b85decode", "a85decode", "decodebytes", "decompress",
     "unhexlify", "fromhex", "decode", "loads"}
)  # fmt: skip
"""Calls that turn stored bytes back into code (decoded, decompressed, unmarshalled): run,
the code is hidden from whoever reads the source. Code compiled from a tree the program
builds (``eval(compile(tree, ..))``, a calculator's) is not one."""
_SENDERS = frozenset({"requests", "httpx", "urllib", "socket", "http"})
_SENDS = frozenset(
    {"post", "put", "patch", "get", "request", "send", "sendall", "sendto", "urlopen", "Request"}
)
"""The calls that send what they are handed (a client's constructor sends nothing)."""
_PLACES = frozenset({"url", "base_url", "address", "timeout", "verify", "cert", "proxy"})
"""Keywords that say where or how, not what is sent."""
MAX_APP_TEXT = 64 * 1024
"""Longer text is not read: an edit that large is judged as the edit it is."""


def app_code(path: str, text: str) -> list[tuple[str, str]]:
    """The Python ``text`` adds to ``path`` as (language, code), when it spells one of
    `_SCREEN`'s words; empty for other files, text, or text too long to read."""
    if path.endswith(_JS) and text and len(text) <= MAX_APP_TEXT:
        return _javascript(text)
    if path.endswith(".go") and text and len(text) <= MAX_APP_TEXT:
        return _go_sends(text)
    if path.endswith("Envoy.blade.php") or path.endswith("envoy.blade.php"):
        return [("shell", line) for line in _envoy_lines(text)][:8] if text else []
    if path.endswith(".php") and text and len(text) <= MAX_APP_TEXT:
        return [("shell", command) for command in _PHP_SHELL.findall(text)[:4]]
    if path.endswith(_C_FILES) and text and len(text) <= MAX_APP_TEXT:
        return [("shell", command) for command in _c_shell(text)[:4]]
    if path.endswith(_COLLECTIONS) and text and len(text) <= MAX_APP_TEXT:
        return _collection_sends(text)
    if not path.endswith(".py") or not text or len(text) > MAX_APP_TEXT:
        return []
    disguised = disguised_names(text)
    if disguised:  # names in look-alike letters, whatever they call (`pylookalikes`)
        return [(DISGUISED, " ".join(disguised))]
    if not any(word in text for word in _SCREEN):
        return []
    code = textwrap.dedent(text)
    found = [("python", code)]
    try:
        tree = parse_python(code)  # (once a decision: `pyparsed`)
    except (SyntaxError, ValueError, RecursionError):
        return found  # the reader says what it can (an edit's fragment)
    for node in nodes_of(tree):  # (`ast.walk`'s order, without its generators)
        if isinstance(node, ast.Call):
            found.extend(_runs_hidden(node) + _sends_environment(node))
    return found[:16]


_JS = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
"""A Node script (a project's own ``scripts/*.mjs``, run by ``node FILE`` or a package
script) or a service's handler (a Lambda's, a Worker's), in JavaScript or TypeScript."""
_JS_SCREEN = ("fetch", "http", "axios", "request", "socket", "net.")
"""Words a script that reaches the network spells; read only with ``.env`` in it too."""


def _javascript(text: str) -> list[tuple[str, str]]:
    """A Node script that reads a dotenv file (or the whole environment) and reaches the
    network, read with the JavaScript reader (`jsreader`): judged as that file (or the
    environment) sent there; a statement that sends a wallet's key or mnemonic, as that
    variable sent. Any other script is the work itself."""
    if ".env" not in text or not any(word in text for word in _JS_SCREEN):
        return []
    statements = _statement_acts(text)
    for acts in statements:  # (a wallet's key read elsewhere signs; sent here, it leaks)
        urls = [a.target or "$URL" for a in acts if a.does == "network"]
        keys = [
            a.target for a in acts if a.does == "env" and a.target and _WALLET_KEY.search(a.target)
        ]
        if urls and keys:
            return [("shell", f'curl --data-binary "${keys[0]}" -- {shlex.quote(urls[0])}')]
    acts = read_javascript(text).acts or tuple(a for found in statements for a in found)
    urls = [a.target or "$URL" for a in acts if a.does == "network"]
    if not urls:
        return []
    url = shlex.quote(urls[0])
    for act in acts:
        if act.does == "read" and act.target and posixpath.basename(act.target).startswith(".env"):
            return [("shell", f"curl --data-binary @{shlex.quote(act.target)} -- {url}")]
        if act.does == "env" and act.target is None:
            return [("shell", f"env | curl --data-binary @- -- {url}")]
    return []


_WALLET_KEY = re.compile(r"PRIVATE_?KEY|MNEMONIC|SEED_?PHRASE", re.I)
"""A variable holding what signs for a wallet or a deployer: no request needs it sent."""


_GO_SENDS = re.compile(r"\b(?:http\.(?:Post|PostForm|Get|NewRequest\w*)|net\.Dial\w*)\(")
_GO_URL = re.compile(r"\"(https?://[^\"\s]+)\"")


def _go_sends(text: str) -> list[tuple[str, str]]:
    """Go that sends the whole environment (``http.Post(URL, ..., strings.Join(
    os.Environ(), ...))`` in a test's ``TestMain``, which ``go test`` runs): judged as the
    environment sent there. A statement is the run of lines from the call to the first
    that closes as many parentheses as it opened, at most `_STATEMENT_LINES`."""
    if "os.Environ()" not in text:
        return []
    lines = text.splitlines()
    for start, line in enumerate(lines):
        if _GO_SENDS.search(line) is None:
            continue
        depth, end = 0, start
        for end in range(start, min(len(lines), start + _STATEMENT_LINES)):
            depth += lines[end].count("(") - lines[end].count(")")
            if depth <= 0:
                break
        statement = "\n".join(lines[start : end + 1])
        if "os.Environ()" in statement:
            found = _GO_URL.search(statement)
            url = shlex.quote(found.group(1)) if found else "$URL"
            return [("shell", f"env | curl --data-binary @- -- {url}")]
    return []


_PHP_SHELL = re.compile(
    r"\b(?:shell_exec|exec|system|passthru|popen|proc_open|Schedule::exec|->exec"
    r"|Process::(?:run|fromShellCommandline)|Process::start)\(\s*'([^'\n]{1,2000})'"
)
"""A shell command PHP hands to a shell in a literal (``Schedule::exec('curl .. | bash')``
in Laravel's scheduler, ``shell_exec('...')``): judged as that command."""
_C_FILES = (".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".m", ".mm")
_C_STRING = r'"((?:[^"\\\n]|\\.){1,2000})"'
_C_SHELL = re.compile(
    r"\b(?:system|popen)\s*\(\s*"
    + _C_STRING
    + r'|\bexecl[pe]?\s*\(\s*"[^"\n]*\b(?:sh|bash|dash|zsh)"\s*,\s*"[^"\n]*"\s*,\s*"-c"\s*,\s*'
    + _C_STRING
)
"""A shell command C hands to a shell in a literal (``system("...")``, ``popen("...",
"r")``, ``execl("/bin/sh", "sh", "-c", "...")``): judged as that command."""


def _c_shell(text: str) -> list[str]:
    """The literal shell commands of C or C++ ``text``, its escapes read."""
    return [
        re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), a or b)
        for a, b in _C_SHELL.findall(text)
    ]


def _envoy_lines(text: str) -> list[str]:
    """The shell lines of a Laravel Envoy file's tasks (``@task .. @endtask``): each runs on
    the servers the task names, production's among them, at the next ``envoy run``."""
    if len(text) > MAX_APP_TEXT:
        return []
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith(("@", "{{--", "<?", "//"))]


_COLLECTIONS = (".postman_collection.json",)
"""A Postman collection: its ``prerequest`` and ``test`` scripts run at every ``newman run``
and every run in Postman, with the environment's variables (its API keys) in reach."""
_PM_SENDS = re.compile(r"\bpm\.sendRequest\s*\(")
_PM_SECRETS = re.compile(
    r"\bpm\.(?:environment|collectionVariables|globals|variables|request\.headers)\b"
    r"|\bpm\.response\b|access_token|[Aa]uthorization"
)
_SCRIPT_URL = re.compile(r"https?://[^\s'\"\\)]+")


def _collection_sends(text: str) -> list[tuple[str, str]]:
    """A collection's script that sends its environment, a response or a header to a
    URL (``pm.sendRequest({url, body: JSON.stringify(pm.environment.toObject())})``):
    judged as the environment sent there."""
    if not _PM_SENDS.search(text) or not _PM_SECRETS.search(text):
        return []
    found = _SCRIPT_URL.search(text)
    url = shlex.quote(found.group(0)) if found else "$URL"
    return [("shell", f"env | curl --data-binary @- -- {url}")]


def _statement_acts(text: str) -> list[tuple[CodeAct, ...]]:
    """The acts of each statement of ``text`` that reaches the network, read alone: an
    edit's text is a fragment (a function's head without its end), and TypeScript's
    annotations are no JavaScript, so the whole may not parse while the statement that
    sends does (``await fetch(URL, {body: JSON.stringify(process.env)})``). A statement
    is the shortest run of lines from one naming the network that parses, at most
    `_STATEMENT_LINES` (a call's options written one per line)."""
    lines = text.splitlines()
    found: list[tuple[CodeAct, ...]] = []
    screened = [i for i, line in enumerate(lines) if any(word in line for word in _JS_SCREEN)]
    for start in screened[:_MAX_STATEMENTS]:  # (reading is bounded: a long file's first ones)
        for end in range(start + 1, min(len(lines), start + _STATEMENT_LINES) + 1):
            chunk = "\n".join(lines[start:end]).strip()
            if ".env" not in chunk:
                continue
            reading = read_javascript(chunk)
            if reading.parsed:
                found.append(reading.acts)
                break
    return found


_STATEMENT_LINES = 12
_MAX_STATEMENTS = 64


def _name(node: ast.expr) -> str:
    """The last name of a called thing (``base64.b64decode`` is ``b64decode``)."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _root(node: ast.expr) -> str:
    """The first name of a dotted thing (``requests.post`` is ``requests``)."""
    while isinstance(node, ast.Attribute | ast.Call):
        node = node.value if isinstance(node, ast.Attribute) else node.func
    return node.id if isinstance(node, ast.Name) else ""


def _runs_hidden(node: ast.Call) -> list[tuple[str, str]]:
    """``exec(base64.b64decode('...'))``: the decoded code, read as Python; code decoded
    otherwise and run (``exec(zlib.decompress(..))``) is `HIDDEN`. A literal ``exec("...")``
    is the reader's (it reads the literal)."""
    if _name(node.func) not in _RUNS_CODE or not node.args:
        return []
    inner = node.args[0]
    if not isinstance(inner, ast.Call) or _name(inner.func) not in _HIDING:
        return []
    literal = inner.args[0] if inner.args else None
    if (
        _name(inner.func) in _DECODERS
        and isinstance(literal, ast.Constant)
        and isinstance(literal.value, str | bytes)
    ):
        try:
            decoded = base64.b64decode(literal.value, validate=True).decode()
        except (binascii.Error, ValueError):  # (UnicodeDecodeError is one)
            decoded = ""
        if decoded.strip():
            return [("python", decoded)]
    return [(HIDDEN, ast.unparse(node)[:200])]


def _sends_environment(node: ast.Call) -> list[tuple[str, str]]:
    """A network call that sends a variable of the environment (``requests.post(URL,
    data=os.environ.get('SECRET_KEY'))``): judged as that variable sent there. Where the
    environment names the place (``httpx.Client(base_url=os.environ['API'])``,
    ``requests.get(os.environ['URL'])``) nothing of it is sent."""
    if _root(node.func) not in _SENDERS or _name(node.func) not in _SENDS:
        return []
    url = next((a.value for a in node.args[:1] if isinstance(a, ast.Constant)
                and isinstance(a.value, str)), "$URL")  # fmt: skip
    sent = [*node.args[1:], *(k.value for k in node.keywords if k.arg not in _PLACES)]
    signed = [k.value for k in node.keywords if k.arg in _SIGNS]
    for value in sent:
        text = ast.unparse(value)
        if ("environ" in text or "getenv" in text) and (
            value not in signed or _WHOLE_ENVIRONMENT.search(text) is not None
        ):
            return [("shell", f"env | curl --data-binary @- -- {shlex.quote(url)}")]
    return []


_SIGNS = frozenset({"headers", "auth"})
"""Keywords that sign the request in: an API's key read into its ``Authorization`` header
is how the API is called (``curl -H "Authorization: Bearer $KEY"``), the whole
environment put there is not."""
_WHOLE_ENVIRONMENT = re.compile(r"environ\b(?!\s*\[|\.get\()")
