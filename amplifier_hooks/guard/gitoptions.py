"""git's own options per subcommand, as ``git <cmd> --git-completion-helper-all`` of git 2.39
lists them (``=``: the option takes a value). `spellings` reads abbreviations and negations
against these names, as git's parse-options does: a unique prefix is the option, an exact
name wins over a longer one, and a prefix of several is an error (git runs nothing).
"""

from __future__ import annotations

__all__ = ["GIT_LONG", "GIT_SHORT"]

GIT_LONG: dict[str, str] = {
    "push": (
        "verbose quiet repo= all mirror delete tags dry-run porcelain force force-with-lease "
        "force-if-includes recurse-submodules= thin receive-pack= exec= set-upstream progress "
        "prune no-verify follow-tags signed atomic push-option= ipv4 ipv6 verify no-verbose "
        "no-quiet no-repo no-all no-mirror no-delete no-tags no-dry-run no-porcelain no-force "
        "no-force-with-lease no-force-if-includes no-recurse-submodules no-thin no-receive-pack "
        "no-exec no-set-upstream no-progress no-prune no-follow-tags no-signed no-atomic "
        "no-push-option no-ipv4 no-ipv6"
    ),
    "restore": (
        "source= staged worktree ignore-unmerged overlay quiet recurse-submodules progress "
        "merge conflict= ours theirs patch ignore-skip-worktree-bits pathspec-from-file= "
        "pathspec-file-nul no-source no-staged no-worktree no-ignore-unmerged no-overlay "
        "no-quiet no-recurse-submodules no-progress no-merge no-conflict no-patch "
        "no-ignore-skip-worktree-bits no-pathspec-from-file no-pathspec-file-nul"
    ),
    "checkout": (
        "guess overlay quiet recurse-submodules progress merge conflict= detach track force "
        "orphan= overwrite-ignore ignore-other-worktrees ours theirs patch "
        "ignore-skip-worktree-bits pathspec-from-file= pathspec-file-nul no-guess no-overlay "
        "no-quiet no-recurse-submodules no-progress no-merge no-conflict no-detach no-track "
        "no-force no-orphan no-overwrite-ignore no-ignore-other-worktrees no-patch "
        "no-ignore-skip-worktree-bits no-pathspec-from-file no-pathspec-file-nul"
    ),
    "switch": (
        "create= force-create= guess discard-changes quiet recurse-submodules progress merge "
        "conflict= detach track force orphan= overwrite-ignore ignore-other-worktrees no-create "
        "no-force-create no-guess no-discard-changes no-quiet no-recurse-submodules no-progress "
        "no-merge no-conflict no-detach no-track no-force no-orphan no-overwrite-ignore "
        "no-ignore-other-worktrees"
    ),
    "rm": (
        "dry-run quiet cached force ignore-unmatch sparse pathspec-from-file= pathspec-file-nul "
        "no-dry-run no-quiet no-cached no-force no-ignore-unmatch no-sparse "
        "no-pathspec-from-file no-pathspec-file-nul"
    ),
    "branch": (
        "verbose quiet track set-upstream set-upstream-to= unset-upstream color remotes "
        "contains no-contains with without abbrev all delete move copy list show-current "
        "create-reflog edit-description force merged no-merged column sort= points-at= "
        "ignore-case recurse-submodules format= no-verbose no-quiet no-track no-set-upstream "
        "no-set-upstream-to no-unset-upstream no-color no-remotes no-abbrev no-all no-delete "
        "no-move no-copy no-list no-show-current no-create-reflog no-edit-description no-force "
        "no-column no-sort no-points-at no-ignore-case no-recurse-submodules no-format"
    ),
    "tag": (
        "list delete verify annotate message= file= edit sign cleanup= local-user= force "
        "create-reflog column contains no-contains with without merged no-merged sort= "
        "points-at format= color ignore-case no-annotate no-file no-edit no-sign no-cleanup "
        "no-local-user no-force no-create-reflog no-column no-sort no-points-at no-format "
        "no-color no-ignore-case"
    ),
    "clean": "quiet dry-run force interactive exclude= no-quiet no-dry-run no-force no-interactive",
    "reset": (
        "quiet no-refresh mixed soft hard merge keep recurse-submodules patch intent-to-add "
        "pathspec-from-file= pathspec-file-nul refresh no-quiet no-mixed no-soft no-hard "
        "no-merge no-keep no-recurse-submodules no-patch no-intent-to-add no-pathspec-from-file "
        "no-pathspec-file-nul"
    ),
    "merge": (
        "stat summary log squash commit edit cleanup= ff ff-only rerere-autoupdate "
        "verify-signatures strategy= strategy-option= message= file into-name= verbose quiet "
        "abort quit continue allow-unrelated-histories progress gpg-sign autostash "
        "overwrite-ignore signoff no-verify verify no-stat no-summary no-log no-squash "
        "no-commit no-edit no-cleanup no-ff no-rerere-autoupdate no-verify-signatures "
        "no-strategy no-strategy-option no-message no-into-name no-verbose no-quiet no-abort "
        "no-quit no-continue no-allow-unrelated-histories no-progress no-gpg-sign no-autostash "
        "no-overwrite-ignore no-signoff"
    ),
    "rebase": (
        "onto= keep-base no-verify quiet verbose no-stat signoff committer-date-is-author-date "
        "reset-author-date ignore-date ignore-whitespace whitespace= force-rebase no-ff "
        "continue skip abort quit edit-todo show-current-patch apply merge interactive "
        "preserve-merges rerere-autoupdate empty= keep-empty autosquash update-refs gpg-sign "
        "autostash exec= allow-empty-message rebase-merges fork-point strategy= "
        "strategy-option= root reschedule-failed-exec reapply-cherry-picks verify stat ff "
        "no-onto no-keep-base no-quiet no-verbose no-signoff no-committer-date-is-author-date "
        "no-reset-author-date no-ignore-date no-ignore-whitespace no-whitespace no-force-rebase "
        "no-preserve-merges no-rerere-autoupdate no-keep-empty no-autosquash no-update-refs "
        "no-gpg-sign no-autostash no-exec no-allow-empty-message no-rebase-merges no-fork-point "
        "no-strategy no-strategy-option no-root no-reschedule-failed-exec "
        "no-reapply-cherry-picks"
    ),
    "cherry-pick": (
        "quit continue abort skip cleanup= no-commit edit signoff mainline= rerere-autoupdate "
        "strategy= strategy-option= gpg-sign ff allow-empty allow-empty-message "
        "keep-redundant-commits commit no-cleanup no-edit no-signoff no-mainline "
        "no-rerere-autoupdate no-strategy no-strategy-option no-gpg-sign no-ff no-allow-empty "
        "no-allow-empty-message no-keep-redundant-commits"
    ),
    "revert": (
        "quit continue abort skip cleanup= no-commit edit signoff mainline= rerere-autoupdate "
        "strategy= strategy-option= gpg-sign reference commit no-cleanup no-edit no-signoff "
        "no-mainline no-rerere-autoupdate no-strategy no-strategy-option no-gpg-sign "
        "no-reference"
    ),
    "am": (
        "interactive binary 3way quiet signoff utf8 keep keep-non-patch message-id keep-cr "
        "no-keep-cr scissors quoted-cr= whitespace= ignore-space-change ignore-whitespace "
        "directory= exclude= include= patch-format= reject resolvemsg= continue resolved skip "
        "abort quit show-current-patch allow-empty committer-date-is-author-date ignore-date "
        "rerere-autoupdate gpg-sign empty= rebasing no-interactive no-binary no-3way no-quiet "
        "no-signoff no-utf8 no-keep no-keep-non-patch no-message-id no-scissors no-whitespace "
        "no-ignore-space-change no-ignore-whitespace no-directory no-exclude no-include "
        "no-patch-format no-reject no-resolvemsg no-committer-date-is-author-date "
        "no-ignore-date no-rerere-autoupdate no-gpg-sign no-rebasing"
    ),
    "stash drop": "quiet no-quiet",
    "stash clear": "",
    "stash pop": "quiet index no-quiet no-index",
    "stash apply": "quiet index no-quiet no-index",
    "stash push": (
        "keep-index staged patch quiet include-untracked all message= pathspec-from-file= "
        "pathspec-file-nul no-keep-index no-staged no-patch no-quiet no-include-untracked "
        "no-all no-message no-pathspec-from-file no-pathspec-file-nul"
    ),
    "worktree remove": "force no-force",
    "worktree add": (
        "force detach checkout lock reason= quiet track guess-remote no-force no-detach "
        "no-checkout no-lock no-reason no-quiet no-track no-guess-remote"
    ),
    "mv": "verbose dry-run force sparse no-verbose no-dry-run no-force no-sparse",
}
"""Subcommand (``stash drop``, ``worktree remove``: two words) -> its long options."""

