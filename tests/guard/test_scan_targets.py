"""Scanners and attack tools aimed at a host outside this machine and the private lab
networks are asked (``scan-external-host``, `guard/scantargets.py`); aimed at loopback,
10/8, 172.16/12, 192.168/16 or a lab name, they stay as they were (no opinion)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.scantargets import external_targets

from .conftest import Judge


@pytest.mark.parametrize(
    "command",
    [
        "nmap -sV -p- 203.0.113.10",
        "nmap -sT scanme.nmap.org",
        "nmap -sV 8.8.8.8 -oX out.xml",
        "nmap -6 2001:db8::1",
        "sqlmap -u 'https://shop.example.com/item?id=1' --batch --dump",
        "sqlmap --url=https://shop.example.com/item?id=1 --batch",
        "nuclei -u https://www.acme.io",
        "gobuster dir -u https://target.example.org -w wordlist.txt",
        "msfconsole -q -x 'use exploit/multi/http/x; set RHOSTS 198.51.100.23; run'",
        "nmap -sV 10.0.0.5 203.0.113.10",  # one lab host does not clear the other
    ],
)
def test_a_scan_of_a_host_outside_the_lab_is_asked(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert (judged.decision, judged.rule) == ("ask", "scan-external-host"), (command, judged)


@pytest.mark.parametrize(
    "command",
    [
        "nmap -sV 127.0.0.1",
        "nmap -p 80 localhost",
        "nmap -sn 192.168.1.0/24",
        "nmap -sV -p 1-65535 -oX out.xml 10.0.0.5",
        "nmap -sn 172.20.0.0/16",
        "nmap --script http-title -p 80 10.0.0.1-20",
        "nmap -sV app.internal",
        "nmap ::1",
        "sqlmap -u 'http://localhost:8080/item?id=1' --batch --dump",
        "nuclei -u http://127.0.0.1:3000 -t cves/",
        "ffuf -u http://10.10.10.5/FUZZ -w common.txt",
        "msfconsole -q -x 'use exploit/x; set RHOSTS 192.168.56.101; set LHOST 203.0.113.9; run'",
        "nmap --dns-servers 8.8.8.8 --exclude 192.168.1.1 192.168.1.0/24",
        "sqlmap -u 'http://127.0.0.1:8000/?id=1' --proxy=http://proxy.example.com:8080",
        "nmap -iL targets.txt",  # a list the guard does not read: no opinion, as before
        "nmap --help",
    ],
)
def test_a_scan_of_the_lab_is_not_asked(verdict: Judge, command: str) -> None:
    assert verdict(command).rule != "scan-external-host", command


def test_the_targets_read() -> None:
    assert external_targets("nmap", ("-sV", "-p", "1-1000", "scanme.nmap.org:22")) == (
        "scanme.nmap.org",
    )
    assert external_targets("nmap", ("192.168.1.*", "172.31.0.0/16")) == ()
    assert external_targets("nmap", ("172.32.0.1",)) == ("172.32.0.1",)  # past 172.16/12
    assert external_targets("nmap", ("192.0.2.7",)) == ("192.0.2.7",)  # documentation
