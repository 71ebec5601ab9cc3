"""Which user a session's app runs as.

Where the server runs as root, each session gets a user of its own from a pool of numbers
that name nobody in /etc/passwd (never root), with the group `nogroup`: no session can
signal, trace or read another, the kernel counts each one's processes and threads
(RLIMIT_NPROC) apart, and each player's folder belongs to the session that has it now.
`--session-user NAME` runs every session as that one user instead. A server that is not
root runs its sessions as itself (they still cannot trace or read each other: they are not
dumpable).
"""

from __future__ import annotations

import grp
import os
import pwd

#: The first of the numbers the pool hands out (far above any account's), and how many.
POOL_START = 1_900_000_000
POOL_SIZE = 100_000


class SessionUsers:
    def __init__(self, named: str | None, is_root: bool | None = None) -> None:
        root = os.geteuid() == 0 if is_root is None else is_root
        self.shared: tuple[int, int] | None = None
        self.pooled = False
        self._taken: set[int] = set()
        if not root:
            if named is not None:
                raise ValueError("--session-user needs a server running as root")
            return
        if named is not None:
            try:
                entry = pwd.getpwnam(named)
            except KeyError:
                raise ValueError(f"no user {named!r} to run sessions as (--session-user)") from None
            if entry.pw_uid == 0:
                raise ValueError("sessions never run as root: name an unprivileged --session-user")
            self.shared = (entry.pw_uid, entry.pw_gid)
            return
        self.pooled = True
        try:
            self.group = grp.getgrnam("nogroup").gr_gid
        except KeyError:
            self.group = 65534

    @property
    def separate(self) -> bool:
        """Whether each session has a user of its own."""
        return self.pooled

    def describe(self) -> str:
        if self.pooled:
            return f"as users {POOL_START}+ (one each)"
        if self.shared is not None:
            return f"as {pwd.getpwuid(self.shared[0]).pw_name}"
        return ""

    def example(self) -> tuple[int, int] | None:
        """A user sessions run as (to check what they may read); None: the server's own."""
        if self.pooled:
            return POOL_START, self.group
        return self.shared

    def take(self) -> tuple[int, int] | None:
        """The user for a new session (`give` it back at its end); None: the server's own."""
        if not self.pooled:
            return self.shared
        for uid in range(POOL_START, POOL_START + POOL_SIZE):
            if uid not in self._taken and not _named(uid):
                self._taken.add(uid)
                return uid, self.group
        raise RuntimeError("no free session user")

    def give(self, user: tuple[int, int] | None) -> None:
        if user is not None:
            self._taken.discard(user[0])


def _named(uid: int) -> bool:
    try:
        pwd.getpwuid(uid)
    except KeyError:
        return False
    return True
