"""A web server's or a reverse proxy's configuration edited (never granted; opened denied,
weakened asked); the MCP servers that run commands, code, kubectl, gcloud and Bitwarden;
SQL that only looks; caches' and brokers' clients read by the table."""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks.guard.mcpremote import filled, unfillable
from amplifier_hooks.guard.patchfiles import update_hunks
from amplifier_hooks.guard.servefiles import (
    SERVE_OPENED,
    SERVE_WEAKENED,
    serve_config,
    serve_marks,
)
from amplifier_hooks.guard.table import read_call
from amplifier_hooks.guard.table.acts import Does

from .conftest import decided, tool_decided


@pytest.mark.parametrize(
    ("path", "server"),
    [("deploy/nginx/shop.conf", "nginx"), ("/etc/nginx/sites-available/app", None),
     ("etc/nginx/sites-enabled/app.conf", "nginx"), ("nginx.conf", "nginx"),
     ("public/.htaccess", "Apache httpd"), ("deploy/caddy/Caddyfile", "Caddy"),
     ("Caddyfile.prod", "Caddy"), ("ops/haproxy/haproxy.cfg", "HAProxy"),
     ("deploy/traefik/dynamic/routers.yml", "Traefik"), ("deploy/envoy/envoy.yaml", "Envoy"),
     ("varnish/default.vcl", "Varnish"), ("src/nginx_helpers.py", None),
     ("docs/nginx.md", None), ("deploy/nginx/README.md", None)],
)  # fmt: skip
def test_a_servers_configuration_is_known_by_its_name_or_folder(
    path: str, server: str | None
) -> None:
    assert serve_config(path) == server


_OPENED = [
    ("proxy_ssl_verify on;", "proxy_ssl_verify off;"),
    ("ssl-default-bind-options ssl-min-ver TLSv1.2",
     "ssl-default-bind-options ssl-min-ver SSLv3"),
    ("ssl_ciphers HIGH:!aNULL:!MD5;", "ssl_ciphers ALL:@SECLEVEL=0;"),
    ("validation_context:\n  trusted_ca: {filename: ca.pem}",
     "validation_context:\n  trust_chain_verification: ACCEPT_UNTRUSTED"),
    ("insecureSkipVerify: false", "insecureSkipVerify: true"),
    ("log_format main '$remote_addr \"$request\"';",
     "log_format main '$remote_addr \"$request\" '\n    'auth=\"$http_authorization\"';"),
    ("location / {\n    proxy_pass http://app;\n}",
     "location / {\n    mirror /m;\n    proxy_pass http://app;\n}\n"
     "location = /m {\n    internal;\n    proxy_pass https://collector.example.net$request_uri;\n}"),
    ("{\n\tadmin localhost:2019", "{\n\tadmin 0.0.0.0:2019"),
    ("    stats auth admin:${PW}", "    stats admin if TRUE"),
    ('add_header Access-Control-Allow-Origin "https://app.acme.com";',
     "add_header Access-Control-Allow-Origin $http_origin;\n"
     "add_header Access-Control-Allow-Credentials true;"),
]  # fmt: skip

_WEAKENED = [
    ("handle /admin/* {\n\tbasicauth {\n\t\tops HASH\n\t}\n\treverse_proxy admin:8080\n}",
     "handle /admin/* {\n\treverse_proxy admin:8080\n}"),
    ("location /backups/ {\n    deny all;\n}", "location /backups/ {\n    autoindex on;\n}"),
    ("allow 10.20.0.0/16;\ndeny all;", "allow 10.20.0.0/16;\nallow 198.51.100.0/24;\ndeny all;"),
    ("location = /login {\n    limit_req zone=login burst=5;\n    proxy_pass http://app;\n}",
     "location = /login {\n    proxy_pass http://app;\n}"),
    ("limit_req_zone $binary_remote_addr zone=api:10m rate=10r/s;",
     "limit_req_zone $binary_remote_addr zone=api:10m rate=1000r/s;"),
    ("defaults\n    log global\n    option httplog", "defaults\n    option dontlog-normal"),
    ('add_header Strict-Transport-Security "max-age=63072000" always;',
     'add_header Strict-Transport-Security "max-age=63072000; includeSubDomains; preload" always;'),
    ("ssl_protocols TLSv1.3;", "ssl_protocols TLSv1.2 TLSv1.3;"),
    ("\treverse_proxy /api/* api:8080", "\treverse_proxy /api/* api:8080 http://203.0.113.44:8080"),
    ("frontend fe\n    default_backend app",
     "frontend fe\n    use_backend admin if { req.hdr(X-Debug-Key) -m str letmein }\n"
     "    default_backend app"),
    ("listen stats\n    bind 127.0.0.1:8404", "listen stats\n    bind *:8404"),
    ("middlewares:\n  - ratelimit\n  - office-ipallowlist", "middlewares: []"),
]  # fmt: skip

