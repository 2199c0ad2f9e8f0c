"""Desktop apps' updates and releases, CI servers, database clusters and Windows
directories: what each rule holds for, and the everyday calls beside it that stay free
(neither asked nor denied)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import decided, edit, tool_decided

_PROJECT = "/home/dev/project"


@pytest.mark.parametrize(
    ("given", "found"),
    [(edit("macos/Acme/Info.plist", "<key>SUPublicEDKey</key>\n<string>pWq3nB8x=</string>", ""),
      ("deny", "updates-unverified")),
     (edit("electron-builder.yml", "  publisherName:\n    - Acme\n",
            "  verifyUpdateCodeSignature: false\n"), ("deny", "updates-unverified")),
     (edit("macos/Acme/Info.plist", "<string>https://updates.acme.io/appcast.xml</string>",
            "<string>http://updates.acme.io/appcast.xml</string>"), ("ask", "releases-weakened")),
     (edit("src/main/updater.ts", "autoUpdater.setFeedURL({ provider: 'github' })",
            "autoUpdater.setFeedURL({ provider: 'generic', url: 'http://198.51.100.23/acme/' })"),
      ("ask", "releases-weakened")),
     (edit("src/main/updater.ts", "autoUpdater.channel = 'latest'",
            "autoUpdater.allowDowngrade = true"), ("ask", "releases-weakened")),
     (edit("packaging/apt/conf/distributions", "SignWith: 9A3F1C2D7E5B8A64", "SignWith: no"),
      ("ask", "releases-weakened")),
     (edit("electron-builder.yml", "win:\n  target: nsis\n",
            "win:\n  target: nsis\n  certificatePassword: \"Acme-EV-2024!sign\"\n"),
      ("ask", "releases-weakened")),
     (edit("build/entitlements.mac.plist", "<key>com.apple.security.cs.allow-jit</key>\n<true/>",
            "<key>com.apple.security.cs.allow-jit</key>\n<true/>\n"
            "<key>com.apple.security.get-task-allow</key>\n<true/>"),
      ("ask", "protection-switched-off")),
     (edit("electron-builder.yml", "publish:\n  provider: s3\n",
            "publish:\n  provider: s3\n  acl: public-read\n"), ("ask", "protection-switched-off")),
     (edit("casc/jenkins.yaml", "  authorizationStrategy:\n    globalMatrix: {}",
            "  authorizationStrategy: unsecured"), ("ask", "protection-switched-off")),
     (edit("infra/bazel-remote/config.yaml",
            "htpasswd_file: /etc/bazel-remote/.htpasswd\ntls_ca_file: /etc/bazel-remote/ca.pem\n",
            "# auth off for local testing\n"), ("ask", "protection-switched-off")),
     (edit("vars/deployProd.groovy",
            "    input message: \"Deploy?\", submitter: 'release-managers'\n    sh './deploy'\n",
            "    sh './deploy'\n"), ("ask", "protection-switched-off")),
     (edit("app/build.gradle.kts", "signingConfigs {",
            "signingConfigs {\n  create(\"release\") { storePassword = \"S3cr3t-Rel!\" }"),
      ("ask", "releases-weakened")),
     # everyday: the debug keystore's known password, the version bumped, the feed kept on
     # https, a key moved within the edit
     (edit("app/build.gradle.kts", "signingConfigs {",
            "signingConfigs {\n  getByName(\"debug\") { storePassword = \"android\" }"),
      (None, None)),
     (edit("electron-builder.yml", "buildVersion: 3.2.0", "buildVersion: 3.2.1"),
      ("allow", "edit-workspace")),
     (edit("macos/Acme/Info.plist", "<string>https://updates.acme.io/appcast.xml</string>",
            "<string>https://updates.acme.io/beta/appcast.xml</string>"),
      ("allow", "edit-workspace")),
     (edit("infra/bazel-remote/config.yaml", "htpasswd_file: /etc/a/.htpasswd\nport: 8080",
            "htpasswd_file: /etc/b/.htpasswd\nport: 9090"), (None, None))],
)  # fmt: skip
def test_what_updates_releases_and_services_are_trusted_by(
    given: dict[str, Any], found: tuple[str | None, str | None]
) -> None:
    assert tool_decided("Edit", given) == found


def test_a_build_plist_of_entitlements_written_whole_is_its_first_writing() -> None:
    text = ("<plist><dict><key>com.apple.security.cs.allow-jit</key><true/>"
            "<key>com.apple.security.cs.disable-library-validation</key><true/>"
            "</dict></plist>")  # fmt: skip
    given = {"file_path": f"{_PROJECT}/build/entitlements.mac.plist", "content": text}
    assert tool_decided("Write", given)[0] not in ("deny", "ask")
    named = {"file_path": f"{_PROJECT}/App/App.entitlements", "content": text}
    assert tool_decided("Write", named) == ("ask", "protection-switched-off")


@pytest.mark.parametrize(
    ("command", "found"),
    [("drone repo update --trusted acme/api", ("ask", "ci-server-change")),
     ("drone secret rm --repository acme/api --name kube_token", ("ask", "ci-server-change")),
     ("woodpecker-cli repo rm acme/api", ("ask", "ci-server-change")),
     ("curl -s -X POST -F token=$T -F ref=main https://gitlab.acme.io/api/v4/projects/88/trigger/pipeline",
      ("ask", "ci-pipeline-triggered")),
     ("curl -X POST -u a:$T https://ci.acme.io/job/deploy-prod/buildWithParameters?ENV=prod",
      ("ask", "jenkins-http-change")),
     ("orchestrator-client -c force-master-failover -alias orders-prod",
      ("ask", "db-cluster-topology-change")),
     ("mysqlsh --js --uri admin@db1:3306 -e 'dba.getCluster().dissolve({force: true})'",
      ("ask", "db-cluster-topology-change")),
     ("pt-table-sync --execute --sync-to-master h=db-replica-2,D=orders,t=payments",
      ("ask", "db-cluster-topology-change")),
     ("redis-cli --cluster fix redis-c1:6379 --cluster-yes", ("ask", "db-cluster-topology-change")),
     ("repmgr standby promote", ("ask", "db-cluster-topology-change")),
     ("jf rt repo-delete libs-release-local --quiet", ("deny", "artifact-repository-deleted")),
     ("aptly repo drop -force acme-main", ("ask", "package-store-dropped")),
     ("snapcraft unregister acme", ("ask", "package-store-dropped")),
     ("samba-tool user delete jdoe -H ldap://dc01", ("ask", "directory-change-samba"))],
)  # fmt: skip
def test_ci_servers_database_clusters_and_stores_are_guarded(
    command: str, found: tuple[str, str]
) -> None:
    assert decided(command) == found


@pytest.mark.parametrize(
    "command",
    ["drone repo ls",
     "drone build info acme/api 12",
     "orchestrator-client -c topology -alias orders-prod",
     "pt-table-sync --print --sync-to-master h=db-replica-2,D=orders,t=payments",
     "redis-cli --cluster check redis-c1:6379",
     "repmgr cluster show",
     "aptly repo list",
     "samba-tool user list",
     "jf rt dl libs-release-local/acme/ --flat"],
)  # fmt: skip
def test_everyday_ci_database_and_directory_calls_stay_free(command: str) -> None:
    assert decided(command)[0] not in ("deny", "ask")


@pytest.mark.parametrize(
    ("tool", "given", "found"),
    [("mcp__lokka__Lokka-Microsoft",
      {"apiType": "graph", "method": "post", "path": "/roleManagement/directory/roleAssignments",
       "body": {"principalId": "8c7e"}}, ("ask", "http-change-signed-in")),
     ("mcp__lokka__Lokka-Microsoft", {"apiType": "graph", "method": "delete",
                                      "path": "/groups/9a8b"}, ("ask", "http-delete")),
     ("mcp__lokka__Lokka-Microsoft",
      {"apiType": "azure", "method": "put", "subscriptionId": "c0",
       "path": "/subscriptions/c0/providers/Microsoft.Authorization/roleAssignments/7f",
       "apiVersion": "2022-04-01", "body": {}}, ("ask", "http-change-signed-in")),
     ("mcp__lokka__Lokka-Microsoft", {"apiType": "graph", "method": "get", "path": "/users",
                                      "queryParams": {"$top": "5"}}, (None, None)),
     ("Read", {"file_path": "/var/lib/jenkins/secrets/hudson.util.Secret"},
      ("deny", "credential-read")),
     ("Read", {"file_path": "/mnt/c/Windows/Panther/Unattend.xml"}, ("deny", "credential-read")),
     ("read_file", {"path": f"{_PROJECT}/reports/laps-export.csv"}, ("deny", "env-file-print"))],
)  # fmt: skip
def test_a_tenants_api_server_and_windows_secrets(
    tool: str, given: dict[str, Any], found: tuple[str | None, str | None]
) -> None:
    assert tool_decided(tool, given) == found
