"""git's options: its global ones, and those of each subcommand the table reads.

Options that make git run something the call names (``--exec``, ``--upload-pack``, an
editor, an interactive mode) are ``:run`` or ``:doubt``; ``--output`` writes a file.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.table.options import Options, opts


def _opts(text: str, digits: bool = False, permute: bool = True) -> Options:
    """A subcommand's options, read by git's parse-options: every long option has a
    ``--no-`` spelling (one named ``no-X`` has ``--X``)."""
    return opts(text, digits=digits, negations=True, permute=permute)


GLOBAL = opts(
    "-C=:chdir -c=:config --config-env=:doubt --git-dir=:doubt --work-tree=:doubt "
    "--namespace= --exec-path=?:doubt --bare -p,--paginate -P,--no-pager "
    "--no-replace-objects --literal-pathspecs --glob-pathspecs --noglob-pathspecs "
    "--icase-pathspecs --no-optional-locks --list-cmds=:doubt --super-prefix=:doubt "
    "--attr-source= --html-path --man-path --info-path -v,--version -h,--help",
    permute=False,
    abbreviations=False,
)
SAFE_CONFIG = re.compile(
    r"^(color\.[a-z.]+|core\.quotepath|user\.(name|email)|advice\.[a-z]+|init\.defaultbranch"
    r"|log\.[a-z]+|diff\.(noprefix|mnemonicprefix|renames|algorithm|colormoved)"
    r"|commit\.gpgsign|column\.ui|status\.[a-z]+|pull\.(rebase|ff)|merge\.conflictstyle"
    r"|safe\.directory|i18n\.[a-z]+)=",
    re.I,
)
"""``-c`` settings that change only how git prints or the names it records."""

_DIFF = (
    "-p,-u,--patch -s,--no-patch -U,--unified= --output=:write --output-indicator-new= "
    "--output-indicator-old= --output-indicator-context= --raw --patch-with-raw "
    "--patch-with-stat -t --stat=? --compact-summary --numstat --shortstat --dirstat=? "
    "--cumulative --dirstat-by-file=? --summary -z --name-only --name-status "
    "--submodule=? --color=? --no-color --color-moved=? --no-color-moved "
    "--color-moved-ws= --no-color-moved-ws --word-diff=? --word-diff-regex= "
    "--color-words=? --no-renames --rename-empty! --check --ws-error-highlight= "
    "--full-index --binary --abbrev=? --no-abbrev -B,--break-rewrites=? -M,--find-renames=? "
    "-C,--find-copies=? --find-copies-harder -D,--irreversible-delete -l= --diff-filter= "
    "-S= -G= --find-object= --pickaxe-all --pickaxe-regex -O=:read --skip-to= --rotate-to= "
    "-R --relative=? --no-relative -a,--text --ignore-cr-at-eol --ignore-space-at-eol "
    "-b,--ignore-space-change -w,--ignore-all-space --ignore-blank-lines "
    "-I,--ignore-matching-lines= --inter-hunk-context= -W,--function-context! --exit-code "
    "--quiet --ext-diff! --textconv! --ignore-submodules=? --src-prefix= --dst-prefix= "
    "--no-prefix --default-prefix --line-prefix= --ita-invisible-in-index "
    "--ita-visible-in-index --minimal --patience --histogram --anchored= "
    "--diff-algorithm= --indent-heuristic! --cached,--staged --merge-base --no-index "
    "--stat-width= --stat-name-width= --stat-count= --stat-graph-width= --full-diff "
    "-m -c --cc --dd --remerge-diff --diff-merges= --combined-all-paths "
)
_LOG = (
    "-n,--max-count= --skip= --since=,--after= --since-as-filter= --until=,--before= "
    "--author= --committer= --grep-reflog= --grep= --all-match --invert-grep "
    "-i,--regexp-ignore-case --basic-regexp -E,--extended-regexp -F,--fixed-strings "
    "-P,--perl-regexp --remove-empty --merges --no-merges --min-parents= --max-parents= "
    "--no-min-parents --no-max-parents --first-parent --exclude-first-parent-only --not "
    "--all --branches=? --tags=? --remotes=? --glob= --exclude= --exclude-hidden= "
    "--reflog --alternate-refs --single-worktree --ignore-missing --bisect --stdin "
    "--cherry-mark --cherry-pick --left-only --right-only --cherry -g,--walk-reflogs "
    "--merge --boundary --simplify-by-decoration --show-pulls --full-history --dense "
    "--sparse --simplify-merges --ancestry-path=? --date-order --author-date-order "
    "--topo-order --reverse --no-walk=? --do-walk --pretty=? --format= --abbrev-commit "
    "--no-abbrev-commit --oneline --encoding= --expand-tabs=? --no-expand-tabs "
    "--notes=? --no-notes --show-notes-by-default --show-signature --relative-date "
    "--date= --parents --children --left-right --graph --show-linear-break=? "
    "--decorate=? --no-decorate --decorate-refs= --decorate-refs-exclude= --source "
    "--clear-decorations --use-mailmap! --mailmap! --log-size -L= --follow "
    "--no-walk --in-commit-order --root --show-origin -q "
)
_STD = " -h,--help"
VERSION = _opts("--build-options" + _STD)
HELP = _opts(
    "-a,--all -g,--guides -c,--config --user-interfaces --developer-interfaces "
    "--no-external-commands --no-aliases --verbose" + _STD
)


def _diffing(extra: str = "") -> Options:
    return _opts(_DIFF + _LOG + extra + _STD, digits=True)


LOG = _diffing()
SHOW = _diffing()
DIFF = _diffing()
REFLOG = _diffing(
    "--expire= --expire-unreachable= --rewrite --updateref --stale-fix "
    "--single-worktree --dry-run! --verbose"
)
"""reflog show's options are log's; expire's and delete's are its own (``--dry-run``)."""
SHORTLOG = _diffing("-s,--summary -e,--email -c,--committer --group= -w=?")
STATUS = _opts("-s,--short -b,--branch --show-stash --porcelain=? --long -v,--verbose "
              "-u,--untracked-files=? --ignored=? --ignore-submodules=? -z --column=? "
              "--no-column --ahead-behind! --renames! --find-renames=? -h,--help")  # fmt: skip
BLAME = _opts("-b --root --show-stats --score-debug -f,--show-name -n,--show-number -p,--porcelain "
             "--line-porcelain -l -t -S=:read --reverse= --first-parent -L= -w -M=? -C=? "
             "--date= --progress! --contents=:read --ignore-rev= --ignore-revs-file=:read "
             "--color-lines --color-by-age --minimal -s -e,--show-email --abbrev=? -c "
             "--incremental --encoding= -h,--help")  # fmt: skip
ADD = _opts("-n,--dry-run -v,--verbose -f,--force:doubt -i,--interactive:doubt -p,--patch:doubt "
           "-e,--edit:doubt -u,--update -A,--all! --ignore-removal! -N,--intent-to-add "
           "--refresh --ignore-errors --ignore-missing --sparse --chmod= "
           "--pathspec-from-file=:read --pathspec-file-nul --renormalize -h,--help")  # fmt: skip
COMMIT = _opts("-a,--all -p,--patch:doubt -m,--message=:message -F,--file=:message "
              "-C,--reuse-message=:message -c,--reedit-message=:doubt --fixup=:message "
              "--squash= --amend --no-edit:message -e,--edit:doubt --allow-empty "
              "--allow-empty-message -s,--signoff! -S,--gpg-sign=? --no-gpg-sign "
              "-n,--no-verify --verify -q,--quiet -v,--verbose --dry-run --short "
              "--porcelain --long -z --null --author= --date= -t,--template=:doubt "
              "--cleanup= -u,--untracked-files=? -i,--include -o,--only --trailer= "
              "--reset-author --status! --pathspec-from-file=:read --pathspec-file-nul "
              "-h,--help")  # fmt: skip
_FETCHING = ("--all -a,--append -p,--prune! -P,--prune-tags -t,--tags! -n --depth= "
             "--shallow-since= --shallow-exclude= --unshallow --deepen= --update-shallow "
             "--dry-run -f,--force -k,--keep -q,--quiet -v,--verbose --progress! "
             "-j,--jobs= --recurse-submodules=? --no-recurse-submodules --set-upstream "
             "--multiple --update-head-ok -u --upload-pack=:run --refmap= --filter= "
             "--atomic --write-fetch-head! --prefetch --show-forced-updates! "
             "--negotiation-tip= --negotiate-only --auto-maintenance! --auto-gc! "
             "--porcelain -4,--ipv4 -6,--ipv6 -o,--server-option= ")  # fmt: skip
FETCH = _opts(_FETCHING + _STD)
LS_REMOTE = _opts("-h,--heads -t,--tags --branches --refs --upload-pack=:run --exec=:run "
                  "-q,--quiet --exit-code --get-url --sort= --symref "
                  "-o,--server-option=")  # fmt: skip
"""``git ls-remote``: a listing of a remote's refs; ``--upload-pack`` names the command
run to serve them (over ssh, on the remote; for a local path or ``file://``, here)."""
PULL = _opts(_FETCHING + "-r,--rebase=? --no-rebase --ff --no-ff --ff-only --squash! "
            "--commit! --edit:doubt -e:doubt --no-edit --stat --no-stat --log=? --no-log "
            "--autostash! -s,--strategy= -X,--strategy-option= --verify-signatures! "
            "--allow-unrelated-histories --signoff! --cleanup= -S,--gpg-sign=? "
            "--no-gpg-sign --verify! --no-verify" + _STD)  # fmt: skip
PUSH = _opts("--all --branches --mirror --tags --follow-tags! -n,--dry-run:dry --porcelain "
            "-d,--delete -f,--force --force-with-lease=? --no-force-with-lease "
            "--force-if-includes! -u,--set-upstream -q,--quiet -v,--verbose --progress! "
            "--prune --no-verify --verify --atomic! -o,--push-option= --receive-pack=:run "
            "--exec=:run --signed=? --no-signed --recurse-submodules= --thin! --repo= "
            "-4,--ipv4 -6,--ipv6" + _STD)  # fmt: skip
BRANCH = _opts(
    "-a,--all -r,--remotes -l,--list -v,--verbose -q,--quiet --format= --sort= "
    "--contains=? --no-contains=? --merged=? --no-merged=? --points-at= "
    "--color=? --no-color --column=? --no-column --show-current -d,--delete -D "
    "-m,--move -M -c,--copy -C -f,--force -u,--set-upstream-to= --unset-upstream "
    "-t,--track=? --no-track --edit-description:doubt --abbrev=? --no-abbrev "
    "--omit-empty -i,--ignore-case --create-reflog --recurse-submodules --set-upstream "
    "--with=? --without=?" + _STD
)
CHECKOUT = _opts("-b=:create -B=:create --orphan=:create -t,--track=? --no-track -l "
                "--guess! -q,--quiet -f,--force:doubt --detach:create -m,--merge "
                "--conflict= -p,--patch:doubt --ours --theirs --ignore-other-worktrees "
                "--overwrite-ignore! --progress! --recurse-submodules! --overlay! "
                "--pathspec-from-file=:doubt --pathspec-file-nul --ignore-skip-worktree-bits"
                + _STD)  # fmt: skip
SWITCH = _opts("-c,--create= -C,--force-create= -d,--detach --guess! "
              "-f,--discard-changes:doubt --force:doubt -m,--merge --conflict= -q,--quiet "
              "--progress! -t,--track=? --no-track --orphan= --ignore-other-worktrees "
              "--overwrite-ignore! "
              "--recurse-submodules!" + _STD)  # fmt: skip
RESTORE = _opts("-s,--source= -p,--patch:doubt -W,--worktree:worktree -S,--staged:staged "
               "--ours --theirs -m,--merge --conflict= --ignore-unmerged "
               "--ignore-skip-worktree-bits --overlay! --recurse-submodules! "
               "--pathspec-from-file=:doubt --pathspec-file-nul -q,--quiet --progress!"
               + _STD)  # fmt: skip
STASH_PUSH = _opts("-p,--patch:doubt -S,--staged -k,--keep-index! -u,--include-untracked:untracked "
                  "--only-untracked:untracked -a,--all:untracked -q,--quiet -m,--message= "
                  "--pathspec-from-file=:doubt --pathspec-file-nul" + _STD)  # fmt: skip
STASH_APPLY = _opts("--index -q,--quiet" + _STD)
STASH_DROP = _opts("-q,--quiet" + _STD)
STASH_CLEAR = _opts(_STD)
RESET = _opts("-q,--quiet --refresh --mixed --soft --hard --merge --keep --recurse-submodules "
              "-p,--patch:doubt -N,--intent-to-add --pathspec-from-file=:doubt "
              "--pathspec-file-nul" + _STD)  # fmt: skip
AM = _opts("-i,--interactive:doubt --binary -3,--3way -q,--quiet -s,--signoff -u,--utf8 -k,--keep "
           "--keep-non-patch -m,--message-id --keep-cr -c,--scissors --quoted-cr= --whitespace= "
           "--ignore-space-change --ignore-whitespace --directory=:into --exclude= --include= "
           "--patch-format= --reject --resolvemsg= -r,--continue,--resolved --skip --abort --quit "
           "--show-current-patch=? --allow-empty --committer-date-is-author-date --ignore-date "
           "--rerere-autoupdate! -S,--gpg-sign=? --empty= --rebasing -p= -C=" + _STD)  # fmt: skip
APPLY = _opts("-p=:strip -C= --directory=:into --include=:include --exclude= --stat --numstat "
              "--summary --check:check --index --cached -N,--intent-to-add -3,--3way "
              "--ours --theirs --union --apply --no-add --build-fake-ancestor=:write "
              "-R,--reverse --allow-binary-replacement,--binary --reject -z --unidiff-zero "
              "--inaccurate-eof --recount --ignore-space-change --ignore-whitespace "
              "--whitespace= --allow-empty -v,--verbose -q,--quiet --unsafe-paths"
              + _STD)  # fmt: skip
"""``git apply``: never granted (it writes what the patch names); read for where it
writes (``-p`` strips leading folders, ``--directory`` prepends one)."""
RM = _opts("-f,--force -n,--dry-run:dry -r -q,--quiet --cached:cached --ignore-unmatch "
          "--sparse --pathspec-from-file=:doubt --pathspec-file-nul" + _STD)  # fmt: skip
MV = _opts("-f,--force -k -n,--dry-run -v,--verbose --sparse" + _STD)
CLEAN = _opts("-d -f,--force -i,--interactive:doubt -n,--dry-run:dry -q,--quiet "
             "-e,--exclude= -x -X" + _STD)  # fmt: skip
CONFIG = _opts("--get:get --get-all:get --get-regexp:dump --get-urlmatch:dump --get-color:get "
              "--get-colorbool:get -l,--list:dump --show-origin --show-scope --name-only:names "
              "-z,--null --type= --bool --int --bool-or-int --path --expiry-date "
              "--default= --global --system --local --worktree -f,--file=:read --blob= "
              "--includes! --fixed-value -e,--edit:doubt --add:doubt --replace-all:doubt "
              "--unset:doubt --unset-all:doubt --rename-section:doubt "
              "--remove-section:doubt --comment=" + _STD, permute=False)  # fmt: skip
"""(git config stops at its first operand: ``git config alias.p '-c x=y log'`` sets the
alias to ``-c x=y log``, it is no option.)"""
TAG = _opts("-l,--list -n=? --sort= --contains=? --no-contains=? --merged=? --no-merged=? "
           "--points-at= --format= --column=? --no-column -i,--ignore-case --color=? "
           "-a,--annotate -m,--message=:message -F,--file=:message -s,--sign "
           "-u,--local-user= -f,--force -d,--delete:doubt -v,--verify -e,--edit:doubt "
           "--cleanup= --create-reflog --omit-empty --trailer= --with=? --without=?"
           + _STD)  # fmt: skip
MERGE = _opts(
    "--ff --no-ff --ff-only --commit! -e,--edit:doubt --no-edit --squash! "
    "-s,--strategy= -X,--strategy-option= -m,--message= --summary -F,--file=:read --abort "
    "--continue "
    "--quit -q,--quiet -v,--verbose --stat -n --no-stat --log=? --no-log "
    "--signoff! --verify! --no-verify --autostash! --allow-unrelated-histories "
    "--progress! --into-name= --rerere-autoupdate! --overwrite-ignore! "
    "-S,--gpg-sign=? --no-gpg-sign --verify-signatures! --cleanup=" + _STD
)
REBASE = _opts(
    "-i,--interactive:doubt -x,--exec=:run --onto=:doubt --keep-base --continue --abort "
    "--skip --quit --edit-todo:doubt --show-current-patch -m,--merge "
    "-s,--strategy= -X,--strategy-option= -q,--quiet -v,--verbose --stat "
    "-n,--no-stat --autosquash! --autostash! --update-refs! --rebase-merges=? "
    "--no-rebase-merges --root --fork-point! --committer-date-is-author-date "
    "--reset-author-date --ignore-date --ignore-whitespace --whitespace= -C= "
    "-f,--force-rebase --no-ff --signoff --keep-empty! --empty= "
    "--reapply-cherry-picks! --allow-empty-message -S,--gpg-sign=? "
    "--no-gpg-sign --apply --no-verify --verify -r --rerere-autoupdate! --preserve-merges "
    "--reschedule-failed-exec!" + _STD
)
PICK = _opts("--continue --skip --abort --quit -e,--edit:doubt --no-edit -n,--no-commit "
            "-s,--signoff -m,--mainline= -x --ff --allow-empty --allow-empty-message "
            "--keep-redundant-commits --empty= -s,--strategy= -X,--strategy-option= "
            "-S,--gpg-sign=? --no-gpg-sign --rerere-autoupdate! --cleanup= --reference"
            + _STD)  # fmt: skip
INIT = _opts(
    "-q,--quiet --bare --template=:doubt --separate-git-dir=:doubt "
    "--object-format= --ref-format= -b,--initial-branch= --shared=?" + _STD
)
READING = _opts("-c,--cached -d,--deleted -m,--modified -o,--others -i,--ignored -s,--stage "
               "-u,--unmerged -k,--killed -z -t -v -f --full-name --recurse-submodules "
               "--abbrev=? --exclude= -x -X,--exclude-from=:read --exclude-per-directory= "
               "--exclude-standard --error-unmatch --with-tree= --debug --eol --deduplicate "
               "--sparse --format= --directory --no-empty-directory -r -d --name-only "
               "--name-status --object-only --full-tree -l,--long --long --verify -q,--quiet "
               "--short=? --show-toplevel --show-prefix --show-cdup --git-dir --git-common-dir "
               "--absolute-git-dir --is-inside-work-tree --is-inside-git-dir "
               "--is-bare-repository --is-shallow-repository --show-superproject-working-tree "
               "--symbolic-full-name --abbrev-ref=? --symbolic --all --branches=? --tags=? "
               "--remotes=? --local-env-vars --path-format= --git-path= --sq --sq-quote "
               "--default= --prefix= --flags --no-flags --revs-only --no-revs --parseopt "
               "--keep-dashdash --stop-at-non-option --stuck-long --since= --until= "
               "-p -e --batch=? --batch-check=? --batch-all-objects --textconv --filters "
               "--path= --buffer --follow-symlinks --unordered --allow-unknown-type "
               "--heads --head --dereference --hash=? --count= --sort= --points-at= "
               "--merged=? --no-merged=? --contains=? --no-contains=? --ignore-case "
               "--omit-empty --tags --always --contains --dirty=? --broken=? --match= "
               "--candidates= --exact-match --debug --long --first-parent --name-only "
               "--no-undefined --undefined --is-ancestor --octopus --independent "
               "--fork-point --stdin --no-index -n --non-matching --exclude-existing=? "
               "--verbose -H --show-object-format=? --show-ref-format" + _STD,
               digits=True)  # fmt: skip
GREP = _opts("--cached --untracked --no-index:no-index --no-exclude-standard --exclude-standard "
            "--recurse-submodules -a,--text --textconv! -i,--ignore-case -I --max-depth= "
            "-r,--recursive --no-recursive -w,--word-regexp -v,--invert-match -h -H "
            "--full-name -E,--extended-regexp -G,--basic-regexp -P,--perl-regexp "
            "-F,--fixed-strings -n,--line-number --column -l,--files-with-matches "
            "--name-only -L,--files-without-match -O,--open-files-in-pager=?:run -z,--null "
            "-o,--only-matching -c,--count --color=? --no-color --break --heading "
            "-p,--show-function -A,--after-context= -B,--before-context= -C,--context= "
            "-W,--function-context --threads= -f=:read -e=:pattern --and --or --not "
            "--all-match -q,--quiet -m,--max-count=" + _STD, digits=True)  # fmt: skip
WORKTREE = _opts("-f,--force --detach --checkout! --guess-remote! --track! --lock "
                "--reason= -q,--quiet --orphan -b= -B= -v,--verbose --porcelain -z "
                "--expire= -n,--dry-run" + _STD)  # fmt: skip
REMOTE = _opts("-v,--verbose -n" + _STD)
GC = _opts("--aggressive --auto --prune=? --no-prune -q,--quiet --force --keep-largest-pack "
          "--cruft! --max-cruft-size=" + _STD)  # fmt: skip
NOTES = _opts("--ref=" + _STD)
BISECT = _opts("--term-old= --term-new= --term-good= --term-bad= --no-checkout "
              "--first-parent" + _STD)  # fmt: skip
