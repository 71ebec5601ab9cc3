"""`tui-grid serve web`: the app in a browser, through textual-serve. Each browser tab
gets its own `tui-grid` process, driven by Textual's web driver."""

from __future__ import annotations

import errno
import ipaddress
import shlex
import socket
import sys
from typing import Any

from tui_grid.core.errors import listen_error

#: How textual-serve starts the app for each connection: this interpreter, this package.
APP_COMMAND = f"{shlex.quote(sys.executable)} -m tui_grid"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_listen(host: str, port: int) -> None:
    """Raise UsageError (`listen_error`) unless `host`:`port` can be listened on, by binding
    to it as the server's asyncio will and letting go at once."""
    try:
        for family, kind, protocol, _, address in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE):
            _probe(family, kind, protocol, address)
    except OSError as exc:
        raise listen_error(host, port, exc) from None


def _probe(family: int, kind: int, protocol: int, address: tuple[Any, ...]) -> None:
    """Bind one address as `loop.create_server` does: an address in TIME_WAIT is reused,
    IPv6 is IPv6 only, and a family this machine has not enabled is skipped."""
    with socket.socket(family, kind, protocol) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno != errno.EADDRNOTAVAIL:
                raise


def serve_web(host: str, port: int, public_url: str | None = None) -> None:
    """Serve until interrupted. The address is checked before anything says it is served.
    The app served has every power of a local user (it can run programs and write files),
    so anything but a loopback address is said aloud."""
    from textual_serve.server import Server

    check_listen(host, port)
    if not is_loopback(host):
        print(f"tui-grid: warning: serving on {host}: whoever reaches it runs tui-grid as you "
              "(programs, files); prefer 127.0.0.1 behind an SSH tunnel", file=sys.stderr)
    print(f"tui-grid: serving the app at http://{host}:{port} (ctrl+c stops)", file=sys.stderr, flush=True)
    try:
        Server(APP_COMMAND, host=host, port=port, title="tui_grid", public_url=public_url).serve()
    except OSError as exc:  # taken between the check and the server's own bind
        raise listen_error(host, port, exc) from None
