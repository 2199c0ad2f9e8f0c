"""The names the reader of inline PHP (`phpreader`) knows: functions that change nothing
and reach nothing, those with an effect it turns into acts, and the syntax that runs code
out of its sight.

Anything not named here is unknown, and unknown code is never quiet: a name is added here
only when what it does is known. PHP's function names are case-insensitive: they are
looked up in lower case.
"""

from __future__ import annotations

__all__ = ["CALLBACK_AT", "FILE_ACTS", "LOUD", "NETWORK", "QUIET_CLASSES", "QUIET_FUNCTIONS",
           "RUNS"]  # fmt: skip

QUIET_FUNCTIONS = frozenset(
    {# output
     "print_r", "var_dump", "var_export", "printf", "sprintf", "vsprintf", "number_format",
     "json_encode", "json_decode", "serialize", "debug_zval_refcount",
     # text
     "strlen", "mb_strlen", "substr", "mb_substr", "strtoupper", "strtolower", "ucfirst",
     "lcfirst", "ucwords", "trim", "ltrim", "rtrim", "explode", "implode", "join",
     "str_replace", "str_ireplace", "str_repeat", "str_pad", "str_split", "str_contains",
     "str_starts_with", "str_ends_with", "strpos", "stripos", "strrpos", "strstr", "strrev",
     "wordwrap", "nl2br", "htmlspecialchars", "addslashes", "stripslashes", "md5", "sha1",
     "crc32", "hash", "base64_encode", "base64_decode", "bin2hex", "hex2bin", "urlencode",
     "urldecode", "rawurlencode", "http_build_query", "parse_url", "preg_match",
     "preg_match_all", "preg_split", "preg_quote", "preg_replace", "chr", "ord",
     "dechex", "hexdec", "decbin", "bindec", "decoct", "octdec", "strcmp", "strcasecmp",
     "version_compare", "uniqid", "basename", "dirname", "pathinfo",
     # arrays
     "count", "array_keys", "array_values", "array_merge", "array_combine", "array_flip",
     "array_slice", "array_splice", "array_sum", "array_product", "array_unique",
     "array_reverse", "array_search", "in_array", "array_key_exists", "array_column",
     "array_fill", "array_fill_keys", "array_pad", "array_chunk", "array_count_values",
     "array_key_first", "array_key_last", "range", "compact", "sort", "rsort", "asort",
     "arsort", "ksort", "krsort", "min", "max", "array_push", "array_pop", "array_shift",
     "array_unshift", "array_map", "array_filter", "array_walk", "array_reduce", "usort",
     "uasort", "uksort", "preg_replace_callback", "array_diff", "array_intersect",
     "is_array", "is_string", "is_int", "is_numeric", "is_null", "isset", "empty", "intval",
     "floatval", "strval", "boolval", "gettype", "get_debug_type",
     # numbers, time
     "abs", "round", "floor", "ceil", "sqrt", "pow", "intdiv", "fmod", "pi", "rand",
     "mt_rand", "random_int", "random_bytes", "time", "microtime", "hrtime", "date",
     "gmdate", "mktime", "strtotime", "date_default_timezone_set", "date_default_timezone_get",
     "checkdate", "sleep", "usleep",
     # about PHP itself
     "phpversion", "php_uname", "php_sapi_name", "extension_loaded", "get_loaded_extensions",
     "function_exists", "class_exists", "memory_get_usage", "memory_get_peak_usage",
     "error_reporting", "gc_collect_cycles", "php_ini_loaded_file", "zend_version",
     # the handles the program holds (a file it opened is judged where it is opened)
     "fwrite", "fputs", "fread", "fgets", "fgetcsv", "fclose", "feof", "fflush",
     "file_exists", "is_file", "is_dir", "filesize", "filemtime", "is_readable",
     "is_writable", "realpath", "stream_get_contents"}
)  # fmt: skip
"""Functions that compute or print and do nothing else."""

CALLBACK_AT = {"array_map": 0, "preg_replace_callback": 1, "array_filter": 1,
               "array_walk": 1, "array_reduce": 1, "usort": 1, "uasort": 1,
               "uksort": 1}  # fmt: skip
"""Quiet functions that call a function they are given (which argument): quiet only when
it is a closure written in the code (``array_map('system', $a)`` runs ``system``)."""

RUNS = frozenset({"system", "exec", "shell_exec", "passthru", "popen", "proc_open",
                  "pcntl_exec"})  # fmt: skip
"""Functions that hand their first argument to a shell."""

FILE_ACTS = {
    "unlink": "delete", "rmdir": "rmdir", "mkdir": "mkdir", "touch": "write",
    "rename": "move", "copy": "copy", "symlink": "link", "link": "link", "chmod": "chmod",
    "file_put_contents": "write", "fopen": "open", "file_get_contents": "read",
    "file": "read", "readfile": "read", "parse_ini_file": "read", "fgetss": "read",
    "highlight_file": "read", "show_source": "read", "scandir": "quiet", "glob": "quiet",
}  # fmt: skip
"""Functions that act on a path (``fopen``: by its mode; ``quiet``: list names only)."""

NETWORK = frozenset({"curl_init", "curl_exec", "curl_multi_exec", "fsockopen", "pfsockopen",
                     "stream_socket_client", "socket_create", "socket_connect", "mail",
                     "ftp_connect", "get_headers", "dns_get_record", "gethostbyname"})  # fmt: skip
"""Functions that reach the network."""

QUIET_CLASSES = frozenset({"datetime", "datetimeimmutable", "dateinterval", "arrayobject",
                           "stdclass", "splstack", "splqueue"})  # fmt: skip
"""Classes whose construction does nothing else (their methods are not read: not quiet)."""

LOUD = frozenset(
    {"function_definition", "class_declaration", "interface_declaration", "trait_declaration",
     "enum_declaration", "anonymous_class", "include_expression", "include_once_expression",
     "require_expression", "require_once_expression", "member_call_expression",
     "nullsafe_member_call_expression", "scoped_call_expression", "declare_statement",
     "namespace_use_declaration", "global_declaration", "static_variable_declaration",
     "dynamic_variable_name", "member_access_expression", "nullsafe_member_access_expression",
     "class_constant_access_expression", "scoped_property_access_expression", "text",
     "goto_statement", "yield_expression"}
)  # fmt: skip
"""Syntax that runs code by a name the reader does not follow, loads a file, or writes
text to the output outside the code (``?>text``)."""
