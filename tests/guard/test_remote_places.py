"""A copy into another machine's system folders (`guard.remoteplaces`) is asked, as a
command run there is; a download from there, or a copy to a deploy folder, is not."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.remoteplaces import remote_system_destination
from tests.guard.conftest import decided


@pytest.mark.parametrize(
    "command",
    ["scp deploy/nginx.conf admin@web1.example.com:/etc/nginx/sites-enabled/",
     "scp -P 2222 build/agent root@10.0.0.7:/usr/local/bin/agent",
     "scp -r dist/lib ops@10.0.0.7:/usr/lib/acme/",
     "scp units/app.service root@web1:/lib/systemd/system/",
     "rsync -avz config/ root@web1.example.com:/etc/acme/",
     "rsync -a --chmod=755 bin/ root@web1.example.com:/usr/local/sbin/",
     "scp db.sqlite ops@db1:/var/lib/acme/", "scp -r out root@web1:/"],
)  # fmt: skip
def test_a_copy_into_a_remote_system_folder_is_asked(command: str) -> None:
    assert decided(command) == ("ask", "remote-system-files")


@pytest.mark.parametrize(
    "command",
    ["scp dist/site.tar.gz deploy@web1.example.com:/srv/releases/",
     "scp report.csv analyst@10.0.0.9:", "scp report.csv analyst@10.0.0.9:reports/",
     "scp admin@web1.example.com:/etc/nginx/nginx.conf ./deploy/",
     "rsync -avz build/ deploy@web1.example.com:/var/www/site/",
     "rsync -avz deploy@web1.example.com:/etc/acme/ ./config-backup/"],
)  # fmt: skip
def test_a_deploy_copy_or_a_download_is_not(command: str) -> None:
    assert decided(command)[1] != "remote-system-files"


@pytest.mark.parametrize(
    ("program", "args", "found"),
    [("scp", ("f", "h:/etc/"), "h:/etc/"), ("scp", ("f", "u@h:/etc/x/../y"), "u@h:/etc/x/../y"),
     ("scp", ("f", "h:/etc/../srv/x"), None), ("scp", ("f", "h:/etcetera/x"), None),
     ("scp", ("h:/etc/x", "."), None),
     ("scp", ("-P", "22", "f", "[::1]:/usr/bin/"), "[::1]:/usr/bin/"),
     ("scp", ("f",), None), ("rsync", ("-a", "x", "h::module/etc"), None),
     ("rsync", ("-a", "x", "rsync://h/etc"), None),
     ("rsync", ("-e", "ssh -p 2", "x", "h:/"), "h:/"),
     ("cp", ("f", "h:/etc/"), None)],
)  # fmt: skip
def test_remote_system_destination(program: str, args: tuple[str, ...], found: str | None) -> None:
    assert remote_system_destination(program, args) == found
