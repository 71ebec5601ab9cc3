"""Textual 8 caches a method with `lru_cache` keyed by the widget's style cache
(`StylesCache.get_inner_outer`): up to 1024 closed widgets, and every line they drew, stay
alive through it. Something that closes screens all day (the demo, a test run) lets them
go with `release_render_caches`."""

from __future__ import annotations


def release_render_caches() -> None:
    """Forget what Textual cached for widgets that may be gone (drawing refills it)."""
    try:
        from textual._styles_cache import StylesCache

        StylesCache.get_inner_outer.cache_clear()
    except (ImportError, AttributeError):  # another Textual: nothing to release
        pass
