"""The names the reader of inline Ruby (`rubyreader`) knows: methods that change nothing
and reach nothing, the class methods with an effect it turns into acts, and the syntax
that runs code out of its sight.

Anything not named here is unknown, and unknown code is never quiet: a name is added here
only when what it does is known.
"""

from __future__ import annotations

__all__ = ["CLASS_ACTS", "LOUD", "NETWORK_CLASSES", "QUIET_CLASSES", "QUIET_FUNCTIONS",
           "QUIET_METHODS", "RUNS"]  # fmt: skip

QUIET_FUNCTIONS = frozenset(
    {"puts", "print", "p", "pp", "printf", "sprintf", "format", "putc", "rand", "srand",
     "sleep", "raise", "fail", "loop", "Integer", "Float", "String", "Array", "Hash",
     "Rational", "Complex", "lambda", "proc", "block_given?", "catch", "throw", "gets",
     "chomp", "chop", "gsub", "sub", "require", "exit", "abort", "warn", "freeze",
     "frozen?", "nil?", "is_a?", "kind_of?", "respond_to?", "then", "tap", "yield_self",
     "itself", "dup"}
)  # fmt: skip
"""Calls with no receiver that compute, print or stop, and nothing else (``require`` of a
library is judged by the library's name)."""

QUIET_METHODS = frozenset(
    {# conversions, comparisons
     "to_s", "to_i", "to_f", "to_r", "to_c", "to_a", "to_h", "to_sym", "to_str", "to_proc",
     "inspect", "class", "hash", "eql?", "equal?", "==", "<=>", "nil?", "is_a?", "kind_of?",
     "frozen?", "freeze", "dup", "clone", "respond_to?", "then", "tap", "itself", "zero?",
     "positive?", "negative?", "even?", "odd?", "abs", "round", "floor", "ceil", "divmod",
     "succ", "pred", "times", "upto", "downto", "step", "chr", "ord", "between?", "clamp",
     # text
     "upcase", "downcase", "capitalize", "swapcase", "strip", "lstrip", "rstrip", "chomp",
     "chop", "chars", "bytes", "lines", "split", "sub", "gsub", "tr", "squeeze", "length",
     "size", "bytesize", "start_with?", "end_with?", "include?", "match", "match?", "scan",
     "index", "rindex", "center", "ljust", "rjust", "reverse", "each_char", "each_line",
     "encoding", "force_encoding", "unpack", "unpack1", "pack", "empty?", "format", "%",
     "+", "-", "*", "/", "[]", "slice", "hex", "oct", "sum", "upcase!", "downcase!",
     "strip!", "chomp!", "gsub!", "sub!",
     # collections
     "each", "each_with_index", "each_with_object", "each_slice", "each_cons", "map",
     "flat_map", "collect", "select", "filter", "reject", "find", "detect", "find_index",
     "count", "min", "max", "min_by", "max_by", "minmax", "sort", "sort_by", "group_by",
     "partition", "chunk_while", "slice_when", "tally", "uniq", "compact", "flatten", "zip",
     "take", "drop", "take_while", "drop_while", "first", "last", "keys", "values",
     "key?", "has_key?", "value?", "fetch", "dig", "merge", "filter_map", "any?", "all?",
     "none?", "one?", "inject", "reduce", "join", "push", "pop", "shift", "unshift",
     "append", "prepend", "concat", "transform_values", "transform_keys", "each_pair",
     "sample", "shuffle", "rotate", "with_index", "lazy", "to_set", "entries", "values_at",
     "invert", "key", "cycle", "product", "combination",
     "permutation", "transpose", "assoc", "each_key", "each_value", "sort!", "map!",
     "uniq!", "compact!", "select!", "reject!", "<<", "store", "delete", "clear", "insert",
     "fill", "replace", "update", "merge!",
     # output on a handle the program holds (a file it opened is judged where it is opened)
     "puts", "print", "write", "printf", "flush", "sync", "sync=", "close", "read",
     "readlines", "readline", "getc",
     # time and numbers
     "year", "month", "day", "hour", "sec", "wday", "yday", "strftime", "iso8601",
     "to_date", "to_time", "utc", "localtime", "now"}
)  # fmt: skip
"""Methods of values (strings, numbers, collections, handles already open) that change
only the value itself and reach nothing."""

QUIET_CLASSES = frozenset(
    {"Time", "Date", "DateTime", "Math", "SecureRandom", "Base64", "Digest::MD5",
     "Digest::SHA1", "Digest::SHA256", "Digest::SHA2", "Integer", "Float", "String",
     "Array", "Hash", "Set", "Struct", "Comparable", "Shellwords", "Rational", "Process",
     "Gem", "RbConfig", "Regexp", "Range", "Symbol", "StringIO", "OpenStruct"}
)  # fmt: skip
"""Classes whose class methods compute and nothing else (``Process`` only for the methods
`QUIET_CLASS_METHODS` allows)."""

