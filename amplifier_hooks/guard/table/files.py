"""Programs that read, list, copy, move, delete and change files.

Each entry lists every option the guard lets through; an option not listed makes the call
doubtful (no grant). Options whose value is a path say what is done to it (``:write``,
``:read``); long options that are dangerous and not modelled are listed as ``:doubt`` so
that no abbreviation of them reads as a harmless neighbour.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.table.acts import Act, Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.entries import Entry, entry
from amplifier_hooks.guard.table.options import Read, opts, read_options

__all__ = ["FILES", "XXD", "xxd_read", "xxd_words"]

STD = " --help --version"
"""Every GNU program's own two options."""


def std(*parts: str) -> str:
    return " ".join(parts) + STD


LS = opts(
    std(
        "-a,--all -A,--almost-all -b,--escape -B,--ignore-backups -c -C -d,--directory -D,--dired",
        "-f -F,--classify=? --file-type --format= --full-time -g -G,--no-group",
        "--group-directories-first -h,--human-readable --si -H,--dereference-command-line",
        "--dereference-command-line-symlink-to-dir --hide= --hyperlink=? --indicator-style=",
        "-i,--inode -I,--ignore= -k,--kibibytes -l -L,--dereference -m -n,--numeric-uid-gid",
        "-N,--literal -o -p -q,--hide-control-chars --show-control-chars -Q,--quote-name",
        "--quoting-style= -r,--reverse -R,--recursive -s,--size -S --sort= --time= --time-style=",
        "-t -T,--tabsize= -u -U -v -w,--width= -x -X -Z,--context --zero -1 --color=? --author",
        "--block-size=",
    )
)
CAT = opts(
    std(
        "-A,--show-all -b,--number-nonblank -e -E,--show-ends -n,--number",
        "-s,--squeeze-blank -t -T,--show-tabs -u -v,--show-nonprinting",
    )
)
HEAD = opts(
    std("-n,--lines= -c,--bytes= -q,--quiet,--silent -v,--verbose", "-z,--zero-terminated"),
    digits=True,
)
TAIL = opts(
    std(
        "-n,--lines= -c,--bytes= -q,--quiet,--silent -v,--verbose",
        "-z,--zero-terminated -f,--follow=? -F --retry --pid= -s,--sleep-interval=",
        "--max-unchanged-stats=",
    ),
    digits=True,
)
WC = opts(
    std(
        "-c,--bytes -m,--chars -l,--lines -w,--words -L,--max-line-length",
        "--files0-from=:read --total=",
    )
)
CUT = opts(
    std(
        "-b,--bytes= -c,--characters= -d,--delimiter= -f,--fields= -n",
        "--complement -s,--only-delimited --output-delimiter= -z,--zero-terminated",
    )
)
NL = opts(
    std(
        "-b,--body-numbering= -d,--section-delimiter= -f,--footer-numbering=",
        "-h,--header-numbering= -i,--line-increment= -l,--join-blank-lines=",
        "-n,--number-format= -p,--no-renumber -s,--number-separator=",
        "-v,--starting-line-number= -w,--number-width=",
    )
)
COLUMN = opts(
    std(
        "-t,--table -s,--separator= -o,--output-separator= -c,--output-width=",
        "-x,--fillrows -n -e -N,--table-columns= -R,--table-right= -l",
        "-L,--keep-empty-lines -J,--json -d,--table-noheadings",
    )
)
STAT = opts(std("-L,--dereference -f,--file-system -c,--format= --printf= -t,--terse", "--cached="))
FILE = opts(
    std(
        "-b,--brief -i,--mime --mime-type --mime-encoding -L,--dereference",
        "-h,--no-dereference -z,--uncompress -Z,--uncompress-noreport -s",
        "--special-files -k,--keep-going -r,--raw -0,--print0 -N,--no-pad",
        "-p,--preserve-date -E --extension -l,--list -f,--files-from=:read",
        "-F,--separator= -m,--magic-file=:read -e,--exclude= --exclude-quiet=",
        "-P,--parameter= -S,--no-sandbox -C,--compile:doubt",
    )
)
DU = opts(
    std(
        "-0,--null -a,--all --apparent-size -B,--block-size= -b,--bytes",
        "-c,--total -D,--dereference-args -d,--max-depth= --files0-from=:read -H",
        "-h,--human-readable --inodes -k -L,--dereference -l,--count-links -m",
        "-P,--no-dereference -S,--separate-dirs --si -s,--summarize",
        "-t,--threshold= --time=? --time-style= -X,--exclude-from=:read --exclude=",
        "-x,--one-file-system",
    )
)
DF = opts(
    std(
        "-a,--all -B,--block-size= -h,--human-readable -H,--si -i,--inodes -k",
        "-l,--local --no-sync --sync --output=? -P,--portability --total",
        "-t,--type= -T,--print-type -x,--exclude-type= -v",
    )
)
NAMES = opts(std("-a,--multiple -s,--suffix= -z,--zero"))
DIRNAME = opts(std("-z,--zero"))
REALPATH = opts(
    std(
        "-e,--canonicalize-existing -f,--canonicalize -m,--canonicalize-missing",
        "-L,--logical -P,--physical -q,--quiet,--silent --relative-to=:read",
        "--relative-base=:read -s,--strip,--no-symlinks -z,--zero -n,--no-newline",
        "-v,--verbose",
    )
)
SUMS = opts(
    std(
        "-b,--binary -c,--check --tag -t,--text -z,--zero --ignore-missing",
        "--quiet --status --strict -w,--warn -l,--length=",
    )
)
CMP = opts(
    std("-b,--print-bytes -i,--ignore-initial= -l,--verbose -n,--bytes=", "-s,--quiet,--silent")
)
DIFF = opts(
    std(
        "--normal -q,--brief -s,--report-identical-files -c -C,--context=? -u -U,--unified=?",
        "-e,--ed -n,--rcs -y,--side-by-side -W,--width= --left-column --suppress-common-lines",
        "-p,--show-c-function -F,--show-function-line= --label= --expand-tabs -t -T,--initial-tab",
        "--tabsize= --suppress-blank-empty -l,--paginate -r,--recursive --no-dereference",
        "-N,--new-file --unidirectional-new-file --ignore-file-name-case",
        "--no-ignore-file-name-case -x,--exclude= -X,--exclude-from=:read -S,--starting-file=",
        "--from-file=:read --to-file=:read -i,--ignore-case -E,--ignore-tab-expansion",
        "-Z,--ignore-trailing-space -b,--ignore-space-change -w,--ignore-all-space",
        "-B,--ignore-blank-lines -I,--ignore-matching-lines= -a,--text --strip-trailing-cr",
        "-D,--ifdef= --GTYPE-group-format= --line-format= --LTYPE-line-format=",
        "--old-line-format= --new-line-format= --unchanged-line-format= --old-group-format=",
        "--new-group-format= --unchanged-group-format= --changed-group-format= -d,--minimal",
        "--horizon-lines= --speed-large-files --color=? --palette=",
    ),
    digits=True,
)
SORT = opts(
    std(
        "-b,--ignore-leading-blanks -d,--dictionary-order -f,--ignore-case",
        "-g,--general-numeric-sort -i,--ignore-nonprinting -M,--month-sort",
        "-h,--human-numeric-sort -n,--numeric-sort -R,--random-sort --random-source=:read",
        "-r,--reverse --sort= -V,--version-sort --batch-size= -c --check=? -C",
        "--compress-program=:run --debug --files0-from=:read -k,--key= -m,--merge",
        "-o,--output=:write -s,--stable -S,--buffer-size= -t,--field-separator=",
        "-T,--temporary-directory=:write --parallel= -u,--unique -z,--zero-terminated",
    )
)
UNIQ = opts(
    std(
        "-c,--count -d,--repeated -D --all-repeated=? -f,--skip-fields=",
        "--group=? -i,--ignore-case -s,--skip-chars= -u,--unique",
        "-z,--zero-terminated -w,--check-chars=",
    ),
    digits=True,
)
TR = opts(std("-c,-C,--complement -d,--delete -s,--squeeze-repeats -t,--truncate-set1"))
STRINGS = opts(
    std(
        "-a,--all -d,--data -f,--print-file-name -n,--bytes= -t,--radix=",
        "-e,--encoding= -o -w,--include-all-whitespace -s,--output-separator=",
        "-T,--target= -U,--unicode= -v,-V",
    ),
    digits=True,
)
HEXDUMP = opts(
    std(
        "-b -c -C,--canonical -d -o -x -v,--no-squeezing -e,--format=",
        "-f,--format-file=:read -n,--length= -s,--skip= -L,--color=?",
    )
)
OD = opts(
    std(
        "-A,--address-radix= --endian= -j,--skip-bytes= -N,--read-bytes=",
        "-S,--strings=? -t,--format= -v,--output-duplicates -w,--width=?",
        "--traditional -a -b -c -d -f -i -l -o -s -x",
    )
)


