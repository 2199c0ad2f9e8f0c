"""A server's configuration check (`guard.configchecks`) only reads the files it is given:
checking ``/etc/haproxy/haproxy.cfg`` is no change of a start-up place. The same program
in a mode that writes or starts, an option the table does not list, or a write the
command line shows stays denied."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.checkers import checks_only
from tests.guard.conftest import decided


@pytest.mark.parametrize(
    "command",
    ["haproxy -c -f /etc/haproxy/haproxy.cfg -f /etc/haproxy/conf.d/",
     "haproxy -c -q -f /etc/haproxy/haproxy.cfg",
     "promtool check rules /etc/prometheus/alerts.yml /etc/prometheus/records.yml",
     "promtool check config --syntax-only /etc/prometheus/prometheus.yml",
     "kong check /etc/kong/kong.conf", "kong config parse /etc/kong/kong.yml --vv",
     "named-checkconf -z /etc/bind/named.conf", "apachectl configtest",
     "apache2ctl -t -f /etc/apache2/apache2.conf", "httpd -t -D DUMP_VHOSTS",
     "nginx -t -c /etc/nginx/nginx.conf", "nginx -t -q -c /etc/nginx/sites-available/app.conf",
     "restic -r /srv/backups/restic dump latest /etc/nginx/nginx.conf"],
)  # fmt: skip
def test_a_configuration_check_of_etc_is_not_a_change(command: str) -> None:
    assert decided(command) == (None, None)


def test_visudo_check_stays_asked_as_user_administration() -> None:
    assert decided("visudo -c -f /etc/sudoers.d/deploy") == ("ask", "user-admin")


@pytest.mark.parametrize(
    "command",
    ["haproxy -f /etc/haproxy/haproxy.cfg -p /etc/haproxy.pid",
     "haproxy -c -f /etc/haproxy/haproxy.cfg -p /etc/haproxy/haproxy.pid",
     "promtool tsdb create-blocks-from rules /etc/prometheus/blocks",
     "kong config db_export /etc/kong/export.yml",
     "kong check /etc/kong/kong.conf > /etc/kong/kong.check",
     "nginx -t -g 'error_log /etc/profile.d/x.sh;' -c /etc/nginx/nginx.conf",
     "restic dump --target /etc/hosts latest /etc/hosts",
     "restic --password-command 'cat /tmp/p' dump latest /etc/hosts",
     "promtool check rules /etc/prometheus/rules.yml | tee /etc/prometheus/out"],
)  # fmt: skip
def test_a_write_the_command_shows_in_etc_stays_denied(command: str) -> None:
    assert decided(command) == ("deny", "persistence-files")


@pytest.mark.parametrize(
    ("program", "args", "only_reads"),
    [("haproxy", ("-c", "-f", "x"), True), ("haproxy", ("-f", "x"), False),
     ("haproxy", ("-c", "-f", "x", "-dW"), False),
     ("promtool", ("check", "rules", "x"), True), ("promtool", ("check", "rules"), False),
     ("promtool", ("check", "rules", "--output", "x"), False),
     ("promtool", ("test", "rules", "x"), False),
     ("kong", ("check", "x"), True), ("kong", ("config", "parse", "x"), True),
     ("kong", ("start", "-c", "x"), False), ("kong", ("check", "--prefix2", "x"), False),
     ("named-checkconf", ("x",), True), ("named-checkconf", ("-Q", "x"), False),
     ("apachectl", ("configtest",), True), ("apachectl", ("graceful",), False),
     ("apachectl", ("-t", "-C", "ErrorLog x"), False),
     ("httpd", ("-t", "-f", "x"), True), ("httpd", ("-f", "x"), False),
     ("httpd", ("-t", "x"), False),
     ("nginx", ("-t", "-c", "x"), True), ("nginx", ("-c", "x"), False),
     ("visudo", ("-cf", "x"), True), ("visudo", ("-f", "x"), False),
     ("restic", ("dump", "latest", "x"), True), ("restic", ("dump", "latest"), False),
     ("restic", ("restore", "latest", "x"), False),
     ("restic", ("-o", "sftp.command=x", "dump", "latest", "x"), False)],
)  # fmt: skip
def test_checks_config_by_mode_and_options(
    program: str, args: tuple[str, ...], only_reads: bool
) -> None:
    assert checks_only(program, args) is only_reads
