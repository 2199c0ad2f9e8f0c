"""`amplifier-hooks serve` as a real process: what it says at start, the token it makes,
refusing a public address, and a clean stop on a real SIGTERM -- the call in flight
answered, every session's modules cleaned up."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import ssl
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

import pytest

from tests.transports.processes import COMMAND, WAIT
from tests.transports.support import TOKEN, Gate, bash, decision, gate_hooks, write_bundle


class Served:
    def __init__(self, process: subprocess.Popen[str], url: str, said: list[str]) -> None:
        self.process = process
        self.url = url
        self.said = said

    @property
    def stderr(self) -> IO[str]:
        assert self.process.stderr is not None
        return self.process.stderr

    def read_until(self, text: str) -> str:
        """Read stderr lines until one contains ``text`` (the server says it)."""
        for line in self.stderr:
            self.said.append(line)
            if text in line:
                return line
        raise AssertionError(f"the server never said {text!r}: {''.join(self.said)}")

    def post(self, path: str, payload: Any, token: str = TOKEN) -> tuple[int, Any]:
        parts = urlsplit(self.url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=WAIT)
        try:
            body = json.dumps(payload)
            headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
            connection.request("POST", path, body, headers)
            response = connection.getresponse()
            data = response.read()
            if response.getheader("Content-Type", "").startswith("application/json"):
                return response.status, json.loads(data)
            return response.status, data.decode()
        finally:
            connection.close()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    started: list[subprocess.Popen[str]] = []

    def start(bundle: Path, *extra: str, env: dict[str, str] | None = None) -> Served:
        environment = env or {**os.environ, "AMPLIFIER_HOOKS_TOKEN": TOKEN}
        process = subprocess.Popen(
            [COMMAND, "serve", "--bundle", str(bundle), "--port", "0", *extra],
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            env=environment,
        )
        started.append(process)
        served = Served(process, "", [])
        line = served.read_until("listening on ")
        served.url = line.split()[2].rstrip(":")
        return served

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait(WAIT)
        if process.stderr is not None:
            process.stderr.close()


def test_sigterm_answers_the_call_in_flight_and_cleans_every_session(
    serve: Any, tmp_path: Path
) -> None:
    gate, record = Gate(tmp_path / "gate"), tmp_path / "record"
    served = serve(write_bundle(tmp_path, gate_hooks(gate.directory, record)), "-v")
    assert served.post("/claude-code", bash("ls", session="other")) == (200, {})
    with ThreadPoolExecutor(1) as pool:
        held = pool.submit(served.post, "/claude-code", bash("hold", session="held"))
        gate.wait_entered()
        served.process.send_signal(signal.SIGTERM)
        served.read_until("server stopping")  # the signal is in, the call still held
        gate.release()
        status, body = held.result(WAIT)
    assert (status, decision(body)) == (200, ("deny", "held, then denied"))
    assert served.process.wait(WAIT) == 0
    rest = served.stderr.read()
    assert "amplifier-hooks serve: stopped" in rest
    assert record.read_text() == "cleanup\n" * 2  # both sessions' modules cleaned up


def test_a_generated_token_is_kept_private_and_never_printed(serve: Any, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "AMPLIFIER_HOOKS_TOKEN"}
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    bundle = write_bundle(tmp_path, gate_hooks(tmp_path, tmp_path / "record"))
    served = serve(bundle, env=env)
    kept = tmp_path / "state" / "amplifier-hooks" / "token"
    served.read_until(f"token: generated now and kept in {kept} (only you can read it)")
    served.read_until("wire Claude Code to it")
    install = served.read_until("amplifier-hooks claude-code install")
    assert install.split() == [
        "amplifier-hooks",
        "claude-code",
        "install",
        "--bundle",
        str(bundle),
        "--url",
        f"{served.url}/claude-code",
    ]
    served.read_until(f'AMPLIFIER_HOOKS_TOKEN="$(cat {kept})" claude')
    token = kept.read_text().strip()
    assert os.stat(kept).st_mode & 0o777 == 0o600
    assert token not in "".join(served.said)
    assert served.post("/claude-code", bash("rm x"), token=token)[0] == 200
    assert served.post("/claude-code", bash("rm x"), token="n" * 32) == (
        401,
        "missing or wrong token\n",
    )
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(WAIT) == 0


def test_a_public_address_needs_allow_remote(tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, gate_hooks(tmp_path, tmp_path / "record"))
    done = subprocess.run(
        [COMMAND, "serve", "--bundle", str(bundle), "--host", "0.0.0.0", "--port", "0"],
        capture_output=True,
        text=True,
        env={**os.environ, "AMPLIFIER_HOOKS_TOKEN": TOKEN},
        timeout=WAIT * 2,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "error: 0.0.0.0 is reachable from other machines; this server listens on loopback "
        "(127.0.0.1) unless you pass --allow-remote\n"
    )


def test_a_bundle_that_does_not_load_stops_serve_before_listening(tmp_path: Path) -> None:
    bundle = tmp_path / "broken.yaml"
    bundle.write_text("hooks: [this is not a bundle")
    done = subprocess.run(
        [COMMAND, "serve", "--bundle", str(bundle), "--port", "0"],
        capture_output=True,
        text=True,
        env={**os.environ, "AMPLIFIER_HOOKS_TOKEN": TOKEN},
        timeout=WAIT * 2,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {bundle}")
    assert "listening" not in done.stderr


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl to make a cert")
def test_with_a_certificate_it_speaks_https(serve: Any, tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    making = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    names = ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
    subprocess.run(
        [*making, *names, "-keyout", str(key), "-out", str(cert)],
        capture_output=True,
        check=True,
        timeout=WAIT,
    )
    bundle = write_bundle(tmp_path, gate_hooks(tmp_path, tmp_path / "record"))
    served = serve(bundle, "--certfile", str(cert), "--keyfile", str(key))
    assert served.url.startswith("https://127.0.0.1:")
    parts = urlsplit(served.url)
    context = ssl.create_default_context(cafile=str(cert))
    connection = http.client.HTTPSConnection(
        parts.hostname, parts.port, context=context, timeout=WAIT
    )
    try:
        headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
        connection.request("POST", "/claude-code", json.dumps(bash("rm x")), headers)
        body = json.loads(connection.getresponse().read())
    finally:
        connection.close()
    assert decision(body) == ("deny", "rm is not allowed here")
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(WAIT) == 0
