"""What the server and the session starter (online.zygote) say to each other: a session's
description, and one JSON object per datagram.

    server -> starter   {"op": "spawn", "id": N, "spec": {...}} + fds [terminal, hub?]
                        {"op": "kill", "pid": P}
    starter -> server   {"op": "ready"}, {"op": "spawned", "id": N, "pid": P},
                        {"op": "failed", "id": N, "error": TEXT}, {"op": "exited", "pid": P, "code": C}
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

MAX_MESSAGE = 64 * 1024
#: Descriptor number the hub link is given in a session (0-2 are its terminal).
HUB_FD = 3


@dataclass(frozen=True)
class SessionSpec:
    """What one session's app is: its command line after `tui-grid`, its whole environment,
    its folder, its user (None: the server's) and its limits."""

    argv: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)
    folder: str = "."
    uid: int | None = None
    gid: int | None = None
    memory_bytes: int = 512 * 1024 * 1024
    file_bytes: int = 16 * 1024 * 1024
    open_files: int = 256
    niceness: int = 5
    processes: int | None = None
    cgroup_procs: str | None = None

    def to_wire(self) -> dict[str, Any]:
        return {**asdict(self), "argv": list(self.argv)}

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> SessionSpec:
        return cls(**{**data, "argv": tuple(str(word) for word in data["argv"]),
                      "env": {str(k): str(v) for k, v in dict(data["env"]).items()}})


def encode(message: dict[str, Any]) -> bytes:
    data = json.dumps(message, separators=(",", ":")).encode()
    if len(data) > MAX_MESSAGE:
        raise ValueError("message too long")
    return data
