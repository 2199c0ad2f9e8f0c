"""A directory's and tenant's administration from PowerShell (`guard.psadmin`): a change is
asked, mail forwarded to a public mailbox and a protection switched off are denied, looks
and -WhatIf stay free."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.psadmin import is_admin_cmdlet
from tests.guard.conftest import decided

STOPPED = [
    ("Set-ADUser -Identity jdoe -Title 'Senior Engineer'", "ask", "directory-change"),
    ("Add-ADGroupMember -Identity 'Domain Admins' -Members jdoe", "ask", "directory-change"),
    ("Update-MgUser -UserId jdoe@contoso.com -AccountEnabled:$false", "ask", "directory-change"),
    ("Remove-TransportRule -Identity 'Block exe' -Confirm:$false", "ask", "directory-change"),
    ("Set-SPOTenant -SharingCapability ExternalUserAndGuestSharing", "ask", "directory-change"),
    ("Remove-GPO -Name 'Legacy Drive Maps' -Confirm:$false", "ask", "directory-change"),
    ("Restart-Computer -ComputerName DC01 -Force", "ask", "directory-change"),
    ("New-InboxRule -Mailbox jdoe@contoso.com -Name f -ForwardTo boss@contoso.com", "ask",
     "directory-change"),
    ("New-InboxRule -Mailbox cfo@contoso.com -Name s -ForwardTo 'x.cfo@protonmail.com'", "deny",
     "directory-mail-forward-out"),
    ("Set-Mailbox -Identity ceo@contoso.com -ForwardingSmtpAddress smtp:ceo@outlook.com", "deny",
     "directory-mail-forward-out"),
    ("New-TransportRule -Name c -BlindCopyTo 'copy@gmail.com' -FromScope InOrganization", "deny",
     "directory-mail-forward-out"),
    ("Set-AdminAuditLogConfig -UnifiedAuditLogIngestionEnabled $false", "deny",
     "tenant-protection-off"),
    ("Update-MgPolicyIdentitySecurityDefaultEnforcementPolicy -IsEnabled:$false", "deny",
     "tenant-protection-off"),
    ("Set-ADDefaultDomainPasswordPolicy -Identity contoso.com -LockoutThreshold 0", "deny",
     "tenant-protection-off"),
    ("Set-ADDefaultDomainPasswordPolicy -Identity contoso.com -MinPasswordLength 4", "deny",
     "tenant-protection-off"),
    ("Set-HostedContentFilterPolicy -Identity Default -SpamZapEnabled $false", "deny",
     "tenant-protection-off"),
    ("Get-LapsADPassword -Identity WS-0142 -AsPlainText", "deny", "directory-password-print"),
    ("Get-ADComputer WS-0142 -Properties ms-Mcs-AdmPwd", "deny",
     "directory-password-print-attribute"),
    ("auditpol /clear /y", "deny", "windows-audit-off"),
    ("Disable-BitLocker -MountPoint C:", "deny", "windows-bitlocker-off"),
]  # fmt: skip
FREE = [
    "Get-ADUser -Identity jdoe -Properties MemberOf",
    "Disable-ADAccount -Identity jdoe -WhatIf",
    "Get-Mailbox -Identity jdoe@contoso.com | Format-List ForwardingSmtpAddress",
    "Set-ADDefaultDomainPasswordPolicy -Identity contoso.com -MinPasswordLength 14 -WhatIf",
    "Get-AdminAuditLogConfig",
    "repadmin /replsummary",
    "dcdiag /s:DC01 /q",
]


@pytest.mark.parametrize(("command", "decision", "rule"), STOPPED)
def test_stopped(command: str, decision: str, rule: str) -> None:
    assert decided(command, "PowerShell") == (decision, rule)


@pytest.mark.parametrize("command", FREE)
def test_everyday_stays_free(command: str) -> None:
    assert decided(command, "PowerShell")[0] not in ("deny", "ask")


@pytest.mark.parametrize(
    ("program", "admin"),
    [("set-aduser", True), ("remove-mggroup", True), ("set-mailbox", True),
     ("get-aduser", False), ("import-csv", False), ("update-alternatives", False),
     ("set-location", False), ("ssh-keygen", False), ("new-item", False)],
)  # fmt: skip
def test_a_changing_verb_on_an_administration_noun_is_an_admin_cmdlet(
    program: str, admin: bool
) -> None:
    assert is_admin_cmdlet(program) is admin