def _uniq(read: Read) -> Reading:
    operands = read.operands
    if len(operands) > 2:
        return doubtful("uniq takes at most an input and an output")
    acts = acts_of(Does.READ, operands[:1]) + acts_of(Does.WRITE, operands[1:])
    return Reading(acts)


XXD = opts("-a -b -C -d -e -E -h -i -p -r -u -v -c= -g= -l= -n= -o= -s= -R=", permute=False,
           abbreviations=False)  # fmt: skip
"""xxd's options, in the form `xxd_words` puts them: its input, then the file it writes
(in either direction), are the operands."""
_XXD_SPELLED = {"c": ("ols",), "g": ("roupsize",), "l": ("en",), "n": ("ame",),
                "o": ("ffset",), "s": ("eek", "kip"), "R": ("",)}  # fmt: skip
"""xxd's options that take a value, and the rest of their spelled-out names: the next
word is the value when the option is alone or spelled out (``-c``, ``-cols``), else the
rest of its own word is (``-c8``, ``-co``: xxd reads a number from ``o``)."""
_NUMBER = re.compile(r"^[-+]?(0[xX][0-9a-fA-F]+|[0-9]+)$")


def xxd_words(args: tuple[str, ...]) -> tuple[tuple[str, ...], str | None]:
    """xxd's words in getopt's form for `XXD`, and why one could not be read. xxd knows
    each option by its first letter (``-revert``, ``-rx`` and ``--r`` are ``-r``;
    ``-capitalize`` is ``-C``); a valued one takes the rest of its word or the next
    (`_XXD_SPELLED`)."""
    out: list[str] = []
    doubt: str | None = None
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word == "--" or word == "-" or not word.startswith("-"):
            return (*out, *args[index - 1 :]), doubt
        name = word[2:] if word.startswith("--") else word[1:]
        letter, rest = name[:1], name[1:]
        if letter == "c" and rest.startswith("apitalize"):
            out.append("-C")
        elif letter in _XXD_SPELLED:
            if rest and not any(t and rest.startswith(t) for t in _XXD_SPELLED[letter]):
                if letter not in "nR" and not _NUMBER.match(rest):
                    doubt = doubt or f"xxd {word[:20]}: not a number"
                out.append("-" + letter + rest)
                continue
            out.append("-" + letter)
            if index < len(args):
                out.append(args[index])
                index += 1
        elif letter in XXD.shorts:
            out.append("-" + letter)
        else:
            return (*out, *args[index - 1 :]), doubt or f"unknown xxd option {word[:20]}"
    return tuple(out), doubt


