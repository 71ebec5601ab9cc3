"""`--authorized-keys`: an OpenSSH authorized_keys file, with its options meaning what they
say. A line whose options this server cannot honour is refused whole, never half-honoured:
a forced command (nothing runs here), no terminal (the app needs one), certificates, and
options it does not know. `expiry-time` and `from` are checked at every login.

The file is read at each login (edits take effect at once), at most `MAX_FILE_BYTES` of it.
"""

from __future__ import annotations

import calendar
import fnmatch
import ipaddress
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

MAX_FILE_BYTES = 1024 * 1024
KEY_TYPES = ("ssh-", "ecdsa-", "sk-")

#: Options that only grant or limit what this server never offers (forwarding, rc files,
#: environment from the key): accepted, with nothing to do.
INERT = frozenset({
    "agent-forwarding", "no-agent-forwarding", "port-forwarding", "no-port-forwarding",
    "x11-forwarding", "no-x11-forwarding", "user-rc", "no-user-rc", "pty", "no-touch-required",
    "permitopen", "permitlisten", "environment", "tunnel",
})
REFUSED = {
    "command": "a forced command: this server runs no commands",
    "no-pty": "no-pty: the game needs a terminal",
    "cert-authority": "certificates are not accepted",
    "principals": "certificates are not accepted",
    "verify-required": "verify-required: user verification cannot be checked here",
}


@dataclass(frozen=True)
class KeyEntry:
    """One usable line: its key, where it may log in from, and until when."""

    key: Any  # asyncssh.SSHKey
    line: int
    from_patterns: tuple[str, ...] = ()
    expires: float | None = None  # seconds since the epoch

    def admits(self, address: str, now: float) -> str | None:
        """None when this key may log in from `address` at `now`; else why not."""
        if self.expires is not None and now >= self.expires:
            return f"the key's expiry-time has passed (line {self.line})"
        if self.from_patterns and not from_allows(self.from_patterns, address):
            return f"the key may not log in from {address} (line {self.line})"
        return None


@dataclass(frozen=True)
class Refused:
    """A line that is not used, and why (1-based line and column)."""

    line: int
    column: int
    why: str


@dataclass(frozen=True)
class AuthorizedKeys:
    entries: tuple[KeyEntry, ...]
    refused: tuple[Refused, ...]

    def find(self, key: Any) -> list[KeyEntry]:
        return [entry for entry in self.entries if entry.key == key]


def read(path: Path) -> AuthorizedKeys:
    """The file's usable keys and refused lines; OSError when it cannot be read."""
    with open(path, "rb") as stream:
        data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        return AuthorizedKeys((), (Refused(1, 1, f"the file is larger than {MAX_FILE_BYTES // 1024} KiB"),))
    return parse(data.decode("utf-8", "replace"))


def parse(text: str, import_key: Callable[[str], Any] | None = None) -> AuthorizedKeys:
    if import_key is None:
        import asyncssh

        import_key = asyncssh.import_public_key
    entries: list[KeyEntry] = []
    refused: list[Refused] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip())
        result = _parse_line(line, number, indent, import_key)
        (entries if isinstance(result, KeyEntry) else refused).append(result)  # type: ignore[arg-type]
    return AuthorizedKeys(tuple(entries), tuple(refused))


def _parse_line(line: str, number: int, indent: int, import_key: Callable[[str], Any]) -> KeyEntry | Refused:
    options: list[tuple[str, str | None, int]] = []
    rest, rest_column = line, 1
    if not line.startswith(KEY_TYPES):
        try:
            options, end = split_options(line)
        except ValueError as exc:
            return Refused(number, indent + 1, str(exc))
        rest, rest_column = line[end:].lstrip(), len(line) - len(line[end:].lstrip()) + 1
    froms: list[str] = []
    expires: float | None = None
    restricted = has_pty = False
    for name, value, column in options:
        lowered = name.lower()
        where = indent + column
        if lowered in REFUSED:
            return Refused(number, where, REFUSED[lowered])
        if lowered == "restrict":
            restricted = True
        elif lowered == "pty":
            has_pty = True
        elif lowered == "from":
            if not value:
                return Refused(number, where, "from= needs a pattern list")
            froms.extend(part.strip() for part in value.split(",") if part.strip())
        elif lowered == "expiry-time":
            try:
                moment = expiry_seconds(value or "")
            except ValueError as exc:
                return Refused(number, where, str(exc))
            expires = moment if expires is None else min(expires, moment)
        elif lowered not in INERT:
            return Refused(number, where, f"unknown option {name[:40]!r}")
    if restricted and not has_pty:
        return Refused(number, indent + 1, "restrict without pty: the game needs a terminal")
    try:
        key = import_key(rest)
    except Exception:  # asyncssh raises its own KeyImportError, or ValueError
        return Refused(number, indent + rest_column, "not a public key")
    return KeyEntry(key, number, tuple(froms), expires)


def split_options(line: str) -> tuple[list[tuple[str, str | None, int]], int]:
    """The options before the key: (name, value or None, 1-based column) each, and where
    the key begins. Values are double-quoted; a backslash escapes a quote."""
    options: list[tuple[str, str | None, int]] = []
    index, start, name, value = 0, 0, "", None
    quoted = False
    current = ""
    while index < len(line):
        char = line[index]
        if quoted:
            if char == "\\" and index + 1 < len(line) and line[index + 1] == '"':
                current += '"'
                index += 1
            elif char == '"':
                quoted = False
            else:
                current += char
        elif char == '"':
            quoted = True
        elif char == "=" and value is None and name == "":
            name, current, value = current, "", ""
        elif char in ", \t":
            options.append(_option(name, current, value, start))
            name, current, value = "", "", None
            if char != ",":
                return options, index
            start = index + 1
        else:
            current += char
        index += 1
    if quoted:
        raise ValueError("an option's quote is never closed")
    raise ValueError("options but no key")


def _option(name: str, current: str, value: str | None, start: int) -> tuple[str, str | None, int]:
    if value is None:
        return current, None, start + 1
    return name, current, start + 1


def expiry_seconds(text: str) -> float:
    """`YYYYMMDD[HHMM[SS]]`, local time, or UTC with a trailing `Z` (as sshd reads it)."""
    utc = text.endswith(("Z", "z"))
    digits = text[:-1] if utc else text
    if not digits.isdigit() or len(digits) not in (8, 12, 14):
        raise ValueError(f"expiry-time must be YYYYMMDD[HHMM[SS]][Z], got {text[:20]!r}")
    digits = digits.ljust(14, "0")
    try:
        parts = time.strptime(digits, "%Y%m%d%H%M%S")
    except ValueError:
        raise ValueError(f"expiry-time is not a date: {text[:20]!r}") from None
    return float(calendar.timegm(parts)) if utc else time.mktime(parts)


def from_allows(patterns: tuple[str, ...], address: str) -> bool:
    """sshd's from= rule: a negated pattern that matches refuses; else one that matches
    admits. Patterns are addresses with `*` and `?`, or CIDR blocks (no names: this server
    looks nothing up)."""
    admitted = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        body = pattern[1:] if negated else pattern
        if _matches(body, address):
            if negated:
                return False
            admitted = True
    return admitted


def _matches(pattern: str, address: str) -> bool:
    if "/" in pattern:
        try:
            return ipaddress.ip_address(address) in ipaddress.ip_network(pattern, strict=False)
        except ValueError:
            return False
    return fnmatch.fnmatchcase(address.lower(), pattern.lower())
