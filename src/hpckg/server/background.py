"""Serve an ASGI app on a loopback port from a background thread (tests, notebooks)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["serve_in_thread"]


@contextmanager
def serve_in_thread(app: Any, host: str = "127.0.0.1", port: int = 0, timeout: float = 30.0) -> Iterator[str]:
    """Run ``app`` with uvicorn in a daemon thread; yields its base URL and stops it on exit.

    ``port=0`` picks a free ephemeral port (the socket is bound before uvicorn
    starts, so there is no race with other processes).
    """
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    bound = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    try:
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError(f"the server did not start on {host}:{bound}")
            time.sleep(0.02)
        yield f"http://{host}:{bound}"
    finally:
        server.should_exit = True
        thread.join(timeout=timeout)
        sock.close()
