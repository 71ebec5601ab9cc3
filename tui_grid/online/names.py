"""Player names: plain, short, and never a lookalike of another.

A name keeps at most `MAX_NAME` of `A-Z a-z 0-9 _ . -`. Two names are the same name when
their skeletons are equal: case, `.`, `_` and `-` ignored, and digits that pass for
letters (0 o, 1 l i, 5 s) read as those letters, so `Ann`, `ann_` and `a.nn` are one
name, and so are `bob` and `b0b`.
"""

from __future__ import annotations

import re

MAX_NAME = 16
_NOT_NAME = re.compile(r"[^A-Za-z0-9_.-]")
_SEPARATORS = re.compile(r"[._-]")
_LOOKALIKES = str.maketrans({"0": "o", "1": "l", "i": "l", "5": "s", "|": "l"})
#: Names nobody may take: they would pass for the server or its staff.
RESERVED = frozenset({"admin", "administrator", "root", "server", "system", "operator", "moderator", "staff",
                      "tuigrid", "support", "sysop", "nobody", "guest"})


def safe_name(name: str) -> str:
    """A name fit for a folder and a screen; "player" when nothing is left."""
    return _NOT_NAME.sub("", name)[:MAX_NAME] or "player"


def skeleton(name: str) -> str:
    """What a name reads as: equal skeletons are the same name."""
    return _SEPARATORS.sub("", name.lower()).translate(_LOOKALIKES)


_RESERVED_SKELETONS = frozenset(skeleton(word) for word in RESERVED)


def reserved(name: str) -> bool:
    return skeleton(name) in _RESERVED_SKELETONS


def unique_name(name: str, taken: set[str]) -> str:
    """`name`, else `name-2`, `name-3`...: the first whose skeleton is not in `taken`
    (skeletons of the names in use)."""
    if skeleton(name) not in taken and not reserved(name):
        return name
    for number in range(2, 100_000):
        suffix = f"-{number}"
        candidate = f"{name[: MAX_NAME - len(suffix)]}{suffix}"
        if skeleton(candidate) not in taken and not reserved(candidate):
            return candidate
    raise RuntimeError("no free name")
