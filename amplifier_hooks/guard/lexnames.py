"""The names the token reader (`lexreader`) knows, a table per language: calls with an
effect (what they do, in `codeacts`' words), names that only compute or print, the calls
that read a variable of the environment, and those that name the home folder or join a
path.

A name is added only when what it does is known; any other name keeps the code asked.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from amplifier_hooks.guard.rnames import R_CALLS, R_QUIET

__all__ = ["LANGUAGES", "Language"]


class Language(NamedTuple):
    programs: frozenset[str]
    calls: dict[str, str]
    """Calls with an effect: ``delete``, ``delete-tree``, ``write``, ``read``, ``run``,
    ``network``, ``eval``, ``copy``, ``move``, ``mkdir``, ``rmdir``, ``open`` (a read, or
    a write when its mode is not ``r``) (``quiet``: none)."""
    quiet: frozenset[str]
    """Names that compute, print or are the language's words, and reach nothing."""
    env_calls: frozenset[str] = frozenset()
    home: frozenset[str] = frozenset()
    joins: frozenset[str] = frozenset()
    comment: re.Pattern[str] | None = None
    file_labels: frozenset[str] = frozenset()
    """Argument names whose value is a file the call writes (R's ``cat(.., file = P)``)."""
    registries: tuple[str, ...] = ()
    """Where an ``install`` call takes packages from by default (a package by name, or a
    repository named here, is quiet; a URL, a path or a repository elsewhere is not)."""
    options: frozenset[str] = frozenset()
    """The interpreter's options that load no other code (besides its code flag)."""
    prints: frozenset[str] = frozenset()
    """Names that print: a file the code reads may be what it prints."""
    pipes: bool = False
    """Elixir's ``|>`` hands a value to the call after it as its first argument."""
    operands_run: bool = False
    """Words after the code are files the interpreter loads too (``elixir -e C x.exs``,
    ``ghc -e C Main.hs``), not the code's arguments."""
    interpolation: re.Pattern[str] | None = None
    """What marks a double-quoted string filled in at run time (``"#{home}/.ssh"``):
    not a literal path."""
    single_quoted: bool = True
    ticks: bool = False
    atoms: bool = False
    """Erlang: a lower-case name not called is an atom, a value."""
    binds: bool = False
    """R: ``x <- ...`` and ``for (x in ...)`` bind local names, and a name after ``$`` or
    ``@`` is a field of a value, not a call."""
    escape: re.Pattern[str] | None = None
    """A line that hands the rest of it to the shell (ghci's ``:! cmd``): its group
    ``command`` is a command run."""


def _and_raising(calls: dict[str, str]) -> dict[str, str]:
    """Elixir's calls with their raising twins (``File.rm!``): the same effect, so each is
    named once."""
    return {**calls, **{f"{name}!": effect for name, effect in calls.items()}}


# fmt: off
_R = Language(
    programs=frozenset({"R", "Rscript", "rscript"}),  # (`RSCRIPT` runs it where case is ignored)
    calls=R_CALLS,
    quiet=R_QUIET,
    env_calls=frozenset({"Sys.getenv"}),
    home=frozenset({"path.expand"}),
    joins=frozenset({"file.path"}),
    comment=re.compile(r"#[^\n]*"),
    file_labels=frozenset({"con", "file"}),
    registries=("https://cloud.r-project.org", "https://cran.r-project.org",
                "https://bioconductor.org"),
    options=frozenset({
        "--no-echo", "--no-restore", "--no-save", "--quiet", "--slave", "--vanilla", "-q", "-s"}),
    prints=frozenset({"cat", "message", "print", "writeLines"}),
    binds=True,
)

_LUA = Language(
    programs=frozenset({"lua", "luajit"}),
    calls={
        "os.remove": "delete", "os.rename": "move", "os.execute": "run", "io.popen": "run",
        "io.open": "open", "io.lines": "read", "dofile": "eval", "loadstring": "eval",
        "load": "eval", "loadfile": "eval", "require": "eval"},
    quiet=frozenset({
        "_VERSION", "and", "do", "else", "elseif", "end", "false", "for", "function", "if", "in",
        "ipairs", "jit.version", "local", "math.floor", "math.max", "math.min", "nil", "not",
        "or", "os.clock", "os.date", "os.time", "pairs", "print", "return", "select",
        "string.format", "string.lower", "string.rep", "string.upper", "table.concat",
        "table.insert", "table.sort", "then", "tonumber", "tostring", "true", "type", "while"}),
    env_calls=frozenset({"os.getenv"}),
    comment=re.compile(r"--[^\n]*"),
    prints=frozenset({"io.write", "print"}),
    operands_run=True,  # (`lua -e C x.lua` runs C, then the script x.lua)
)

