"""tools/dist.py's judgement of what ``make dist`` made, on files made here (the builds themselves run in
test_package.py, slow): the set must be whole, each compiled wheel compiled and manylinux, the pure one pure."""

from __future__ import annotations

import importlib.util
import sys
import zipfile
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "dist.py"
MODULES = frozenset({"millebornes_core__mypyc", "millebornes.state", "millebornes.bots.rollout"})
MANYLINUX = "manylinux2014_x86_64.manylinux_2_17_x86_64"


@pytest.fixture(scope="module")
def dist():
    spec = importlib.util.spec_from_file_location("millebornes_dist_tool", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def wheel(folder: Path, tag: str, modules=MODULES) -> Path:
    """A wheel holding the extension modules named (files of the CPython naming, empty)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"millebornes-1.0.0-{tag}.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("millebornes/__init__.py", "")
        for module in modules:
            archive.writestr(module.replace(".", "/") + ".cpython-312-x86_64-linux-gnu.so", "")
    return path


def whole_set(dist, folder: Path) -> list:
    (folder / "millebornes-1.0.0.tar.gz").write_bytes(b"")
    paths = [folder / "millebornes-1.0.0.tar.gz", wheel(folder, dist.PURE_TAG, modules=())]
    paths += [wheel(folder, f"cp{v}-cp{v}-{MANYLINUX}") for v in ("311", "312", "313")]
    return [dist.inspect(path) for path in paths]


def test_the_engine_modules_are_read_from_setup_py(dist, tmp_path):
    setup = tmp_path / "setup.py"
    setup.write_text('import os\nCOMPILED = [\n    "src/pkg/a.py",\n    "src/pkg/sub/b.py",\n]\nGROUP = "core"\n')
    assert dist.engine_modules(setup) == {"core__mypyc", "pkg.a", "pkg.sub.b"}
    real = dist.engine_modules()
    assert {"millebornes_core__mypyc", "millebornes.state", "millebornes.cards", "millebornes.bots.rollout"} <= real


def test_a_wheel_is_read_for_its_tag_and_extension_modules(dist, tmp_path):
    found = dist.inspect(wheel(tmp_path, f"cp312-cp312-{MANYLINUX}"))
    assert found.tag == f"cp312-cp312-{MANYLINUX}" and found.extensions == MODULES
    assert dist.inspect(wheel(tmp_path, "py3-none-any", modules=())).extensions == frozenset()


def test_the_whole_set_passes_and_its_table_lists_it(dist, tmp_path):
    artefacts = whole_set(dist, tmp_path)
    assert dist.problems(artefacts, ["3.11", "3.12", "3.13"], MODULES) == []
    lines = dist.table(artefacts).splitlines()
    assert lines[0].split() == ["file", "size", "tag", "engine"] and len(lines) == 6
    assert "pure Python" in lines[2] and lines[3].endswith("compiled") and lines[1].endswith("-")


def test_each_fault_of_the_set_is_named(dist, tmp_path):
    artefacts = whole_set(dist, tmp_path)
    sdist, pure, w311, w312, w313 = artefacts
    linux = dist.inspect(wheel(tmp_path, "cp312-cp312-linux_x86_64"))
    half = dist.inspect(wheel(tmp_path / "half", f"cp313-cp313-{MANYLINUX}", modules=MODULES - {"millebornes.state"}))
    compiled_pure = dist.inspect(wheel(tmp_path / "bad", dist.PURE_TAG))
    stray = dist.inspect(wheel(tmp_path / "stray", f"cp310-cp310-{MANYLINUX}"))
    versions = ["3.11", "3.12", "3.13"]

    assert dist.problems([pure, w311, w312, w313], versions, MODULES) == ["the sdist: expected one, found none"]
    assert dist.problems([sdist, pure, w311, w313], versions, MODULES) == [
        "the wheel of Python 3.12: expected one, found none"
    ]
    assert dist.problems([sdist, pure, w311, linux, w313], versions, MODULES) == [
        "millebornes-1.0.0-cp312-cp312-linux_x86_64.whl is not a manylinux wheel (PyPI refuses it)"
    ]
    (fault,) = dist.problems([sdist, pure, w311, w312, half], versions, MODULES)
    assert "is not the compiled engine: missing ['millebornes.state']" in fault
    (fault,) = dist.problems([sdist, compiled_pure, w311, w312, w313], versions, MODULES)
    assert fault.startswith("millebornes-1.0.0-py3-none-any.whl holds compiled modules")
    assert dist.problems([*artefacts, stray], versions, MODULES) == [
        f"millebornes-1.0.0-cp310-cp310-{MANYLINUX}.whl: not expected"
    ]
    # a Python not here is not asked for: its wheel would be the one not expected
    assert dist.problems([sdist, pure, w311, w313], ["3.11", "3.13"], MODULES) == []


def test_the_output_folder_is_emptied_of_artefacts_only(dist, tmp_path):
    out = tmp_path / "dist"
    dist.clear(out)
    (out / "millebornes-1.0-py3-none-any.whl").write_bytes(b"old")
    (out / "millebornes-1.0.tar.gz").write_bytes(b"old")
    dist.clear(out)
    assert list(out.iterdir()) == []
    (tmp_path / "README.md").write_text("a checkout")
    with pytest.raises(dist.DistError, match="holds more than wheels and sdists"):
        dist.clear(tmp_path)
    assert (tmp_path / "README.md").exists() and out.exists()