QUIET_CLASS_METHODS = frozenset(
    {"now", "today", "parse", "at", "new", "sqrt", "log", "log2", "log10", "sin", "cos",
     "hex", "uuid", "random_number", "alphanumeric", "urlsafe_base64", "base64",
     "encode64", "decode64", "strict_encode64", "strict_decode64", "urlsafe_encode64",
     "urlsafe_decode64", "hexdigest", "digest", "iso8601", "strptime", "pid", "clock_gettime",
     "escape", "split", "shellescape", "shellsplit", "join", "union", "ruby_version",
     "loaded_specs", "[]", "sort", "civil", "mktime", "utc", "local", "gm"}
)  # fmt: skip

RUNS = frozenset({"system", "exec", "spawn", "`"})
"""Calls that hand their arguments to a shell, or run them as a program."""

_FILE_QUERIES = ("exist?", "file?", "directory?", "basename", "dirname", "extname", "join",
                 "expand_path", "size", "mtime", "readable?", "absolute_path", "split",
                 "zero?", "empty?", "symlink?", "executable?", "fnmatch", "fnmatch?")  # fmt: skip
"""``File``'s class methods that compute a name or look at metadata, no content."""
_YAML = {"load_file": "read", "safe_load_file": "read",
         "load": "quiet", "safe_load": "quiet", "dump": "quiet", "parse": "quiet"}  # fmt: skip

CLASS_ACTS: dict[str, dict[str, str]] = {
    "File": {**dict.fromkeys(_FILE_QUERIES, "quiet"), "delete": "delete", "unlink": "delete",
             "write": "write", "binwrite": "write", "read": "read", "readlines": "read",
             "foreach": "read", "binread": "read",
             "rename": "move", "symlink": "link", "link": "link", "chmod": "chmod",
             "open": "open", "new": "open", "truncate": "write"},
    "IO": {"read": "read", "readlines": "read", "foreach": "read", "binread": "read",
           "write": "write", "binwrite": "write", "popen": "run"},
    "FileUtils": {"rm_rf": "delete-tree", "rm_r": "delete-tree", "rmtree": "delete-tree",
                  "remove_dir": "delete-tree", "remove_entry": "delete-tree",
                  "remove_entry_secure": "delete-tree", "rm": "delete", "rm_f": "delete",
                  "remove": "delete", "safe_unlink": "delete", "remove_file": "delete",
                  "mkdir_p": "mkdir", "mkdir": "mkdir", "makedirs": "mkdir", "mkpath": "mkdir",
                  "mv": "move", "move": "move", "cp": "copy", "copy": "copy", "cp_r": "copy",
                  "copy_file": "copy", "ln_s": "link", "ln_sf": "link", "ln": "link",
                  "symlink": "link", "chmod": "chmod", "chmod_R": "chmod", "touch": "write",
                  "rmdir": "rmdir", "install": "copy"},
    "Dir": {"rmdir": "rmdir", "delete": "rmdir", "unlink": "rmdir", "mkdir": "mkdir",
            "glob": "quiet", "[]": "quiet", "entries": "quiet", "children": "quiet",
            "exist?": "quiet", "pwd": "quiet", "home": "quiet", "chdir": "chdir"},
    "YAML": _YAML,
    "Psych": _YAML,
    "JSON": {"load_file": "read", "parse": "quiet", "generate": "quiet", "dump": "quiet",
             "pretty_generate": "quiet"},
    "Open3": {"capture2": "run", "capture2e": "run", "capture3": "run", "popen3": "run",
              "popen2": "run", "popen2e": "run", "pipeline": "run"},
    "Process": {"spawn": "run", "exec": "run"},
    "Kernel": {"system": "run", "exec": "run", "spawn": "run", "puts": "quiet",
               "print": "quiet", "format": "quiet", "sprintf": "quiet"},
}  # fmt: skip
"""What each class method with an effect does (``open``: by its mode; ``quiet``: nothing)."""

NETWORK_CLASSES = frozenset(
    {"Net::HTTP", "Net::FTP", "Net::SMTP", "Net::SSH", "TCPSocket", "UDPSocket", "Socket",
     "TCPServer", "URI", "OpenURI", "HTTParty", "Faraday", "RestClient", "HTTP", "Excon"}
)  # fmt: skip
"""Classes whose methods reach the network (``URI.open``; ``URI("...")`` alone is a
value, judged at the call that uses it)."""

LOUD = frozenset(
    {"class", "module", "singleton_class", "singleton_method", "alias", "undef", "super",
     "yield", "block_argument", "instance_variable", "class_variable", "self"}
)  # fmt: skip
"""Syntax that defines code run out of sight or reaches state outside the code's names."""
