"""The names of inline JavaScript the reader (`jsreader`) knows (Node, Deno and Bun): the
modules, calls, attributes and methods that change nothing and reach nothing (*quiet*), the
names that run code the text does not show (*dynamic*), and the calls that reach the network.

A list, not a guess: a call on none of them keeps the code asked. Names are canonical
(`canonical`): ``node:fs`` is ``fs``, ``fs/promises`` and ``fs.promises`` are ``fs``, and
``rmSync`` is ``rm``, so each effect is listed once whatever spelling reaches it.
"""

from __future__ import annotations

__all__ = [
    "BUILTIN_MODULES",
    "DYNAMIC",
    "GLOBALS",
    "NETWORK",
    "PURE",
    "QUIET_ATTRIBUTES",
    "QUIET_CALLS",
    "QUIET_CONSTRUCTORS",
    "QUIET_METHODS",
    "QUIET_NAMESPACES",
    "QUIET_PREFIXES",
    "UNSAFE_PROPERTIES",
    "canonical",
    "in_quiet_namespace",
    "module_name",
    "quiet",
]

BUILTIN_MODULES = frozenset(
    {"assert", "async_hooks", "buffer", "child_process", "cluster", "console", "constants",
     "crypto", "dgram", "diagnostics_channel", "dns", "domain", "events", "fs", "http",
     "http2", "https", "inspector", "module", "net", "os", "path", "perf_hooks", "process",
     "punycode", "querystring", "readline", "repl", "stream", "string_decoder", "sys",
     "timers", "tls", "trace_events", "tty", "url", "util", "v8", "vm", "wasi",
     "worker_threads", "zlib", "test", "sqlite"}
)  # fmt: skip
"""Node's own modules: requiring one runs nothing but its definitions; what the code then
calls is judged call by call (requiring ``child_process`` is quiet, calling it is not)."""


def module_name(spec: str) -> str:
    """The canonical name of a required module: ``node:fs/promises`` is ``fs``,
    ``path/posix`` is ``path``; any other spelling is kept."""
    name = spec.removeprefix("node:")
    head, _, rest = name.partition("/")
    if head in BUILTIN_MODULES and rest in ("promises", "posix", "win32", ""):
        return head
    return name


def canonical(dotted: str) -> str:
    """One name per effect: ``fs.promises.rm`` and ``fs.rmSync`` are ``fs.rm``,
    ``child_process.execSync`` is ``child_process.exec``, ``Deno.removeSync`` is
    ``Deno.remove``, ``global.fetch`` is ``fetch``."""
    head, _, rest = dotted.partition(".")
    if head in ("globalThis", "global", "window", "self") and rest:
        return canonical(rest)
    if head in ("fs", "path", "dns", "timers", "stream", "readline") and rest.startswith(
        ("promises.", "posix.")
    ):
        dotted = f"{head}.{rest.partition('.')[2]}"
    if dotted.endswith("Sync") and len(dotted) > 4 and dotted[:-4].rpartition(".")[2]:
        dotted = dotted[:-4]
    return dotted


GLOBALS = frozenset(
    {"console", "JSON", "Math", "Object", "Array", "Number", "String", "Boolean", "Date",
     "Promise", "Map", "Set", "WeakMap", "WeakSet", "RegExp", "Error", "TypeError",
     "RangeError", "SyntaxError", "BigInt", "Symbol", "Intl", "URL", "URLSearchParams",
     "TextEncoder", "TextDecoder", "Buffer", "ArrayBuffer", "Uint8Array", "Int32Array",
     "Float64Array", "DataView", "parseInt", "parseFloat", "isNaN", "isFinite",
     "encodeURIComponent", "decodeURIComponent", "encodeURI", "decodeURI", "atob", "btoa",
     "structuredClone", "AbortController", "performance", "crypto", "process", "require",
     "module", "exports", "fetch", "eval", "Function", "globalThis", "global", "window",
     "self", "Reflect", "Proxy", "WebAssembly", "setTimeout", "setInterval", "setImmediate",
     "queueMicrotask", "WebSocket", "XMLHttpRequest", "EventSource", "Worker", "navigator",
     "Deno", "Bun", "Response", "Request", "Headers", "FormData", "Blob", "File", "Event",
     "EventTarget", "escape", "unescape", "Iterator", "AggregateError"}
)  # fmt: skip
"""Names every script sees without declaring them (a name neither bound nor here is
unknown: calling it keeps the code asked)."""

QUIET_NAMESPACES = frozenset({"Math", "JSON", "Number", "String", "Intl", "path",
                              "querystring", "util.types"})  # fmt: skip
"""Namespaces every member of which changes nothing and reaches nothing."""

