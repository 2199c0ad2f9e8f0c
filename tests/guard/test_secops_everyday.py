"""A security engineer's everyday calls stay free, and their risky neighbours stay stopped:
a Vault policy read, a new key written into the workspace, a certificate or CRL printed,
an age identity's public key, a decryption thrown away, a password copied to the
clipboard, an ssh certificate printed, a system log searched, the workspace's history
scanned for secrets, a scratch file shredded, a dataset of an HDF5 file printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.guard import Places, Policy, judge
from tests.guard.conftest import decided, write

FREE = (None, "allow")


@pytest.mark.parametrize(
    "command",
    [
        "vault policy read dev-readonly",
        "vault policy list",
        "vault secrets list",
        "vault auth list",
        "openssl genpkey -algorithm ed25519 -out lab/certs/new-svc.key",
        "openssl genpkey -algorithm ed25519 -out lab/certs/new-svc.pem",
        "openssl req -new -newkey rsa:2048 -nodes -keyout new.key -out new.csr -subj /CN=x",
        "openssl genrsa -out new.key 2048",
        "openssl crl -in lab/ca/crl.pem -noout -text",
        "openssl x509 -in lab/certs/server.pem -noout -subject -enddate",
        "openssl crl -in lab/ca/crl.pem -noout -nextupdate -lastupdate",
        "age-keygen -y ~/.config/sops/age/keys.txt",
        "age-keygen -y -o lab/recipient.txt ~/.config/sops/age/keys.txt",
        "gpg --batch --decrypt reports/x.md.asc > /dev/null && echo ok",
        "sops -d secrets/prod.enc.yaml > /dev/null && echo ok",
        "sops -d secrets/prod.enc.yaml >/dev/null 2>&1",
        "sops -d secrets/prod.enc.yaml 2>&1 >/dev/null",
        "pass show -c lab/jenkins-admin",
        "pass show --clip=2 lab/jenkins-admin",
        "pass -c lab/jenkins-admin",
        "ssh-keygen -L -f ~/.ssh/id_ed25519-cert.pub",
        "ssh-keygen -y -f ~/.ssh/id_ed25519",
        "grep -E 'Failed password|Invalid user' /var/log/auth.log | tail -50",
        "trufflehog git file://. --results=verified --json > reports/trufflehog.json",
        "trufflehog git file://lab/repo --json",
        "shred -u lab/tmp/decoded-sample.txt",
        "shred -u tmp/plain.txt",
        "h5dump -d /entry/data -c 10 data/run_0421.h5",
        "h5dump -d /entry/data -o out/run.txt data/run_0421.h5",
        "xmllint --xpath '//issue/severity/text()' reports/burp.xml",
    ],
)
def test_everyday_security_work_is_free(command: str) -> None:
    assert decided(command)[0] in FREE, command


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # Vault: a secret's value, a token
        ("vault kv get secret/x", ("deny", "credential-print-vault")),
        ("vault read secret/x", ("deny", "credential-print-vault")),
        ("vault kv get -mount=secret policy", ("deny", "credential-print-vault-kv")),
        ("vault token create", ("deny", "credential-print")),
        # a key printed, read, or written outside the workspace
        ("openssl genrsa 2048", ("deny", "credential-print-new-key")),
        ("openssl genpkey -algorithm ed25519", ("deny", "credential-print-new-key")),
        (
            "openssl genpkey -algorithm ed25519 -out /dev/stdout",
            ("deny", "credential-print-new-key"),
        ),
        ("openssl genrsa -out new.key 2048 && cat new.key", ("deny", "credential-print-new-key")),
        ("openssl genrsa -out /tmp/x.key 2048", ("deny", "secret-file-read")),
        ("openssl genrsa -out ~/keys/new.key 2048", ("deny", "secret-file-read")),
        ("openssl genpkey -algorithm ed25519 -out ../x.key", ("deny", "secret-file-read")),
        ("openssl rsa -in key.pem", ("deny", "credential-read")),
        ("openssl pkey -in key.pem", ("deny", "credential-read")),
        ("openssl pkcs12 -in x.p12 -nodes", ("deny", "secret-file-read")),
        ("openssl x509 -in lab/x.pem -out lab/y.pem", ("deny", "credential-read")),
        ("openssl x509 -in lab/x.pem -signkey lab/k.pem", ("deny", "credential-read")),
        # an age identity itself
        ("cat ~/.config/sops/age/keys.txt", ("deny", "credential-read")),
        ("age-keygen ~/.config/sops/age/keys.txt", ("deny", "credential-read")),
        ("age-keygen -y -o ~/.bashrc ~/.config/sops/age/keys.txt", ("deny", "persistence-files")),
        # a decryption printed, or written where it is read
        ("sops -d secrets/prod.enc.yaml", ("deny", "credential-decrypt-print")),
        ("sops -d secrets/prod.enc.yaml 2>&1 | head", ("deny", "credential-decrypt-print")),
        ("sops -d secrets/prod.enc.yaml 2>/dev/null", ("deny", "credential-decrypt-print")),
        ("sops -d secrets/prod.enc.yaml > out.yaml", ("deny", "credential-decrypt-print")),
        ("sops -d secrets/prod.enc.yaml >/dev/null 1>&2", ("deny", "credential-decrypt-print")),
        ("sops -d a.yaml >/dev/null; sops -d b.yaml", ("deny", "credential-decrypt-print")),
        ("bash -c 'sops -d a.yaml >/dev/null'", ("deny", "credential-decrypt-print")),
        (
            "gpg --use-embedded-filename -d x.asc > /dev/null",
            ("deny", "credential-decrypt-print"),
        ),
        # a password printed, or copied and read back
        ("pass show x", ("deny", "credential-print-store")),
        ("pass show -c -q x", ("deny", "credential-print-store")),
        ("pass show -c x && xsel -b", ("deny", "credential-print-store")),
        ("gopass show -c x", ("deny", "credential-print-store")),
        # a key changed, a key signed with
        ("ssh-keygen -p -f ~/.ssh/id_ed25519", ("deny", "credential-read")),
        ("ssh-keygen -s ~/ca -L -I id x.pub", ("ask", "write-outside-workspace")),
        ("ssh-keygen -s ~/ca -l -f x.pub", ("ask", "write-outside-workspace")),
        # the home folder searched or scanned for secrets
        ("grep -r password ~", ("deny", "search-home-for-secrets")),
        ("grep -ri token ~/.config", ("deny", "search-home-for-secrets")),
        ("grep -r token /var", ("deny", "search-home-for-secrets")),
        ("grep password /var/log/auth.log ~/.bashrc", ("deny", "search-home-for-secrets")),
        ("trufflehog filesystem ~", ("deny", "secret-scan-home")),
        ("trufflehog git file://..", ("deny", "secret-scan-home")),
        ("trufflehog git file:///home/dev", ("deny", "secret-scan-home")),
        # shreds beyond the workspace's scratch folders
        ("shred -u src/app.py", ("deny", "shred")),
        ("shred -u /tmp/x.txt", ("deny", "shred")),
        ("shred -u ~/tmp/x", ("deny", "shred")),
        ("shred -u lab/tmp/../../src/app.py", ("deny", "shred")),
        ("shred -u lab/tmp/a.txt src/app.py", ("deny", "shred")),
        ('shred -u "$f"', ("deny", "shred")),
        ("srm -r lab/tmp", ("deny", "shred")),
        ("shred -u lab/tmp/x.key", ("ask", "secret-overwrite")),
        # a viewer's output written outside the workspace
        ("h5dump -o ~/.bashrc -d /x data/x.h5", ("deny", "persistence-files")),
        ("h5dump -o ~/out.txt data/x.h5", ("ask", "write-outside-workspace")),
        ("xmllint --output ~/.bashrc --format file.xml", ("deny", "persistence-files")),
    ],
)
def test_their_risky_neighbours_stay_stopped(command: str, expected: tuple[str, str]) -> None:
    assert decided(command) == expected, command


def test_a_key_written_over_is_still_read(tmp_path: Path, pack: Policy) -> None:
    """``openssl genrsa -out K`` makes K anew only when nothing is there: over a key that
    exists it is the key replaced (and read), as today."""
    project = tmp_path / "project"
    write(project / "certs" / "server.key", "-----BEGIN PRIVATE KEY-----\n")
    places = Places.of(project, home=tmp_path / "home")
    for command in ("openssl genrsa -out certs/server.key 2048",
                    "openssl genpkey -algorithm ed25519 -out certs/server.key"):  # fmt: skip
        found = judge({"tool_name": "bash", "tool_input": {"command": command}}, pack, places)
        assert (found.decision, found.rule) == ("deny", "secret-file-read"), command
    fresh = judge({"tool_name": "bash", "tool_input": {
        "command": "openssl genrsa -out certs/new.key 2048"}}, pack, places)  # fmt: skip
    assert fresh.decision in FREE
