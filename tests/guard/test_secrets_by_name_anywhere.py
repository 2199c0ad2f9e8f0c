"""Secrets by name wherever they are kept, and searches that print them: a credential
file's copy (a dotfiles repository's ``.netrc``), another project's ``.npmrc``, a
Terraform variables file named for secrets, a keys folder copied out of the home folder,
a search for a token's shape or a signing password's name, history searched for a
secret's name with its patches; each beside the everyday call next to it."""

from __future__ import annotations

import pytest

from tests.guard.conftest import tool_decided
from tests.guard.tables import stopped_and_free

STOPPED = [
    ("cat ~/dotfiles/netrc/.netrc", "deny", "credential-read-copy"),
    ("head -3 ../old-api/.git-credentials", "deny", "credential-read-copy"),
    ("git -C ~/src/infra log -p --all -S AWS_SECRET_ACCESS_KEY", "deny",
     "secret-history-search-print"),
    ("git log -p -G 'api_key' -- config/", "deny", "secret-history-search-print"),
    ("grep -rn -i 'storePassword\\|keyPassword' android/ --include=*.properties", "deny",
     "secret-shape-search-print"),
    ("grep -ho 'hf_[A-Za-z0-9]\\{30,\\}' -r notebooks/ | sort -u", "deny",
     "secret-shape-search-print"),
    ("jq -r '.cells[].outputs[]?.text[]?' nb.ipynb | grep -i 'sk-'", "deny",
     "secret-shape-search-print"),
    ("rg -o 'ghp_[A-Za-z0-9]{36}' .", "deny", "secret-shape-search-print"),
    ("grep -rE '\\bAKIA[0-9A-Z]{16}' logs/", "deny", "secret-shape-search-print"),
    ("git grep -n 'ghp_[A-Za-z0-9]{36}'", "deny", "secret-shape-git-grep-print"),
    ("git grep -o 'AKIA[0-9A-Z]{16}' HEAD~3", "deny", "secret-shape-git-grep-print"),
    # (-c, -l, -q as the value of the option before them: no flag, the tokens printed)
    ("grep -r --exclude -c 'AKIA[0-9A-Z]{16}' .", "deny", "secret-shape-search-print"),
    ("grep -r --label -q 'ghp_[A-Za-z0-9]{36}' .", "deny", "secret-shape-search-print"),
    ("rg -g -l 'AKIA[0-9A-Z]{16}'", "deny", "secret-shape-search-print"),
    ("cp -rL ~/dotfiles/ssh ./fixtures/", "deny", "key-folder-copy"),
    ("rsync -a ~/backup/.gnupg/ ./keys/", "deny", "key-folder-copy"),
]  # fmt: skip

FREE = [
    "grep -rn TODO src/",
    "grep -rl 'AKIA[0-9A-Z]\\{16\\}' src/",  # the files' names only
    "grep -c storePassword android/app/build.gradle",
    "grep -rn 'task-' docs/",
    "grep -rn hf_hub_download src/",  # a library's name, not a token's shape
    "grep -rn highs_ data/",
    "git grep -l 'AKIA[0-9A-Z]\\{16\\}'",  # the files' names only
    "git grep -c storePassword",
    "grep -rl --exclude '*.md' 'AKIA[0-9A-Z]\\{16\\}' .",
    "grep -rlA3 'AKIA[0-9A-Z]\\{16\\}' src/",
    "rg -l -g '*.py' 'AKIA[0-9A-Z]{16}'",
    "git grep -n hf_hub_download",
    "git log -S refreshToken --oneline",
    "git log -p -S parseConfig src/config.ts",
    "cp -r ~/src/templates/ssh-config-example ./docs/",
]

READS = [
    ("/home/dev/src/infra/terraform/secrets.auto.tfvars", "deny", "secret-tfvars-read"),
    ("/home/dev/project/infra/prod-secrets.tfvars", "deny", "secret-tfvars-read"),
    ("/home/dev/src/ui-kit/.npmrc", "ask", "registry-settings-read-elsewhere"),
    ("/home/dev/dotfiles/.netrc", "deny", "credential-read-copy"),
    ("/home/dev/project/.env.example", None, None),
    ("/home/dev/project/.npmrc", None, None),
    ("/home/dev/project/infra/terraform.tfvars", None, None),
]


test_stopped, test_everyday_stays_free = stopped_and_free(STOPPED, FREE)


@pytest.mark.parametrize(("path", "decision", "rule"), READS)
def test_read_tool(path: str, decision: str | None, rule: str | None) -> None:
    found = tool_decided("Read", {"file_path": path})
    if decision is None:
        assert found[0] not in ("deny", "ask")
    else:
        assert found == (decision, rule)
