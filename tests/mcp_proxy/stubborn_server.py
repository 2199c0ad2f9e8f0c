"""A server that will not stop: it ignores the end of its stdin and SIGTERM, and so does
the child it starts. Run as ``python stubborn_server.py PIDFILE``: it writes its pid and
its child's there (one line, when both run), then waits."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

CHILD = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"

if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.DEVNULL)
    written = Path(sys.argv[1] + ".part")
    written.write_text(f"{child.pid} {os.getpid()}\n")
    written.rename(sys.argv[1])
    time.sleep(600)
