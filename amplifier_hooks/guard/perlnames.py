"""The names the reader of inline Perl (`perlreader`) knows: functions and modules that
change nothing and reach nothing, those with an effect it turns into acts, and the syntax
that runs code out of its sight.

Anything not named here is unknown, and unknown code is never quiet: a name is added
here only when what it does is known.
"""

from __future__ import annotations

__all__ = ["DELETES", "FROM_TO", "LOUD", "NETWORK_MODULES", "QUIET_FUNCTIONS",
           "QUIET_MODULES", "RUNS", "module_of"]  # fmt: skip

QUIET_FUNCTIONS = frozenset(
    {# output and text
     "print", "printf", "say", "sprintf", "join", "split", "uc", "lc", "ucfirst", "lcfirst",
     "length", "substr", "index", "rindex", "reverse", "sort", "quotemeta", "chomp", "chop",
     "chr", "ord", "hex", "oct", "pack", "unpack", "pos", "study", "vec",
     "crypt", "fc",
     # lists and hashes
     "keys", "values", "each", "exists", "defined", "scalar", "push", "pop", "shift",
     "unshift", "splice", "map", "grep", "wantarray", "ref", "undef", "delete",
     # numbers and time
     "abs", "int", "sqrt", "sin", "cos", "atan2", "exp", "log", "rand", "srand", "time",
     "localtime", "gmtime", "sleep",
     # control
     "die", "warn", "exit", "return", "local", "my", "our", "caller",
     # the handles the program already has
     "close", "binmode", "eof", "fileno", "select", "glob",
     # file tests: metadata, no content
     "-e", "-f", "-d", "-s", "-z", "-r", "-w", "-x", "-l", "-M", "-A", "-C",
     # List::Util, Scalar::Util, POSIX, Data::Dumper, JSON::PP, Time::Local
     "sum", "sum0", "max", "min", "maxstr", "minstr", "first", "any", "all", "none",
     "uniq", "uniqnum", "shuffle", "reduce", "pairs", "product", "blessed", "looks_like_number",
     "reftype", "floor", "ceil", "fmod", "strftime", "Dumper", "encode_json", "decode_json",
     "timelocal", "timegm", "List::Util::sum", "List::Util::max", "List::Util::min",
     "POSIX::floor", "POSIX::ceil", "POSIX::strftime"}
)  # fmt: skip
"""Functions that compute or print and do nothing else (``glob`` lists names)."""

QUIET_MODULES = frozenset(
    {"strict", "warnings", "utf8", "feature", "integer", "bigint", "bignum", "constant",
     "open", "List::Util", "Scalar::Util", "POSIX", "Data::Dumper", "JSON::PP",
     "Time::Local", "Time::HiRes", "Getopt::Long", "Text::Wrap", "File::Basename",
     "File::Spec", "File::Path", "File::Copy", "Cwd", "Encode", "MIME::Base64",
     "Digest::MD5", "Digest::SHA"}
)  # fmt: skip
"""Modules that load nothing else (those with effects have them only when called: their
functions are judged below)."""

NETWORK_MODULES = frozenset(
    {"LWP", "LWP::Simple", "LWP::UserAgent", "HTTP::Tiny", "IO::Socket", "IO::Socket::INET",
     "IO::Socket::IP", "IO::Socket::SSL", "Socket", "Net::HTTP", "Net::FTP", "Net::SMTP",
     "Net::SSH", "Mojo::UserAgent", "WWW::Mechanize", "Furl"}
)  # fmt: skip
"""Modules whose use reaches the network."""

RUNS = frozenset({"system", "exec", "qx", "readpipe"})
"""Functions that hand their arguments to a shell or run them as a program."""

DELETES = {
    "unlink": "delete", "rmdir": "rmdir", "mkdir": "mkdir", "truncate": "write",
    "remove_tree": "delete-tree", "rmtree": "delete-tree", "make_path": "mkdir",
    "mkpath": "mkdir", "File::Path::remove_tree": "delete-tree",
    "File::Path::rmtree": "delete-tree", "File::Path::make_path": "mkdir",
    "File::Path::mkpath": "mkdir",
}  # fmt: skip
"""Functions that act on each path they are given (``truncate`` the first)."""

FROM_TO = {
    "rename": "move", "move": "move", "mv": "move", "copy": "copy", "cp": "copy",
    "symlink": "link", "link": "link", "File::Copy::copy": "copy", "File::Copy::move": "move",
}  # fmt: skip
"""Functions from their first argument to their second."""

LOUD = frozenset(
    {"amper_deref_expression", "anonymous_method_expression", "async_block_expression",
     "class_statement", "code_deref_expression", "coderef_call_expression", "glob",
     "glob_deref_expression", "glob_slot_expression", "goto_expression",
     "method_declaration_statement", "role_statement", "format_statement",
     "require_expression", "data_section", "await_expression"}
)  # fmt: skip
"""Syntax that runs code by a name or reference the reader does not follow, or loads it."""


def module_of(name: str) -> str:
    """The module a fully qualified function belongs to (``File::Path::rmtree``:
    ``File::Path``), or the name itself."""
    head, _, _ = name.rpartition("::")
    return head or name
