"""What waking a reader costs on this machine, apart from any code of ours.

Run from the repository root::

    .venv/bin/python -m benchmarks.wakeprobe

A loopback TCP ping-pong between two processes, the sizes of a hook call (456 bytes in,
160 out): the answering side busy-waits ``D`` µs before it answers, the asking side
either blocks in ``recv`` (as an HTTP client does) or spins on a non-blocking socket.
Printed: the median round trip less ``D``, per ``D`` and way of waiting. Where blocking
costs more than spinning, the difference is the wake-up of a sleeping reader (on a
virtual machine, of an idle virtual CPU); where that difference does not grow with
``D``, a slower answer is not woken any slower. Not run by ``python -m benchmarks``: it
measures the machine, not amplifier-hooks.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import time

ASKED = b"q" * 456
ANSWER = b"a" * 160
WARM = 50


def _answer(connection: socket.socket, delay: float) -> None:
    while connection.recv(4096):
        end = time.perf_counter() + delay
        while time.perf_counter() < end:
            pass
        connection.sendall(ANSWER)


def round_trip(delay: float, spin: bool, rounds: int) -> float:
    """Median seconds of a round trip less ``delay``, against a forked answerer."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    child = os.fork()
    if child == 0:  # the answering side
        connection, _ = listener.accept()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        _answer(connection, delay)
        os._exit(0)
    asking = socket.create_connection(listener.getsockname())
    asking.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    asking.setblocking(not spin)
    times = []
    try:
        for turn in range(WARM + rounds):
            started = time.perf_counter()
            asking.sendall(ASKED)
            got = 0
            while got < len(ANSWER):
                # Not contextlib.suppress: a context manager per spin would be timed too.
                try:  # noqa: SIM105
                    got += len(asking.recv(4096))
                except BlockingIOError:
                    pass
            if turn >= WARM:
                times.append(time.perf_counter() - started - delay)
    finally:
        asking.close()
        os.waitpid(child, 0)
        listener.close()
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1000, help="round trips per cell")
    parser.add_argument(
        "--delays", default="0,50,100,200,300,500,700", help="answer delays, µs, comma-separated"
    )
    args = parser.parse_args(argv)
    print("| answer delay µs | reader blocks: round trip - delay, µs | reader spins: µs |")
    print("|---:|---:|---:|")
    for delay in (int(d) for d in args.delays.split(",")):
        blocked = round_trip(delay / 1e6, False, args.rounds)
        spun = round_trip(delay / 1e6, True, args.rounds)
        print(f"| {delay} | {blocked * 1e6:.0f} | {spun * 1e6:.0f} |", flush=True)


if __name__ == "__main__":
    main()