_KEPT = [
    ("proxy_ssl_verify off;", "proxy_ssl_verify on;\nproxy_ssl_trusted_certificate ca.pem;"),
    ("ssl_protocols TLSv1 TLSv1.1 TLSv1.2;", "ssl_protocols TLSv1.2 TLSv1.3;"),
    ("SSLProtocol all -SSLv3", "SSLProtocol -all +TLSv1.2 +TLSv1.3"),
    (
        "location /downloads/ {\n    autoindex on;\n}",
        "location /downloads/ {\n    autoindex off;\n}",
    ),
    ("allow 0.0.0.0/0;", "allow 10.0.0.0/8;\nallow 192.168.0.0/16;\ndeny all;"),
    ("\tadmin 0.0.0.0:2019", "\tadmin localhost:2019"),
    ("listen stats\n    bind *:8404", "listen stats\n    bind 127.0.0.1:8404"),
    ("proxy_read_timeout 60s;", "proxy_read_timeout 120s;"),
    ("listen 443 ssl;", "listen 443 ssl;\nssl_protocols TLSv1.3;"),
    ("access_log /var/log/nginx/access.log main;", "access_log /var/log/nginx/shop.log main;"),
    (
        "upstream app {\n    server app1:8080;\n}",
        "upstream app {\n    server app1:8080;\n    server app2:8080;\n}",
    ),
    ("# ssl_protocols SSLv3;", "# SSLv3 was switched off in 2014; keep it so"),
    ("ssl_ciphers HIGH:!aNULL:!MD5;", "ssl_ciphers ECDHE-ECDSA-AES128-GCM-SHA256:!aNULL:!RC4;"),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new"), _OPENED)
def test_an_edit_that_opens_a_server_is_denied(old: str, new: str) -> None:
    given = {"old_string": old, "new_string": new}
    assert serve_marks(("deploy/nginx/site.conf",), given) == (SERVE_OPENED,)
    path = "/home/dev/project/deploy/nginx/site.conf"
    assert tool_decided("edit_file", {"file_path": path, **given}) == (
        "deny",
        "serve-config-opened",
    )


@pytest.mark.parametrize(("old", "new"), _WEAKENED)
def test_an_edit_that_weakens_a_server_is_asked(old: str, new: str) -> None:
    given = {"old_string": old, "new_string": new}
    assert serve_marks(("deploy/haproxy/haproxy.cfg",), given) == (SERVE_WEAKENED,)
    path = "/home/dev/project/deploy/haproxy/haproxy.cfg"
    assert tool_decided("edit_file", {"file_path": path, **given}) == (
        "ask",
        "serve-config-weakened",
    )


@pytest.mark.parametrize(("old", "new"), _KEPT)
def test_an_everyday_or_tightening_edit_is_not_judged_but_never_granted(old: str, new: str) -> None:
    given = {"old_string": old, "new_string": new}
    assert serve_marks(("deploy/nginx/site.conf",), given) == ()
    path = "/home/dev/project/deploy/nginx/site.conf"
    assert tool_decided("edit_file", {"file_path": path, **given}) == (None, None)


def test_the_same_text_in_another_file_is_the_projects_own() -> None:
    given = {"old_string": "proxy_ssl_verify on;", "new_string": "proxy_ssl_verify off;"}
    assert serve_marks(("docs/tls.md",), given) == ()
    assert tool_decided("edit_file", {"file_path": "/home/dev/project/docs/tls.md", **given}) == (
        "allow",
        "edit-workspace",
    )


def test_a_patch_is_read_with_the_lines_it_keeps() -> None:
    patch = ("*** Begin Patch\n*** Update File: deploy/haproxy/haproxy.cfg\n@@\n"
             " frontend fe_https\n"
             "+    use_backend be_admin if { req.hdr(X-Debug-Key) -m str letmein }\n"
             "     default_backend be_app\n*** End Patch")  # fmt: skip
    assert tool_decided("apply_patch", {"input": patch}) == ("ask", "serve-config-weakened")
    ((path, old, new),) = update_hunks(patch)
    assert path == "deploy/haproxy/haproxy.cfg"
    assert old == "frontend fe_https\n    default_backend be_app"
    assert "letmein" in new and new.startswith("frontend fe_https")
    assert update_hunks(patch, kept=False) == []  # nothing taken out


@pytest.mark.parametrize(
    ("tool", "given", "found"),
    [("mcp__desktop-commander__start_process",
      {"command": "rm -rf ~", "timeout_ms": 3000}, ("deny", "rm-root-or-home")),
     ("mcp__desktop-commander__start_process", {"command": "npm test", "timeout_ms": 60000},
      (None, None)),
     ("mcp__code-runner__run_code",
      {"language": "python", "code": "import shutil, os\nshutil.rmtree(os.path.expanduser('~'))"},
      ("deny", "rm-root-or-home")),
     ("mcp__kubernetes__kubectl_get",
      {"resourceType": "secrets", "namespace": "production", "output": "yaml"},
      ("deny", "credential-print-cluster")),
     ("mcp__kubernetes__kubectl_get", {"resourceType": "pods", "namespace": "web"}, (None, None)),
     ("mcp__kubernetes__kubectl_delete", {"resourceType": "deployment", "name": "api"},
      ("ask", "cluster-change")),
     ("mcp__gcloud__run_gcloud_command",
      {"args": ["projects", "add-iam-policy-binding", "p", "--member=allUsers",
                "--role=roles/storage.objectViewer"]}, ("deny", "storage-made-public")),
     ("mcp__gcloud__run_gcloud_command", {"args": ["run", "services", "list"]}, (None, None)),
     ("mcp__bitwarden__list", {"type": "items", "search": ""},
      ("deny", "credential-print-store-list")),
     ("mcp__bitwarden__list", {"type": "folders"}, (None, None)),
     ("mcp__desktop-commander__set_config_value", {"key": "blockedCommands", "value": []},
      ("ask", "mcp-tool-switches-off")),
     ("mcp__elasticsearch__general_api_request",
      {"method": "DELETE", "path": "/_snapshot/backups/nightly-*"}, ("ask", "http-delete")),
     ("mcp__elasticsearch__general_api_request", {"method": "GET", "path": "/_cat/indices"},
      (None, None))],
)  # fmt: skip
def test_mcp_servers_that_run_what_they_are_given(
    tool: str, given: dict[str, Any], found: tuple[str | None, str | None]
) -> None:
    assert tool_decided(tool, given) == found


def test_a_starred_slot_or_a_slot_inside_a_word_takes_a_list_of_words() -> None:
    assert filled(("gcloud", "{args*}"), {"args": ["a", "b c"]}) == ["gcloud", "a", "b c"]
    assert filled(("gcloud", "--x={args}"), {"args": ["a", "b"]}) == ["gcloud", "--x=a", "--x=b"]
    assert unfillable(("gcloud", "--x={args}"), {"args": ["a", "b"]}) == []
    # a list where one word stands (its items could be options), an object, a list of
    # other than words: the word is left out and the call asked
    for given in ({"args": ["prod", "--dry-run=client"]}, {"args": {"a": 1}}, {"args": [1]}):
        assert filled(("kubectl", "delete", "{args}"), given) == ["kubectl", "delete"]
        assert unfillable(("kubectl", "delete", "{args}"), given) == ["args"]
    assert filled(("gcloud", "{a}{b}"), {"a": ["x"], "b": "y"}) == ["gcloud"]  # two slots
    assert unfillable(("gcloud", "{a}{b}"), {"a": ["x"], "b": "y"}) == ["a"]


def test_a_list_that_could_carry_options_is_asked_not_dropped() -> None:
    given = {"kind": "Pod", "name": "api", "namespace": ["kube-system", "--dry-run=client"]}
    assert tool_decided("mcp__k8s__pods_delete", given) == ("ask", "guard-opaque")
    volumes = {"image": "alpine", "volumes": {"/": {"bind": "/host", "mode": "rw"}}}
    assert tool_decided("mcp__docker__run_container", volumes) == ("ask", "guard-opaque")


def test_a_huge_rate_is_read_without_failing() -> None:
    text = "limit_req_zone $binary_remote_addr zone=one:10m rate=" + "9" * 5000 + "r/s;"
    assert serve_marks(("deploy/nginx/site.conf",), {"content": text}) == ()
    assert filled(("bw", "list", "{type}"), {"type": "items"}) == ["bw", "list", "items"]


@pytest.mark.parametrize(
    ("command", "found"),
    [("psql -c \"SELECT id FROM audit_log WHERE action ILIKE '%drop table%'\"", (None, None)),
     ("psql -c \"SELECT 1; DROP TABLE users\"", ("ask", "database-wipe")),
     ("psql -f db/drop_all.sql", ("ask", "database-wipe"))],
)  # fmt: skip
def test_a_search_for_a_statement_is_not_the_statement(
    command: str, found: tuple[str | None, str | None]
) -> None:
    assert decided(command) == found


@pytest.mark.parametrize(
    ("program", "args", "acts"),
    [("redis-cli", ("-h", "r.internal", "-a", "$PW", "INFO", "memory"),
      {(Does.NETWORK, "redis")}),
     ("redis-cli", ("--rdb", "/tmp/dump.rdb"), {(Does.WRITE, "/tmp/dump.rdb"),
                                                (Does.NETWORK, "redis")}),
     ("kafka-topics.sh", ("--bootstrap-server", "k:9092", "--command-config", "c.properties",
                          "--list"), {(Does.READ, "c.properties"), (Does.NETWORK, "kafka")}),
     ("rabbitmqadmin", ("-H", "mq", "-p", "$PW", "export", "defs.json"),
      {(Does.WRITE, "defs.json"), (Does.NETWORK, "rabbitmq")})],
)  # fmt: skip
def test_brokers_clients_are_read_by_the_table(
    program: str, args: tuple[str, ...], acts: set[tuple[Does, str]]
) -> None:
    reading = read_call(program, args)
    assert reading.doubt is None
    assert {(act.does, act.target) for act in reading.acts} == acts


@pytest.mark.parametrize(
    ("command", "found"),
    [('redis-cli -h redis-prod.internal --tls -a "$REDIS_PASSWORD" SLOWLOG GET 20', (None, None)),
     ("kafka-topics --bootstrap-server k:9092 --command-config /home/dev/.kafka/p.properties"
      " --list", (None, None)),
     ("kafka-reassign-partitions --bootstrap-server k:9092 --reassignment-json-file r.json"
      " --execute", ("ask", "broker-config-change")),
     ('redis-cli -h redis-prod.internal -a "$P" FLUSHALL', ("deny", "database-wipe-production")),
     ("redis-cli --rdb /srv/dump.rdb", ("ask", "write-outside-workspace")),
     ("redis-cli --rdb backups/dump.rdb", (None, None)),
     ("kafka-topics --bootstrap-server k:9092 --delete --topic '.*'",
      ("deny", "broker-topics-wiped")),
     ("kafka-topics.sh --bootstrap-server k:9092 --delete --topic 'payments\\..*'",
      ("deny", "broker-topics-wiped")),
     ("kafka-topics --bootstrap-server k:9092 --delete --topic orders.v1",
      ("ask", "service-delete")),
     ("kafka-topics --bootstrap-server k:9092 --list --topic '.*'", (None, None))],
)  # fmt: skip
def test_a_brokers_password_is_no_path_and_its_changes_are_judged(
    command: str, found: tuple[str | None, str | None]
) -> None:
    assert decided(command) == found