def xxd_read(args: tuple[str, ...]) -> Read:
    """``args`` as xxd reads them (`xxd_words`)."""
    words, doubt = xxd_words(args)
    read = read_options(XXD, words)
    return read._replace(doubt=doubt) if doubt is not None else read


def _xxd(args: tuple[str, ...]) -> Reading:
    read = xxd_read(args)
    if read.doubt is not None:
        return doubtful(read.doubt)
    if len(read.operands) > 2:
        return doubtful("xxd takes at most an input and an output")
    return Reading(acts_of(Does.READ, read.operands[:1]) + acts_of(Does.WRITE, read.operands[1:]))


def _tree(args: tuple[str, ...]) -> Reading:
    # tree reads `-L 2`, `-o file`, ... with its own parser: no abbreviations; its short
    # options bundle (`-pugh`, `-fo FILE`), each valued one taking the next word in turn.
    acts: list[Act] = []
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if not word.startswith("-") or word == "-":
            acts.append(Act(Does.READ, word))
            continue
        bundled = not word.startswith("--") and len(word) > 2
        for name in [f"-{c}" for c in word[1:]] if bundled else [word.partition("=")[0]]:
            if name in _TREE_VALUED:
                value = word.partition("=")[2] if "=" in word and not bundled else (
                    args[index] if index < len(args) else "")  # fmt: skip
                index += 0 if "=" in word and not bundled else 1
                if name == "-o":
                    acts.append(Act(Does.WRITE, value))
                elif name in ("--gitfile", "--infofile", "--hintro", "--houtro"):
                    acts.append(Act(Does.READ, value))
            elif name not in _TREE_FLAGS:
                return doubtful(f"unknown tree option {word}")
    return Reading(tuple(acts))


