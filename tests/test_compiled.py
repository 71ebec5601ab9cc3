"""core/compiled.py: C built once per version into a private cache, loaded only from there."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tui_grid.core.compiled import CompiledLibrary, cache_folders

SOURCE = "int twice(int x) { return 2 * x; }\n"
needs_compiler = pytest.mark.skipif(shutil.which("gcc") is None and shutil.which("cc") is None, reason="no C compiler")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.delenv("CC", raising=False)
    return tmp_path / "cache" / "tui_grid"


@needs_compiler
def test_a_library_is_built_once_and_then_only_loaded(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert next(cache_folders()) == cache
    lib = CompiledLibrary("demo", SOURCE).load()
    assert lib is not None and lib.twice(21) == 42
    built = CompiledLibrary("demo", SOURCE).built()
    assert built is not None and built.parent == cache and oct(cache.stat().st_mode & 0o777) == "0o700"
    monkeypatch.setenv("CC", "/bin/false")  # a second process would not compile again
    again = CompiledLibrary("demo", SOURCE)
    assert again.load() is not None and again.error == ""


@needs_compiler
def test_a_new_source_builds_anew_and_removes_the_old_build(cache: Path) -> None:
    old = CompiledLibrary("demo", SOURCE)
    old.load()
    new = CompiledLibrary("demo", SOURCE.replace("2 * x", "3 * x"))
    assert new.file_name() != old.file_name()
    assert new.load().twice(2) == 6
    assert sorted(path.name for path in cache.glob("demo_*.so")) == [new.file_name()]


@needs_compiler
@pytest.mark.parametrize("spoil", ["group-writable file", "world-writable folder", "symlink"])
def test_a_library_others_could_have_written_is_never_loaded(cache: Path, tmp_path: Path, spoil: str) -> None:
    CompiledLibrary("demo", SOURCE).load()
    path = cache / CompiledLibrary("demo", SOURCE).file_name()
    if spoil == "group-writable file":
        path.chmod(0o720)
    elif spoil == "world-writable folder":
        cache.chmod(0o777)
    else:
        elsewhere = tmp_path / "planted.so"
        path.rename(elsewhere)
        path.symlink_to(elsewhere)
    fresh = CompiledLibrary("demo", SOURCE)
    assert fresh.built() is None
    assert fresh.load(build=False) is None


def test_without_a_working_compiler_there_is_no_library_and_a_reason(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", "/bin/false")
    library = CompiledLibrary("demo", SOURCE)
    assert library.load() is None
    assert "exit 1" in library.error
    assert not any(cache.glob("demo_*")) and not any(name.startswith("tmp") for name in os.listdir(cache))