GIT_SHORT: dict[str, dict[str, tuple[str, ...]]] = {
    "push": {"f": ("force",), "d": ("delete",), "u": ("set-upstream",), "n": ("dry-run",),
             "q": ("quiet",), "v": ("verbose",), "o": ("push-option=",)},
    "restore": {"s": ("source=",), "S": ("staged",), "W": ("worktree",), "p": ("patch",),
                "q": ("quiet",), "m": ("merge",), "2": ("ours",), "3": ("theirs",)},
    "checkout": {"f": ("force",), "b": ("branch=",), "B": ("force-branch=",), "q": ("quiet",),
                 "m": ("merge",), "p": ("patch",), "t": ("track",), "l": ("create-reflog",),
                 "d": ("detach",), "2": ("ours",), "3": ("theirs",)},
    "switch": {"c": ("create=",), "C": ("force-create=",), "f": ("discard-changes",),
               "d": ("detach",), "m": ("merge",), "q": ("quiet",), "t": ("track",)},
    "rm": {"f": ("force",), "r": ("recursive",), "n": ("dry-run",), "q": ("quiet",)},
    "branch": {"d": ("delete",), "D": ("delete", "force"), "f": ("force",), "m": ("move",),
               "M": ("move", "force"), "c": ("copy",), "C": ("copy", "force"),
               "r": ("remotes",), "a": ("all",), "l": ("list",), "v": ("verbose",),
               "q": ("quiet",), "t": ("track",), "u": ("set-upstream-to=",), "i": ("ignore-case",)},
    "tag": {"d": ("delete",), "f": ("force",), "a": ("annotate",), "m": ("message=",),
            "F": ("file=",), "l": ("list",), "s": ("sign",), "u": ("local-user=",),
            "v": ("verify",), "n": ("lines",), "e": ("edit",), "i": ("ignore-case",)},
    "clean": {"f": ("force",), "n": ("dry-run",), "d": ("directories",), "x": ("ignored-too",),
              "X": ("only-ignored",), "i": ("interactive",), "q": ("quiet",), "e": ("exclude=",)},
    "reset": {"q": ("quiet",), "p": ("patch",), "N": ("intent-to-add",)},
    "merge": {"m": ("message=",), "s": ("strategy=",), "X": ("strategy-option=",),
              "q": ("quiet",), "v": ("verbose",), "n": ("no-stat",), "e": ("edit",),
              "F": ("file=",), "S": ("gpg-sign",)},
    "rebase": {"i": ("interactive",), "x": ("exec=",), "s": ("strategy=",),
               "X": ("strategy-option=",), "q": ("quiet",), "v": ("verbose",),
               "f": ("force-rebase",), "m": ("merge",), "n": ("no-stat",), "r": ("rebase-merges",),
               "S": ("gpg-sign",), "C": ("context=",)},
    "cherry-pick": {"n": ("no-commit",), "e": ("edit",), "m": ("mainline=",), "s": ("signoff",),
                    "x": ("record-origin",), "X": ("strategy-option=",), "S": ("gpg-sign",)},
    "revert": {"n": ("no-commit",), "e": ("edit",), "m": ("mainline=",), "s": ("signoff",),
               "X": ("strategy-option=",), "S": ("gpg-sign",)},
    "am": {"i": ("interactive",), "3": ("3way",), "q": ("quiet",), "s": ("signoff",),
           "k": ("keep",), "c": ("scissors",), "p": ("p=",), "C": ("C=",), "S": ("gpg-sign",)},
    "stash drop": {"q": ("quiet",)},
    "stash clear": {},
    "stash pop": {"q": ("quiet",)},
    "stash apply": {"q": ("quiet",)},
    "stash push": {"k": ("keep-index",), "S": ("staged",), "p": ("patch",), "q": ("quiet",),
                   "u": ("include-untracked",), "a": ("all",), "m": ("message=",)},
    "worktree remove": {"f": ("force",)},
    "worktree add": {"f": ("force",), "b": ("branch=",), "B": ("force-branch=",),
                     "d": ("detach",), "q": ("quiet",)},
    "mv": {"f": ("force",), "k": ("skip-errors",), "n": ("dry-run",), "v": ("verbose",)},
}  # fmt: skip
"""Subcommand -> its one-letter options and the long options each one is (``branch -D`` is
``--delete --force``); ``=``: it takes a value (the rest of the word, else the next word)."""
