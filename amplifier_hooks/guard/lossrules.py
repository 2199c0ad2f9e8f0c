"""The rules the losses layer decides itself (not pack rules, yet a bundle's ``disable``
drops them as it drops those): each id with its decision and the reason the agent reads,
which says what to do instead."""

from __future__ import annotations

from amplifier_hooks.guard.model import Decision

__all__ = ["RULES"]

RULES: dict[str, tuple[Decision, str]] = {
    "rm-loses-work": ("ask", "deleting {what} loses work git cannot give back (changes not "
                      "committed, or files git neither tracks nor ignores); commit or stash "
                      "it first, or a person must confirm"),
    "git-loses-work": ("ask", "this discards {what} for good (uncommitted changes, or commits "
                       "no other branch, tag or remote has); commit, stash or push first, or "
                       "a person must confirm"),
    "overwrite-loses-work": ("ask", "this writes over {what}, which holds work git cannot give "
                             "back (changes not committed, or a file git neither tracks nor "
                             "ignores); write to a new file, commit or stash it first, or a "
                             "person must confirm"),
    "truncate-loses-work": ("ask", "this empties {what} ('>', or a write of no text), which holds "
                            "work git cannot give back; write to a new file or append with "
                            "'>>', or a person must confirm"),
    "ignored-data-loss": ("ask", "{what} is kept out of git, and by its name it holds data "
                          "no build or install makes again (a database, Terraform state, an "
                          "env file, an experiment store, uploads, local settings, a key); "
                          "move it aside first (mv it to a backup name), or ask the person, "
                          "who must confirm"),
    "secret-overwrite": ("ask", "{what} holds secrets by its name; deleting, emptying or "
                         "writing over it loses them for good (asked whether or not the guard "
                         "can see it there). Write to a new file, or a person must confirm"),
    "secret-file-read": ("deny", "{what} is a private key, keystore, signing password file, "
                         "service-account key or VPN profile by its name; "
                         "do not read, copy or send it. If a task needs it, ask the person"),
    "env-file-read": ("ask", "{what} usually holds secrets; a person must confirm before it is "
                      "read (use .env.example for the variable names)"),
    "env-file-print": ("deny", "{what} usually holds secrets (tokens, keys, passwords), and this "
                       "shows them where the model reads them; take the variable names from "
                       ".env.example, or ask the person for what the task needs"),
    "guard-lookalike": ("ask", "an argument starts with a character that looks like '-' or a "
                        "quote but is not one ({what}); the program reads it differently from "
                        "how it looks. Retype it with ASCII characters"),
    "guard-lookalike-path": ("ask", "the path {what} holds an invisible character or a letter "
                             "of another script that looks like a Latin one, so it names "
                             "another file than the one it shows; retype it"),
}  # fmt: skip
"""The rules of this layer: id -> (decision, reason). A bundle's ``disable`` drops them
like pack rules."""
