"""Small wording helpers shared by every message, so counts read right everywhere."""

from __future__ import annotations


def plural(count: int, word: str) -> str:
    """`1 move`, `2 moves`."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def article(word: str) -> str:
    """`a tron board`, `an ice board`: the article by the word's first letter."""
    return f"an {word}" if word[:1].lower() in "aeio" else f"a {word}"
