"""Virtual machines and their hypervisors, backups, codemods, MCP database servers and the
Stripe CLI's live keys: what each rule holds for, and the everyday calls beside it that
stay free (neither asked nor denied)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import decided, tool_decided


@pytest.mark.parametrize(
    ("command", "found"),
    [("qemu-system-x86_64 -m 4G -hda w.qcow2 -vnc 0.0.0.0:0", ("deny", "vm-console-open")),
     ("qemu-system-x86_64 -m 2G -hda t.qcow2 -monitor telnet:0.0.0.0:4444,server,nowait",
      ("deny", "vm-console-open")),
     ("qemu-system-x86_64 -hda d.qcow2 -spice port=5930,addr=0.0.0.0,disable-ticketing=on",
      ("deny", "vm-console-open")),
     ("virt-install --name w --memory 8192 --disk size=80 --graphics vnc,listen=0.0.0.0",
      ("deny", "vm-console-open")),
     ("VBoxManage modifyvm Win10 --vrde on --vrdeauthtype null", ("deny", "vm-console-open-vrde")),
     ("VBoxManage sharedfolder add Kali --name root --hostpath / --automount",
      ("deny", "vm-host-root-shared-word")),
     ('VBoxManage sharedfolder add box --name home --hostpath "$HOME"',
      ("deny", "vm-host-root-shared-word")),
     ("multipass mount / dev:/host", ("deny", "vm-host-root-shared-word")),
     ("qemu-system-x86_64 -drive file=build/d.qcow2 -virtfs local,path=/,mount_tag=h0",
      ("deny", "vm-host-root-shared")),
     ("govc vm.destroy -dc=Prod '/Prod/vm/payments/*'", ("deny", "vm-fleet-wipe")),
     ("govc snapshot.remove -vm prod-api-01 '*'", ("deny", "vm-fleet-wipe")),
     ("govc permissions.set -principal ci@vsphere.local -role Admin -propagate=true /",
      ("deny", "vm-fleet-admin-granted")),
     ("pveum acl modify / --users agent@pve --roles Administrator",
      ("deny", "vm-fleet-admin-granted")),
     ("pvesh set /cluster/firewall/options --enable 0", ("deny", "vm-proxmox-firewall-off-word")),
     ("qm set 101 --net0 virtio,bridge=vmbr0,firewall=0", ("deny", "vm-proxmox-firewall-off")),
     ("virsh pool-delete vmstore", ("deny", "vm-storage-pool-destroy")),
     ("govc vm.power -off -force prod-api-01", ("ask", "vm-fleet-change")),
     ("govc snapshot.revert -vm build-agent-3 golden", ("ask", "vm-fleet-change")),
     ("pveum user delete agent@pve", ("ask", "vm-proxmox-change")),
     ("pveum user token add root@pam ci --privsep 0", ("ask", "vm-proxmox-change")),
     ("qm migrate 120 pve3 --online", ("ask", "vm-proxmox-moved")),
     ("virsh -c qemu+ssh://root@kvm-lab-02/system shutdown jenkins",
      ("ask", "vm-remote-libvirt-change")),
     ("virsh nodedev-detach pci_0000_00_1f_6", ("ask", "vm-host-devices")),
     ("VBoxManage usbfilter add 0 --target Win11 --name all", ("ask", "vm-host-devices")),
     ("virsh dumpxml --security-info win11", ("ask", "vm-secrets-print")),
     ('VBoxManage modifyvm dev --natpf1 "ssh,tcp,,2222,,22"', ("ask", "vm-port-forward-open")),
     ("vagrant share --ssh --name acme-dev", ("ask", "vm-published")),
     ("vagrant box add acme/devbox http://files.example.net/devbox.box --insecure",
      ("ask", "vm-published")),
     ("Restore-VMSnapshot -Name Baseline -VMName SQL01", ("ask", "vm-hyperv-change")),
     ("Get-VM | Stop-VM -TurnOff -Force", ("ask", "vm-hyperv-change"))],
)  # fmt: skip
def test_a_machines_console_host_files_or_hypervisor_are_guarded(
    command: str, found: tuple[str, str]
) -> None:
    assert decided(command) == found


@pytest.mark.parametrize(
    "command",
    ["pvesh get /cluster/resources --type vm --output-format json",
     "govc ls /Lab/vm/dev && govc vm.info -json dev-sandbox-12",
     "govc vm.power -on dev-sandbox-12",
     "qemu-system-x86_64 -m 4G -drive file=build/d.qcow2 -nic user,hostfwd=tcp:127.0.0.1:2222-:22"
     " -vnc 127.0.0.1:0",
     "qemu-system-x86_64 -m 4G -drive file=build/d.qcow2 -nic user,hostfwd=tcp:0.0.0.0:2222-:22",
     "VBoxManage sharedfolder add dev --name src --hostpath ./src",
     'VBoxManage modifyvm dev --natpf1 "ssh,tcp,127.0.0.1,2222,,22"',
     "virsh list --all && virsh dumpxml devbox",
     "virsh -c qemu+ssh://root@kvm-lab-02/system list --all",
     "qm config 151 && qm listsnapshot 151",
     "restic -r /tmp/drill-repo init --insecure-no-password",
     "restic -r s3:http://127.0.0.1:9000/test --insecure-no-password snapshots",
     "borg check --verify-data --last 1 /mnt/backup/borg",
     "velero restore create drill --from-backup prod-daily --namespace-mappings payments:drill",
     "npx jscodeshift -t codemods/rename-import.ts --parser=tsx src/",
     "semgrep --config p/ci .",
     "semgrep --config https://semgrep.dev/c/p/ci .",
     "stripe logs tail",
     "stripe customers list --limit 5",
     "STRIPE_API_KEY=$STRIPE_LIVE_SECRET_KEY stripe customers list --limit 5"],
)  # fmt: skip
def test_everyday_machines_backups_and_codemods_stay_free(command: str) -> None:
    assert decided(command)[0] not in ("deny", "ask")


@pytest.mark.parametrize(
    ("command", "found"),
    [("restic -r s3:s3.amazonaws.com/acme/prod init --insecure-no-password",
      ("ask", "backup-unprotected-elsewhere")),
     ("borg init --encryption=none ssh://backup@nas.internal/./repos/prod",
      ("ask", "backup-unprotected-elsewhere")),
     ("borg check --repair ssh://backup@nas.internal/./repos/prod",
      ("ask", "backup-repaired-or-purged")),
     ("restic -r /mnt/nas/restic/prod repair snapshots --forget",
      ("ask", "backup-repaired-or-purged")),
     ("rclone backend cleanup-hidden b2:acme-offsite", ("ask", "backup-repaired-or-purged")),
     ("velero restore create --from-backup d --existing-resource-policy update",
      ("ask", "backup-restored-over-live")),
     ("npx jscodeshift -t https://gist.githubusercontent.com/x/raw/t.js apps/",
      ("ask", "codemod-from-network")),
     ("semgrep --config https://gist.githubusercontent.com/x/raw/f.yml --autofix .",
      ("ask", "codemod-from-network-autofix")),
     ("STRIPE_API_KEY=$STRIPE_LIVE_SECRET_KEY stripe subscription_schedules release s1",
      ("ask", "payments-live-key")),
     ("stripe refunds create --charge ch_3Pq --api-key sk_live_51Hx",
      ("ask", "payments-live-key-option"))],
)  # fmt: skip
def test_backups_codemods_and_live_payments_are_asked(command: str, found: tuple[str, str]) -> None:
    assert decided(command) == found


@pytest.mark.parametrize(
    ("tool", "given", "found"),
    [("mcp__postgres__execute_sql", {"sql": "UPDATE s SET plan = 'pro' WHERE id = 4411;"},
      ("ask", "database-sql-change-elsewhere")),
     ("mcp__postgres__execute_sql", {"sql": "GRANT SELECT ON ALL TABLES IN SCHEMA public TO v;"},
      ("ask", "database-sql-access-change")),
     ("mcp__postgres__query", {"sql": "DROP TABLE users CASCADE;"},
      ("deny", "database-wipe-elsewhere")),
     ("mcp__postgres__query", {"sql": "SELECT id FROM audit WHERE action ILIKE '%drop table%';"},
      (None, None)),
     ("mcp__sqlite__write_query", {"query": "INSERT INTO notes (body) VALUES ('hello')"},
      (None, None)),
     ("mcp__sqlite__write_query", {"query": "DROP TABLE notes"}, ("ask", "database-wipe")),
     ("mcp__azure_sentinel__run_query", {"query": "SigninLogs | summarize count() by User"},
      (None, None)),
     ("mcp__proxmox__proxmox_stop_vm", {"node": "pve2", "vmid": "210"},
      ("ask", "mcp-tool-takes-offline")),
     ("mcp__proxmox__proxmox_execute_vm_command",
      {"node": "pve1", "vmid": "120", "command": "rm -rf /var/lib/postgresql/16/main"},
      ("deny", "rm-root-or-home")),
     ("mcp__proxmox__proxmox_execute_vm_command",
      {"node": "pve1", "vmid": "151", "command": "uptime && df -h /"}, (None, None)),
     ("Read", {"file_path": "/etc/libvirt/secrets/5b2f0a6e.base64"}, ("deny", "credential-read")),
     ("Write", {"file_path": "/home/dev/project/.github/CODEOWNERS", "content": "* @a/bot\n"},
      ("ask", "codeowners-replaced"))],
)  # fmt: skip
def test_mcp_database_and_hypervisor_servers_and_files(
    tool: str, given: dict[str, Any], found: tuple[str | None, str | None]
) -> None:
    assert tool_decided(tool, given) == found
