"""setup.py compiles the engine's C files side by side (``CompiledBuildExt.build_extension``) with the compilers that
allow it: gcc and clang (setuptools' unix compiler, on Linux and macOS) and MSVC once it is set up. MSVC sets itself
up inside its first compile and refuses a second set-up, so threads racing there would fail every Windows build. The
compilers here are stand-ins that behave as setuptools' do in that respect, so the checks run on any system; the
release workflow builds with the real ones."""

from __future__ import annotations

import os
import runpy
import threading
import time
from pathlib import Path

import pytest
import setuptools
from setuptools import Distribution
from setuptools.command.build_ext import build_ext

SETUP = Path(__file__).resolve().parents[2] / "setup.py"
SOURCES = [f"build/part{i}.c" for i in range(12)]


class StandInCompiler:
    """Records each compile (its thread, sources and options); as MSVC, sets itself up in its first compile."""

    def __init__(self, compiler_type: str):
        self.compiler_type = compiler_type
        self.initialized = False
        self.set_ups = 0
        self.calls: list[tuple[int, list[str], list[str]]] = []

    def initialize(self, plat_name: str | None = None) -> None:
        assert not self.initialized, "don't init multiple times"  # setuptools' MSVCCompiler says the same
        time.sleep(0.05)  # vcvarsall takes its time: threads that race meet here
        self.set_ups += 1
        self.initialized = True

    def compile(self, sources, output_dir=None, macros=None, extra_postargs=None, **kwargs):
        if self.compiler_type == "msvc" and not self.initialized:
            self.initialize()
        self.calls.append((threading.get_ident(), list(sources), list(extra_postargs)))
        extra_postargs.append("/c")  # MSVC extends the options it is given
        time.sleep(0.02)
        return [source.replace(".c", ".o") for source in sources]


def build(compiler_type: str, monkeypatch) -> tuple[list[str], StandInCompiler]:
    """Run setup.py's build_extension with a stand-in compiler; what setuptools' own would do with the C files is
    one compile of them all."""
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: None)
    command = runpy.run_path(str(SETUP), run_name="setup_under_test")["CompiledBuildExt"](Distribution())
    command.plat_name = "win-amd64"
    compiler = command.compiler = StandInCompiler(compiler_type)
    made: list[str] = []

    def compile_the_extension(self, ext):
        made.extend(self.compiler.compile(SOURCES, output_dir="build", macros=[], extra_postargs=["-O3"]))

    monkeypatch.setattr(build_ext, "build_extension", compile_the_extension)
    command.build_extension(ext=None)
    assert "compile" not in vars(compiler)  # the compiler's own compile is back
    return made, compiler


@pytest.mark.parametrize("compiler_type", ["unix", "msvc"])
def test_gcc_clang_and_msvc_compile_one_file_per_call_side_by_side(compiler_type, monkeypatch):
    made, compiler = build(compiler_type, monkeypatch)
    assert made == [source.replace(".c", ".o") for source in SOURCES]
    assert sorted(sources for _, sources, _ in compiler.calls) == sorted([source] for source in SOURCES)
    assert all(options == ["-O3"] for _, _, options in compiler.calls)  # each call its own copy of the options
    if (os.cpu_count() or 1) > 1:
        assert len({thread for thread, _, _ in compiler.calls}) > 1


def test_msvc_is_set_up_once_before_the_threads_start(monkeypatch):
    _, compiler = build("msvc", monkeypatch)
    assert compiler.set_ups == 1


def test_another_compiler_compiles_the_files_one_after_another_as_setuptools_does(monkeypatch):
    made, compiler = build("mingw32", monkeypatch)
    assert [sources for _, sources, _ in compiler.calls] == [SOURCES]
    assert made == [source.replace(".c", ".o") for source in SOURCES]
    assert compiler.set_ups == 0
