"""Programs that search and show text: grep and its kin, rg, ag, fd, jq, awk, pagers.

A search pattern is not a path (``grep -rn id_rsa docs/``); options that run a program
(``rg --pre``, ``fd -x``, ``bat --pager``, ``less`` commands given with ``+``) are ``run``
acts, and pager options that log to a file are writes.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.table.acts import Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.entries import Entry, entry, option_acts
from amplifier_hooks.guard.table.options import Options, Read, opts, read_options

__all__ = ["SEARCHES", "TEXT", "jq_env_shown", "jq_scripts_set", "searched"]

GREP = opts(
    "-E,--extended-regexp -F,--fixed-strings -G,--basic-regexp -P,--perl-regexp "
    "-e,--regexp=:pattern -f,--file=:pattern-file -i,-y,--ignore-case --no-ignore-case "
    "-v,--invert-match:invert -w,--word-regexp -x,--line-regexp -c,--count:silent "
    "--color=? --colour=? -L,--files-without-match:silent -l,--files-with-matches:silent "
    "-m,--max-count= -o,--only-matching "
    "-q,--quiet,--silent:silent -s,--no-messages -b,--byte-offset -H,--with-filename "
    "-h,--no-filename --label= -n,--line-number --line-buffered -T,--initial-tab "
    "-Z,--null -A,--after-context= -B,--before-context= -C,--context= --group-separator= "
    "--no-group-separator -a,--text --binary-files= -D,--devices= -d,--directories= "
    "--exclude= --exclude-from=:read --exclude-dir= -I --include=:selects -r,--recursive "
    "-R,--dereference-recursive -U,--binary -z,--null-data -u --help -V,--version",
    digits=True,
)
RG = opts(
    "-e,--regexp=:pattern -f,--file=:pattern-file --pre=:run --pre-glob= --hostname-bin=:run "
    "-z,--search-zip! -A,--after-context= -B,--before-context= -C,--context= "
    "-b,--byte-offset! --binary! --block-buffered! --line-buffered! -c,--count:silent "
    "--count-matches:silent --color= --colors= --column! --context-separator= "
    "--no-context-separator --crlf! --debug --trace --dfa-size-limit= -E,--encoding= "
    "--no-encoding --engine= --field-context-separator= --field-match-separator= "
    "--files --files-with-matches,-l:silent --files-without-match:silent -F,--fixed-strings! "
    "-L,--follow! --generate= -g,--glob=:selects --glob-case-insensitive! --heading! "
    "--no-heading -. --hidden! --hyperlink-format= --iglob=:selects -i,--ignore-case "
    "--ignore-file=:read --ignore-file-case-insensitive! --include-zero! -v,--invert-match:invert! "
    "--json! --line-number,-n --no-line-number,-N -x,--line-regexp -M,--max-columns= "
    "--max-columns-preview! -m,--max-count= -d,--max-depth= --maxdepth= --max-filesize= "
    "--mmap! -U,--multiline! --multiline-dotall! --no-config --no-ignore! "
    "--no-ignore-dot! --no-ignore-exclude! --no-ignore-files! --no-ignore-global! "
    "--no-ignore-parent! --no-ignore-vcs! --no-messages! --null,-0 --null-data "
    "--one-file-system! -o,--only-matching --passthru,--passthrough -P,--pcre2! "
    "--path-separator= -p,--pretty -q,--quiet:silent --regex-size-limit= -r,--replace= "
    "-s,--case-sensitive -S,--smart-case --sort= --sortr= --sort-files! --stats! "
    "--stop-on-nonmatch -a,--text! -j,--threads= --trim! -t,--type= -T,--type-not= "
    "--type-add=:selects-type --type-clear= --type-list -u,--unrestricted --vimgrep "
    "-H,--with-filename "
    "-I,--no-filename -w,--word-regexp --auto-hybrid-regex! --no-unicode --unicode "
    "--no-pcre2-unicode --pcre2-unicode --pcre2-version -h,--help -V,--version",
)
AG = opts(
    "-a,--all-types -A,--after=? -B,--before=? -C,--context=? --color --nocolor "
    "--color-line-number= --color-match= --color-path= --column --nocolumn -c,--count "
    "-D,--debug --depth= -f,--follow -F,--fixed-strings,-Q,--literal --filename "
    "--nofilename -g= -G,--file-search-regex= --group --nogroup --heading --noheading "
    "--hidden -i,--ignore-case --ignore= --ignore-dir= -l,--files-with-matches "
    "-L,--files-without-matches --line-numbers --numbers --nonumbers -m,--max-count= "
    "--multiline --nomultiline -n,--norecurse -o,--only-matching --one-device "
    "-p,--path-to-ignore=:read --passthrough,--passthru --print-long-lines --print0,-0,--null "
    "-r,--recurse -s,--case-sensitive -S,--smart-case --search-binary --silent --stats "
    "--stats-only -t,--all-text -u,--unrestricted -U,--skip-vcs-ignores -v,--invert-match:invert "
    "--vimgrep -w,--word-regexp -W,--width= --workers= -z,--search-zip --help --version",
)
ACK = opts(
    "-i,--ignore-case -I,--no-ignore-case -S,--smart-case --no-smart-case -v,--invert-match:invert "
    "-w,--word-regexp -Q,--literal --range-start= --range-end= --range-invert "
    "--match=:pattern -m,--max-count= -1 -A,--after-context= -B,--before-context= "
    "-C,--context=? -c,--count -l,--files-with-matches -L,--files-without-matches "
    "-h,--no-filename -H,--with-filename -o --output= --passthru --print0 -s --column! "
    "--break! --group! --heading! --color,--colour! --nocolor --color-filename= "
    "--color-match= --color-colno= --color-lineno= --underline! --flush --files-from=:read "
    "-x -f:listing -g=:listing --sort-files --show-types -r,-R,--recurse -n,--no-recurse --follow! "
    "-k,--known-types -t,--type= -T= --type-set= --type-add= --type-del= --ignore-dir= "
    "--noignore-dir= --ignore-file= --pager=:run --nopager --noenv --ackrc=:read --env "
    "--ignore-ack-defaults --create-ackrc --dump --filter! --help --help-types --help-colors "
    "--help-rgb-colors --man --version --bar --cathy --thpppt",
)
"""ack's options (Getopt::Long: unique prefixes, ``--no``/``--no-`` negations of the
negatable ones)."""
FD = opts(
    "-H,--hidden -I,--no-ignore -u,--unrestricted --no-ignore-vcs --no-ignore-parent "
    "--no-global-ignore-file -s,--case-sensitive -i,--ignore-case -g,--glob --regex "
    "-F,--fixed-strings --and= -a,--absolute-path --relative-path -l,--list-details "
    "-L,--follow -p,--full-path -0,--print0 -d,--max-depth= --min-depth= --exact-depth= "
    "--prune -t,--type= -e,--extension= -S,--size= --changed-within=,--change-newer-than= "
    "--changed-before=,--change-older-than= -o,--owner= --format= -x,--exec=:run "
    "-X,--exec-batch=:run --batch-size= -E,--exclude= --ignore-file=:read -c,--color= "
    "--hyperlink=? -j,--threads= --max-results= -1 -q,--quiet --show-errors "
    "--base-directory=:doubt --path-separator= --search-path=:read --strip-cwd-prefix=? "
    "--one-file-system,--mount,--xdev -h,--help -V,--version",
)
JQ_FLAGS = opts(
    "-n,--null-input -R,--raw-input -s,--slurp -c,--compact-output -r,--raw-output "
    "--raw-output0 -j,--join-output -a,--ascii-output -S,--sort-keys -C,--color-output "
    "-M,--monochrome-output --tab --indent= --unbuffered --stream --stream-errors --seq "
    "-e,--exit-status -f,--from-file=:program -L= --arg=:pair --argjson=:pair "
    "--slurpfile=:pair-file --rawfile=:pair-file --args --jsonargs -h,--help -V,--version",
    abbreviations=False,
)
YQ = opts(
    "-i,--inplace,--in-place:in-place -e,--exit-status -o,--output-format= "
    "-p,--input-format= -I,--indent= -n,--null-input -N,--no-doc -M,--no-colors "
    "-C,--colors -P,--prettyPrint -r,--unwrapScalar=? -s,--split-exp= --from-file=:program "
    "--expression= -0,--nul-output --header-preprocess=? -y,--yaml-output,--yml-output "
    "-Y,--yaml-roundtrip,--yml-roundtrip --yaml-output-grammar-version=,--yml-out-ver= "
    "-w,--width= --indentless-lists,--indentless -x,--xml-output -v,--verbose -h,--help "
    "-V,--version -c,--compact-output -S,--sort-keys -a,--ascii-output --tab --arg= "
    "--argjson= --args --jsonargs",
)
"""yq's options: the Go yq's (pflag) and the Python yq's (argparse, which takes a unique
prefix of a long option, ``--in-pl``; jq's options pass through): with ``-i`` it writes
the files it is given."""
_JQ_ENV = ("env", "$ENV", "input_filename", "$__loc__", "getpath", "input", "debug", "stderr")
AWK = opts(
    "-F,--field-separator= -v,--assign= -f,--file=:program -e,--source "
    "-i,--include=:include -b,--characters-as-bytes -c,--traditional -C,--copyright "
    "-g,--gen-pot -M,--bignum -n,--non-decimal-data -N,--use-lc-numeric -O,--optimize "
    "-P,--posix -r,--re-interval -s,--no-optimize -S,--sandbox -t,--lint-old -L,--lint=? "
    "-l,--load=:doubt -o,--pretty-print=?:doubt -p,--profile=?:doubt "
    "-d,--dump-variables=?:doubt -D,--debug=?:doubt -E,--exec=:doubt -W=:doubt "
    "-h,--usage,--help -V,--version",
)
LESS = opts(
    "-a,--search-skip-screen -A,--SEARCH-SKIP-SCREEN -b,--buffers= -B,--auto-buffers "
    "-c,--clear-screen -C,--CLEAR-SCREEN -d,--dumb -D,--color= -e,--quit-at-eof "
    "-E,--QUIT-AT-EOF -f,--force -F,--quit-if-one-screen -g,--hilite-search "
    "-G,--HILITE-SEARCH -h,--max-back-scroll= -i,--ignore-case -I,--IGNORE-CASE "
    "-j,--jump-target= -J,--status-column -k,--lesskey-file=:doubt --lesskey-src=:doubt "
    "--lesskey-content=:doubt -K,--quit-on-intr -L,--no-lessopen -m,--long-prompt "
    "-M,--LONG-PROMPT -n,--line-numbers -N,--LINE-NUMBERS -o,--log-file=:write "
    "-O,--LOG-FILE=:write -p,--pattern= -P,--prompt= -q,--quiet,--silent "
    "-Q,--QUIET,--SILENT -r,--raw-control-chars -R,--RAW-CONTROL-CHARS -s,--squeeze-blank-lines "
    "-S,--chop-long-lines -t,--tag= -T,--tag-file=:read -u,--underline-special "
    "-U,--UNDERLINE-SPECIAL -V,--version -w,--hilite-unread -W,--HILITE-UNREAD "
    "-x,--tabs= -X,--no-init -y,--max-forw-scroll= -z,--window= -~,--tilde "
    "--follow-name --incsearch --mouse --no-keypad --no-histdups --rscroll= "
    "--save-marks --use-backslash --use-color --wheel-lines= --wordwrap --header= "
    "--exit-follow-on-close --file-size --line-num-width= --status-col-width= "
    "--redraw-on-quit --intr= --no-number-headers --no-search-headers --match-shift= "
    "--shift= --help --quotes=",
    digits=True,
)
MORE = opts("-d,--silent -l,--logical -e,--exit-on-eof -f,--no-pause -p,--print-over "
            "-c,--clean-print -s,--squeeze -u,--plain -n,--lines= -h,--help -V,--version",
            digits=True)  # fmt: skip
BAT = opts(
    "-A,--show-all --nonprintable-notation= --binary= -p,--plain -l,--language= "
    "-H,--highlight-line= --file-name= -d,--diff --diff-context= --tabs= --wrap= "
    "-S,--chop-long-lines --terminal-width= -n,--number --color= --italic-text= "
    "--decorations= -f,--force-colorization --paging= --pager=:run -m,--map-syntax= "
    "--ignored-suffix= --theme= --theme-dark= --theme-light= --list-themes "
    "-L,--list-languages --style= -r,--line-range= -u,--unbuffered --squeeze-blank,-s "
    "--squeeze-limit= --strip-ansi= --no-config --no-custom-assets --lessopen:run "
    "--no-lessopen --config-file --config-dir --cache-dir --diagnostic "
    "--acknowledgements --set-terminal-title --completion= -h,--help -V,--version",
    abbreviations=False,
)


SEARCHES: dict[str, Options] = {"grep": GREP, "egrep": GREP, "fgrep": GREP, "zgrep": GREP,
                                "rg": RG, "ag": AG, "ack": ACK}  # fmt: skip
"""Programs whose first operand is their pattern, unless an option gave one."""


def searched(program: str, args: tuple[str, ...]) -> tuple[tuple[str, ...], Read]:
    """The patterns a search (one of `SEARCHES`) looks for (none known: they are in a
    file, ``-f``) and how it reads ``args``; its paths are the operands after the pattern."""
    read = read_options(SEARCHES[program], args)
    given = read.values("pattern")
    if given or read.values("pattern-file"):
        return given, read
    if read.has("listing") or (
        program == "rg" and any(g.opt.names[0] in ("--files", "--type-list") for g in read.given)
    ):
        return (), read  # lists files: no pattern
    return read.operands[:1], read._replace(operands=read.operands[1:])


def _searched(read: Read) -> Reading:
    """grep-like: the first operand is the pattern unless ``-e``/``-f`` gave one; the rest
    are files read (and ``-f``'s file)."""
    operands = read.operands
    if not read.values("pattern") and not read.values("pattern-file"):
        operands = operands[1:]
    files = (*read.values("pattern-file"), *operands)
    return Reading(option_acts(read) + acts_of(Does.READ, files))


def _rg_check(read: Read) -> Reading:
    listing = any(g.opt.names[0] in ("--files", "--type-list") for g in read.given)
    operands = read.operands
    if not listing and not read.values("pattern") and not read.values("pattern-file"):
        operands = operands[1:]
    acts = option_acts(read) + acts_of(Does.READ, (*operands, *read.values("pattern-file")))
    return Reading(acts)


def _first_is_pattern(read: Read) -> Reading:
    return Reading(option_acts(read) + acts_of(Does.READ, read.operands[1:]))


def _jq(args: tuple[str, ...]) -> Reading:
    """jq: its filter is code (it can read the environment: ``env``, ``$ENV``), the files
    after it are read; ``--arg NAME VALUE`` and kin take two words."""
    words: list[str] = []
    reads: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        if word in ("--arg", "--argjson", "--slurpfile", "--rawfile"):
            if index + 2 >= len(args):
                return doubtful(f"jq {word} needs a name and a value")
            if word in ("--slurpfile", "--rawfile"):
                reads.append(args[index + 2])
            index += 3
            continue
        words.append(word)
        index += 1
    read = read_options(JQ_FLAGS, words)
    if read.doubt is not None:
        return doubtful(read.doubt)
    operands = list(read.operands)
    if read.values("program"):
        reads.extend(read.values("program"))
        return doubtful("jq -f runs a filter from a file the guard does not read")
    if not operands:
        return Reading(acts_of(Does.READ, reads))
    program = operands.pop(0)
    shown = jq_env_shown(program)
    if shown:  # what `printenv` would show of it, judged as that (`table.commands_run`)
        return Reading(acts_of(Does.RUN, shown))
    scripts = jq_scripts_set(program)
    if scripts:  # a package script set: code npm runs, judged as the command it is
        return Reading(acts_of(Does.RUN, scripts) + acts_of(Does.READ, (*reads, *operands)))
    if any(name in program for name in _JQ_ENV):
        return doubtful("this jq filter reads the environment or its input's names")
    files = [] if "--args" in args or "--jsonargs" in args else operands
    return Reading(acts_of(Does.READ, (*reads, *files)))


_JQ_NAMED = re.compile(r'(?<![\w.$"])(?:\$ENV|env)\s*(?:\.\s*"?(\w+)"?|\[\s*"(\w+)"\s*\])')
_JQ_WHOLE = re.compile(r'(?<![\w.$"])(?:\$ENV|env)\b(?!\s*[.\[:])')


_JQ_SCRIPT = re.compile(
    r'\.scripts\s*(?:\.\s*"?[\w:-]+"?|\[\s*"[^"]+"\s*\])\s*[|/]?=\s*"((?:[^"\\]|\\.)*)"'
)


def jq_scripts_set(program: str) -> tuple[str, ...]:
    """The commands a jq filter writes into a package's ``scripts``
    (``.scripts.postinstall = "CMD"``): code ``npm`` runs later (at install, for a
    lifecycle script), judged now as the command it is."""
    return tuple(
        re.sub(r"\\(.)", r"\1", value) for value in _JQ_SCRIPT.findall(program) if value.strip()
    )


def jq_env_shown(program: str) -> tuple[str, ...]:
    """The commands that print what a jq filter reads of the environment: ``printenv
    NAME`` for ``env.NAME``, ``$ENV.NAME``, ``$ENV["NAME"]``; ``env`` for the whole of it
    (``jq -n env``)."""
    found = [f"printenv {a or b}" for a, b in _JQ_NAMED.findall(program)]
    if _JQ_WHOLE.search(program):
        found.append("env")
    return tuple(dict.fromkeys(found))


def _awk_check(read: Read) -> Reading | None:
    """awk as `unwrap` leaves it: the program text is taken out (and read by
    `guard.awk`); what is left are options and the files read (``var=value`` operands
    are assignments)."""
    if read.values("program") or read.has("program"):
        return doubtful("awk -f runs a program from a file the guard does not read")
    if any(v != "inplace" for v in read.values("include")):
        return doubtful("awk -i includes a program the guard does not read")
    files = [o for o in read.operands if not _assignment(o)]
    return Reading(acts_of(Does.READ, files))


def _assignment(word: str) -> bool:
    name, equals, _ = word.partition("=")
    return bool(equals) and name.isidentifier()


def _pager(options: Options) -> Entry:
    """less, more: ``+cmd`` runs a pager command (less's ``!`` runs a shell)."""
    reader = entry(options, Does.READ)

    def reading(args: tuple[str, ...]) -> Reading:
        if any(a.startswith("+") for a in args):
            return doubtful("a +command makes the pager run its commands")
        return reader(args)

    return reading


def _bat_check(read: Read) -> Reading | None:
    if read.operands[:1] == ("cache",):
        return doubtful("bat cache changes bat's own files")
    return None


TEXT: dict[str, Entry] = {
    "grep": entry(GREP, None, _searched),
    "egrep": entry(GREP, None, _searched),
    "fgrep": entry(GREP, None, _searched),
    "rg": entry(RG, None, _rg_check),
    "ag": entry(AG, None, _first_is_pattern),
    "fd": entry(FD, None, _first_is_pattern),
    "fdfind": entry(FD, None, _first_is_pattern),
    "jq": _jq,
    "awk": entry(AWK, None, _awk_check),
    "gawk": entry(AWK, None, _awk_check),
    "mawk": entry(AWK, None, _awk_check),
    "nawk": entry(AWK, None, _awk_check),
    "less": _pager(LESS),
    "more": _pager(MORE),
    "bat": entry(BAT, Does.READ, _bat_check),
    "batcat": entry(BAT, Does.READ, _bat_check),
}
