"""ssh's security-key and PKCS#11 providers are libraries ssh-keygen, ssh-add and ssh load
with the keys: one from a shared temporary folder (ssh-keygen -w, ssh-add -S/-s/-e, ssh -o
SecurityKeyProvider=, SSH_SK_PROVIDER) is asked or denied; a new key, a key file in /tmp
or an identity given by -i stays free."""

from __future__ import annotations

import pytest

from tests.guard.conftest import decided


@pytest.mark.parametrize(
    ("command", "rule"),
    [("ssh-keygen -t ed25519-sk -w /tmp/libsk.so -f ~/.ssh/project_sk -N ''",
      "ssh-provider-from-tmp"),
     ("ssh-keygen -t ecdsa-sk -w/var/tmp/libsk.so -f /tmp/k", "ssh-provider-from-tmp"),
     ("ssh-add -S /tmp/libsk.so", "ssh-provider-from-tmp-agent"),
     ("ssh-add -s /var/tmp/pkcs11.so", "ssh-provider-from-tmp-agent"),
     ("ssh -o SecurityKeyProvider=/tmp/libsk.so build-host", "ssh-provider-from-tmp-client"),
     ("ssh -oPKCS11Provider=/tmp/p11.so build-host", "ssh-provider-from-tmp-client"),
     ("scp -o 'securitykeyprovider /tmp/x.so' a build-host:", "ssh-provider-from-tmp-client")],
)  # fmt: skip
def test_a_provider_from_a_temporary_folder_is_asked(command: str, rule: str) -> None:
    assert decided(command) == ("ask", rule)


def test_the_provider_variable_from_a_temporary_folder_is_denied() -> None:
    assert decided("SSH_SK_PROVIDER=/tmp/libsk.so ssh build-host")[0] == "deny"


@pytest.mark.parametrize(
    "command",
    [
        "ssh-keygen -t ed25519-sk -f /tmp/k -N ''",
        "ssh-keygen -e -f /tmp/k.pub",
        "ssh-keygen -t ed25519 -N '' -f /tmp/deploy",
    ],
)
def test_a_key_in_a_temporary_folder_is_free(command: str) -> None:
    assert decided(command)[0] is None
