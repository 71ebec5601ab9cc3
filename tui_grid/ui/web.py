"""`tui-grid serve web`: the app in a browser, through textual-serve. Each browser tab
gets its own `tui-grid` process, driven by Textual's web driver."""

from __future__ import annotations

import ipaddress
import shlex
import sys

#: How textual-serve starts the app for each connection: this interpreter, this package.
APP_COMMAND = f"{shlex.quote(sys.executable)} -m tui_grid"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve_web(host: str, port: int, public_url: str | None = None) -> None:
    """Serve until interrupted. The app served has every power of a local user (it can
    run programs and write files), so anything but a loopback address is said aloud."""
    from textual_serve.server import Server

    if not is_loopback(host):
        print(f"tui-grid: warning: serving on {host}: whoever reaches it runs tui-grid as you "
              "(programs, files); prefer 127.0.0.1 behind an SSH tunnel", file=sys.stderr)
    print(f"tui-grid: serving the app at http://{host}:{port} (ctrl+c stops)", file=sys.stderr, flush=True)
    Server(APP_COMMAND, host=host, port=port, title="tui_grid", public_url=public_url).serve()