_TREE_VALUED = frozenset({"-L", "-P", "-I", "-H", "-T", "-o", "--charset", "--filelimit",
                          "--timefmt", "--sort", "--gitfile", "--infofile", "--hintro",
                          "--houtro"})  # fmt: skip
_TREE_FLAGS = frozenset({"-a", "-d", "-l", "-f", "-x", "-R", "--gitignore", "--ignore-case",
                         "--matchdirs", "--metafirst", "--prune", "--info", "--noreport",
                         "-q", "-N", "-Q", "-p", "-u", "-g", "-s", "-h", "--si", "--du", "-D",
                         "-F", "--inodes", "--device", "-v", "-t", "-c", "-U", "-r",
                         "--dirsfirst", "--filesfirst", "-i", "-A", "-S", "-n", "-C", "-X",
                         "-J", "--nolinks", "--help", "--version", "--"})  # fmt: skip


FILES: dict[str, Entry] = {
    "ls": entry(LS), "ll": entry(LS), "dir": entry(LS), "vdir": entry(LS),
    "cat": entry(CAT), "head": entry(HEAD), "tail": entry(TAIL), "wc": entry(WC),
    "cut": entry(CUT), "nl": entry(NL), "column": entry(COLUMN), "stat": entry(STAT),
    "file": entry(FILE), "du": entry(DU), "df": entry(DF), "basename": entry(NAMES, None),
    "dirname": entry(DIRNAME, None), "realpath": entry(REALPATH), "readlink": entry(REALPATH),
    "md5sum": entry(SUMS), "sha1sum": entry(SUMS), "sha224sum": entry(SUMS),
    "sha256sum": entry(SUMS), "sha384sum": entry(SUMS), "sha512sum": entry(SUMS),
    "b2sum": entry(SUMS), "cksum": entry(SUMS), "cmp": entry(CMP), "diff": entry(DIFF),
    "sort": entry(SORT), "uniq": entry(UNIQ, None, _uniq), "tr": entry(TR, None),
    "strings": entry(STRINGS), "hexdump": entry(HEXDUMP), "od": entry(OD),
    "xxd": _xxd, "tree": _tree,
}  # fmt: skip