QUIET_CALLS = frozenset(
    {"console.log", "console.info", "console.warn", "console.error", "console.debug",
     "console.table", "console.dir", "console.trace", "console.time", "console.timeEnd",
     "console.count", "console.group", "console.groupEnd", "console.assert",
     "Object.keys", "Object.values", "Object.entries", "Object.fromEntries", "Object.assign",
     "Object.freeze", "Object.is", "Array.isArray", "Array.from", "Array.of", "Date.now",
     "Date.parse", "Date.UTC", "Number", "String", "Boolean", "BigInt", "Date", "Array",
     "Object", "parseInt", "parseFloat", "isNaN", "isFinite", "encodeURIComponent",
     "decodeURIComponent", "encodeURI", "decodeURI", "escape", "unescape", "atob", "btoa",
     "structuredClone", "Promise.all", "Promise.allSettled", "Promise.race", "Promise.any",
     "Promise.resolve", "Promise.reject", "Symbol", "RegExp", "Error", "require",
     "os.platform", "os.arch", "os.type", "os.release", "os.version", "os.cpus",
     "os.totalmem", "os.freemem", "os.homedir", "os.tmpdir", "os.hostname", "os.endianness",
     "os.uptime", "os.loadavg", "os.availableParallelism", "os.machine", "os.userInfo",
     "process.cwd", "process.uptime", "process.memoryUsage", "process.hrtime",
     "process.hrtime.bigint", "process.exit", "process.cpuUsage", "process.getuid",
     "process.getgid", "process.stdout.write", "process.stderr.write", "process.emitWarning",
     "util.inspect", "util.format", "util.isDeepStrictEqual", "util.promisify",
     "util.parseArgs", "util.styleText", "util.stripVTControlCharacters",
     "crypto.createHash", "crypto.createHmac", "crypto.randomUUID", "crypto.randomBytes",
     "crypto.randomInt", "crypto.getRandomValues", "crypto.timingSafeEqual", "crypto.hash",
     "crypto.subtle.digest", "Buffer.from", "Buffer.alloc", "Buffer.byteLength",
     "Buffer.concat", "Buffer.isBuffer", "Buffer.compare", "url.parse", "url.format",
     "url.fileURLToPath", "url.pathToFileURL", "zlib.gzip", "zlib.gunzip", "zlib.deflate",
     "zlib.inflate", "zlib.brotliCompress", "zlib.brotliDecompress", "assert",
     "assert.ok", "assert.equal", "assert.strictEqual", "assert.deepStrictEqual",
     "assert.deepEqual", "assert.notStrictEqual", "assert.match", "assert.throws",
     "performance.now", "fs.readFile", "fs.createReadStream", "fs.exists", "fs.stat",
     "fs.lstat", "fs.readdir", "fs.access", "fs.realpath", "fs.readlink", "fs.statfs",
     "Deno.readTextFile", "Deno.readFile", "Deno.cwd", "Deno.stat", "Deno.lstat",
     "Deno.readDir", "Deno.realPath", "Deno.readLink", "Deno.inspect", "Deno.exit",
     "Deno.execPath", "Deno.osRelease", "Deno.hostname", "Deno.memoryUsage", "Bun.file",
     "Bun.inspect", "Bun.nanoseconds", "Bun.deepEquals", "Bun.escapeHTML", "Bun.which",
     "Bun.hash", "Bun.stringWidth"}
)  # fmt: skip
"""Calls that change nothing and reach nothing (``require`` only of Node's own modules
and of ``.json`` files: another runs code); a file they read is judged as a read of it."""

PURE = QUIET_CALLS - {"require", "fs.readFile", "fs.createReadStream", "Deno.readTextFile",
                      "Deno.readFile", "Bun.file"}  # fmt: skip
"""Functions that may be passed as values (``.map(Number)``, ``.forEach(console.log)``):
called with any arguments they change nothing (a read is not one: its path is unseen)."""

QUIET_CONSTRUCTORS = frozenset(
    {"Date", "Map", "Set", "WeakMap", "WeakSet", "URL", "URLSearchParams", "TextEncoder",
     "TextDecoder", "RegExp", "Error", "TypeError", "RangeError", "Array", "Object",
     "Promise", "ArrayBuffer", "Uint8Array", "Int32Array", "Float64Array", "DataView",
     "AbortController", "Intl.NumberFormat", "Intl.DateTimeFormat", "Intl.Collator",
     "Intl.PluralRules", "Intl.RelativeTimeFormat", "Intl.Segmenter", "Headers",
     "Response", "Blob", "AggregateError", "Event", "EventTarget"}
)  # fmt: skip
"""What ``new`` builds without running or reaching anything."""

QUIET_ATTRIBUTES = frozenset(
    {"process.version", "process.versions", "process.platform", "process.arch",
     "process.argv", "process.argv0", "process.execPath", "process.execArgv", "process.pid",
     "process.ppid", "process.release", "process.features", "process.config",
     "process.exitCode", "process.title", "os.EOL", "os.constants", "os.devNull",
     "fs.constants", "Buffer.poolSize", "Deno.version", "Deno.build", "Deno.args",
     "Deno.pid", "Deno.noColor", "Bun.version", "Bun.revision", "Bun.argv", "Bun.main"}
)  # fmt: skip
"""Attributes that are plain data (``process.env`` is not one: it holds secrets;
`jsreader` reads it as what ``printenv`` prints)."""