_JULIA = Language(
    programs=frozenset({"julia"}),
    calls={
        "rm": "delete-tree", "Base.Filesystem.rm": "delete-tree", "mv": "move", "cp": "copy",
        "write": "write", "read": "read", "readlines": "read", "readline": "read",
        "eachline": "read", "open": "write", "mkpath": "mkdir", "mkdir": "mkdir",
        "touch": "write", "run": "quiet", "include": "eval", "eval": "eval",
        "Meta.parse": "eval", "include_string": "eval", "download": "network", "Pkg.add": "install",
        "Downloads.download": "network", "HTTP.get": "network", "HTTP.post": "network"},
    quiet=frozenset({
        "@show", "@time", "Base.VERSION", "Pkg", "Pkg.activate", "Pkg.build",
        "Pkg.instantiate", "Pkg.precompile", "Pkg.resolve", "Pkg.status", "Pkg.test",
        "Pkg.update", "Sys.ARCH", "Sys.CPU_THREADS", "Sys.KERNEL", "Threads.nthreads", "VERSION",
        "begin", "collect", "display", "else", "end", "false", "filter", "for", "function",
        "homedir", "if", "import", "in", "isdir", "isfile", "joinpath", "length", "map",
        "nothing", "print", "println", "pwd", "return", "show", "sqrt", "string", "sum", "true",
        "typeof", "using", "versioninfo"}),
    env_calls=frozenset({"ENV"}),
    home=frozenset({"homedir"}),
    joins=frozenset({"joinpath"}),
    comment=re.compile(r"#[^\n]*"),
    options=frozenset({
        "--color=no", "--color=yes", "--history-file=no", "--project", "--project=.",
        "--project=@.", "--quiet", "--startup-file=no", "-q"}),
    prints=frozenset({"@show", "display", "print", "println", "show"}),
    interpolation=re.compile(r"\$[A-Za-z_(]"),
    single_quoted=False,
    ticks=True,
)

_ELIXIR = Language(
    programs=frozenset({"elixir"}),
    calls={
        **_and_raising({
            "File.rm": "delete", "File.rm_rf": "delete-tree", "File.rmdir": "rmdir",
            "File.write": "write", "File.read": "read", "File.cp": "copy", "File.cp_r": "copy",
            "File.rename": "move", "File.mkdir_p": "mkdir", "Req.get": "network"}),
        "File.stream!": "read", "System.cmd": "run", "System.shell": "run", "os.cmd": "run",
        "Code.eval_string": "eval", "Code.eval_file": "eval", "Code.require_file": "eval",
        "Code.compile_string": "eval", "httpc.request": "network", "HTTPoison.get": "network",
        "Base.decode64!": "quiet"},
    quiet=frozenset({
        "Application.spec", "Enum.each", "Enum.join", "Enum.map", "File.dir?", "File.exists?",
        "IO.inspect", "IO.puts", "IO.write", "Integer.to_string", "Mix.env", "Path.expand",
        "Path.join", "String.upcase", "System.build_info", "System.otp_release",
        "System.user_home", "System.user_home!", "System.version", "do", "else", "end", "false",
        "fn", "if", "nil", "true"}),
    env_calls=frozenset({"System.fetch_env", "System.fetch_env!", "System.get_env"}),
    home=frozenset({"System.user_home", "System.user_home!"}),
    joins=frozenset({"Path.join"}),
    comment=re.compile(r"#[^\n]*"),
    prints=frozenset({"IO.inspect", "IO.puts", "IO.write"}),
    pipes=True,
    operands_run=True,
    interpolation=re.compile(r"#\{"),
    single_quoted=False,
)