QUIET_PREFIXES = frozenset(
    name.rsplit(".", n)[0] for name in QUIET_CALLS | QUIET_ATTRIBUTES | QUIET_CONSTRUCTORS
    for n in range(1, name.count(".") + 1)
)  # fmt: skip
"""Modules and objects on the way to a quiet call (``process.hrtime``, ``crypto.subtle``)."""

QUIET_METHODS = frozenset(
    {"toString", "toFixed", "toPrecision", "toLocaleString", "toISOString", "toJSON",
     "toUpperCase", "toLowerCase", "trim", "trimStart", "trimEnd", "split", "join",
     "slice", "substring", "substr", "charAt", "charCodeAt", "codePointAt", "padStart",
     "padEnd", "repeat", "startsWith", "endsWith", "includes", "indexOf", "lastIndexOf",
     "localeCompare", "normalize", "match", "matchAll", "search", "replace", "replaceAll",
     "at", "concat", "map", "filter", "reduce", "reduceRight", "forEach", "sort", "toSorted",
     "reverse", "toReversed", "find", "findIndex", "findLast", "findLastIndex", "some",
     "every", "flat", "flatMap", "keys", "values", "entries", "push", "pop", "shift",
     "unshift", "fill", "has", "add", "then", "catch", "finally", "getTime",
     "getFullYear", "getMonth", "getDate", "getDay", "getHours", "getMinutes",
     "getSeconds", "getMilliseconds", "getTimezoneOffset", "toDateString",
     "toLocaleDateString", "toLocaleTimeString", "toUTCString", "valueOf", "update",
     "digest", "json", "text", "arrayBuffer", "bytes", "isFile", "isDirectory",
     "isSymbolicLink", "hasOwnProperty", "test", "format", "readUInt32LE",
     "readUInt32BE", "toLocaleUpperCase", "toLocaleLowerCase"}
)  # fmt: skip
"""Methods safe on any value, whatever it turns out to be: none is the name of a call
with an effect in Node's, Deno's or Bun's own modules (``exec``, ``get``, ``set``,
``delete``, ``resolve``, ``write`` are left out: ``child_process.exec``, ``https.get``,
``dns.resolve``)."""

UNSAFE_PROPERTIES = frozenset(
    {"constructor", "__proto__", "prototype", "caller", "callee", "arguments",
     "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__",
     "mainModule", "binding", "_linkedBinding", "dlopen", "_load", "call", "apply", "bind"}
)  # fmt: skip
"""Properties that reach code or objects the text does not name
(``"".constructor.constructor("…")`` is the ``Function`` constructor)."""

DYNAMIC = frozenset(
    {"eval", "Function", "Reflect", "Proxy", "WebAssembly", "vm", "module", "repl",
     "inspector", "worker_threads", "Worker", "cluster", "process.binding",
     "process._linkedBinding", "process.dlopen", "process.mainModule", "setTimeout",
     "setInterval", "setImmediate", "queueMicrotask", "globalThis", "global", "window",
     "self", "require.cache", "module.require", "v8", "wasi", "Deno.dlopen", "Bun.plugin",
     "process.setSourceMapsEnabled", "import"}
)  # fmt: skip
"""Names that run code the text does not show, or look names up at run time."""

RUNS_TEXT = frozenset({"eval", "Function", "vm.runInThisContext", "vm.runInNewContext",
                       "vm.runInContext", "vm.Script", "setTimeout", "setInterval"})  # fmt: skip
"""Calls whose first (``Function``: last) argument is JavaScript, read when a literal."""

NETWORK = frozenset(
    {"fetch", "http.request", "http.get", "https.request", "https.get", "http2.connect",
     "net.connect", "net.createConnection", "net.Socket", "tls.connect", "dgram.createSocket",
     "dns.lookup", "dns.resolve", "dns.resolve4", "dns.resolve6", "dns.resolveTxt",
     "dns.reverse", "WebSocket", "XMLHttpRequest", "EventSource", "navigator.sendBeacon",
     "Deno.connect", "Deno.connectTls", "Deno.listen", "Deno.listenTls", "Deno.serve",
     "Deno.resolveDns", "Bun.connect", "Bun.listen", "Bun.serve", "Bun.udpSocket",
     "http.createServer", "https.createServer", "net.createServer"}
)  # fmt: skip
"""Calls (and constructors) that reach another machine or listen for one."""


def quiet(dotted: str) -> bool:
    """A name on the way to, or at, something that changes nothing and reaches nothing."""
    return (dotted in QUIET_CALLS or dotted in QUIET_ATTRIBUTES or dotted in QUIET_PREFIXES
            or dotted in QUIET_CONSTRUCTORS or in_quiet_namespace(dotted)
            or dotted in QUIET_NAMESPACES)  # fmt: skip


def in_quiet_namespace(dotted: str) -> bool:
    """A member of a namespace whose every member is quiet (``Math.max``, ``path.join``)."""
    return dotted.rpartition(".")[0] in QUIET_NAMESPACES