_ERLANG = Language(
    programs=frozenset({"erl"}),
    calls={
        "file:delete": "delete", "file:del_dir": "rmdir", "file:del_dir_r": "delete-tree",
        "file:write_file": "write", "file:read_file": "read", "file:consult": "read",
        "file:copy": "copy", "file:rename": "move", "os:cmd": "run", "httpc:request": "network",
        "erl_eval:exprs": "eval", "file:eval": "eval", "file:script": "eval",
        "code:load_abs": "eval"},
    quiet=frozenset({
        "application:which_applications", "erlang:display", "erlang:halt", "erlang:system_info",
        "filename:join", "halt", "init:get_argument", "init:stop", "io:format", "io:fwrite",
        "lists:foreach", "lists:map", "os:type", "os:version"}),
    env_calls=frozenset({"os:getenv"}),
    joins=frozenset({"filename:join"}),
    comment=re.compile(r"%[^\n]*"),
    options=frozenset({"-noinput", "-noshell"}),
    prints=frozenset({"erlang:display", "io:format", "io:fwrite"}),
    atoms=True,
)

_HASKELL = Language(
    programs=frozenset({"ghc", "runghc", "runhaskell"}),
    calls={
        "removeDirectoryRecursive": "delete-tree", "removePathForcibly": "delete-tree",
        "System.Directory.removeDirectoryRecursive": "delete-tree", "removeFile": "delete",
        "removeDirectory": "rmdir", "writeFile": "write", "appendFile": "append",
        "readFile": "read", "callCommand": "run", "system": "run", "spawnCommand": "run",
        "readProcess": "run", "System.Process.callCommand": "run",
        "System.Process.system": "run"},
    quiet=frozenset({
        "False", "Just", "Nothing", "True", "concat", "concatMap", "const", "div", "drop",
        "even", "filter", "foldl", "foldr", "fst", "head", "i", "id", "info", "k", "kind",
        "length", "lines", "map", "maximum", "minimum", "mod", "odd", "pred", "print", "product",
        "putStr", "putStrLn", "reverse", "show", "snd", "succ", "sum", "t", "tail", "take",
        "type", "unlines", "unwords", "words", "zip"}),
    env_calls=frozenset({"getEnv", "lookupEnv"}),
    home=frozenset({"getHomeDirectory"}),
    comment=re.compile(r"--[^\n]*"),
    prints=frozenset({"print", "putStr", "putStrLn"}),
    operands_run=True,
    single_quoted=False,
    escape=re.compile(r"^[ \t]*:!(?P<command>[^\n]*)", re.MULTILINE),
)

_GROOVY = Language(
    programs=frozenset({"groovy"}),
    calls={
        "Eval.me": "eval", "Eval.x": "eval", "evaluate": "eval", "execute": "run",
        "deleteDir": "delete-tree", "delete": "delete"},
    quiet=frozenset({"GroovySystem.getVersion", "GroovySystem.version", "print", "println"}),
    env_calls=frozenset({"System.getenv"}),
    comment=re.compile(r"//[^\n]*"),
    prints=frozenset({"print", "println"}),
    interpolation=re.compile(r"\$[A-Za-z_{]"),
)

_OCAML = Language(
    programs=frozenset({"ocaml"}),
    calls={
        "Sys.command": "run", "Unix.system": "run", "Sys.remove": "delete", "Sys.rmdir": "rmdir",
        "Sys.rename": "move", "open_out": "write", "open_in": "read",
        "In_channel.read_all": "read", "Out_channel.write_all": "write", "Unix.unlink": "delete",
        "Toploop.execute_phrase": "eval"},
    quiet=frozenset({
        "List.iter", "List.map", "Printf.printf", "Sys.ocaml_version", "false", "fun", "in",
        "let", "print_endline", "print_int", "print_string", "string_of_int", "true"}),
    env_calls=frozenset({"Sys.getenv", "Sys.getenv_opt"}),
    comment=re.compile(r"\(\*.*?\*\)", re.DOTALL),
    prints=frozenset({"Printf.printf", "print_endline", "print_string"}),
    operands_run=True,
    single_quoted=False,
)

LANGUAGES: dict[str, Language] = {
    "R": _R, "lua": _LUA, "julia": _JULIA, "elixir": _ELIXIR,
    "erlang": _ERLANG, "haskell": _HASKELL, "groovy": _GROOVY, "ocaml": _OCAML,
}
# fmt: on
