"""The GitHub workflows (.github/workflows/), checked here since they run only on GitHub: actionlint (with shellcheck
on their scripts) passes; cibuildwheel, reading [tool.cibuildwheel] in pyproject.toml, builds exactly CPython
3.11-3.14 for each platform and architecture the release workflow's runners build, as the classifiers say; every
action is pinned to a release; publishing happens on a version tag only, after every build and test; the wheels'
tests run the short suite (tests/short_suite.txt) with what it reads. Offline: the tools are the dev group's."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
CIBW = PYPROJECT["tool"]["cibuildwheel"]
SUITE = ROOT / "tests" / "short_suite.txt"

PLATFORM_OF_RUNNER = {"ubuntu": "linux", "macos": "macos", "windows": "windows"}
OS_CLASSIFIER = {
    "linux": "Operating System :: POSIX :: Linux",
    "macos": "Operating System :: MacOS",
    "windows": "Operating System :: Microsoft :: Windows",
}
WHEEL_TAGS = {"linux": ["manylinux", "musllinux"], "macos": ["macosx"], "windows": ["win"]}
"""The wheel platform tags cibuildwheel makes on each platform (manylinux and musllinux both, on Linux)."""


def workflow(name: str) -> dict:
    data = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as true
    return data


def tool(name: str) -> str:
    """A command of the dev group: beside this Python (its environment's scripts), else on PATH."""
    scripts = Path(sys.executable).parent
    found = shutil.which(name, path=str(scripts)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed: install the dev group (make test does)")
    return found


def actionlint(*paths: Path) -> subprocess.CompletedProcess[str]:
    command = [tool("actionlint"), "-no-color", f"-shellcheck={tool('shellcheck')}", *map(str, paths)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT)


def python_versions() -> set[str]:
    """The Python versions the classifiers name (3.x, not the bare 3)."""
    prefix = "Programming Language :: Python :: "
    return {
        c[len(prefix) :] for c in PYPROJECT["project"]["classifiers"] if re.fullmatch(re.escape(prefix) + r"3\.\d+", c)
    }


def runners() -> dict[str, list[str]]:
    """The architectures the release workflow's compiled-wheel runners build, by platform."""
    archs: dict[str, list[str]] = {}
    for entry in workflow("release.yml")["jobs"]["wheels"]["strategy"]["matrix"]["include"]:
        platform = PLATFORM_OF_RUNNER[entry["os"].split("-")[0]]
        archs.setdefault(platform, []).append(entry["arch"])
    return archs


def identifiers(platform: str) -> list[str]:
    """What cibuildwheel would build on ``platform`` from pyproject.toml alone (no CIBW_ variable of this shell)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CIBW_")}
    try:
        import cibuildwheel  # noqa: F401
    except ImportError:
        pytest.skip("cibuildwheel is not installed: install the dev group (make test does)")
    done = subprocess.run(
        [sys.executable, "-m", "cibuildwheel", "--print-build-identifiers", "--platform", platform],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


# ---------------------------------------------------------------------------------------------- actionlint
def test_actionlint_passes_on_every_workflow():
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert {f.name for f in files} >= {"release.yml", "docs.yml"}
    done = actionlint(*files)
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_catches_a_broken_workflow(tmp_path):
    """The linter reads what it is given: a runner label, a job's needs and a script each broken in a copy."""
    text = (WORKFLOWS / "release.yml").read_text(encoding="utf-8")
    broken = text.replace("ubuntu-24.04-arm", "ubuntu-24.04-armm").replace("needs: pure\n", "needs: purity\n")
    broken = broken.replace('test "$(ls dist)"', 'test $(ls dist) =="')
    assert broken.count("armm") == 1 and "purity" in broken and '=="' in broken
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    copy = tmp_path / ".github" / "workflows" / "release.yml"
    copy.write_text(broken, encoding="utf-8")
    done = actionlint(copy)
    assert done.returncode == 1
    for words in ('label "ubuntu-24.04-armm" is unknown', 'needs job "purity" which does not exist', "shellcheck"):
        assert words in done.stdout, done.stdout


# ---------------------------------------------------------------------------------------- cibuildwheel
@pytest.mark.parametrize("platform", ["linux", "macos", "windows"])
def test_cibuildwheel_builds_exactly_cpython_3_11_to_3_14_for_each_runner(platform):
    archs = runners()[platform]
    assert sorted(archs) == sorted(CIBW[platform]["archs"]), "the runners build the archs pyproject.toml lists"
    versions = sorted(python_versions())
    assert versions == ["3.11", "3.12", "3.13", "3.14"]
    arch_tag = {"AMD64": "amd64"}
    expected = {
        f"cp{v.replace('.', '')}-{tag}_{arch_tag.get(arch, arch)}"
        for v in versions
        for tag in WHEEL_TAGS[platform]
        for arch in archs
    }
    printed = identifiers(platform)
    assert len(printed) == len(set(printed))
    assert set(printed) == expected


def test_the_classifiers_name_the_pythons_and_systems_the_release_tests():
    built = {f"3.{selector[3:-2]}" for selector in CIBW["build"]}
    assert built == python_versions()
    assert PYPROJECT["project"]["requires-python"] == f">={min(built, key=lambda v: int(v[2:]))}"
    assert "Programming Language :: Python :: Implementation :: CPython" in PYPROJECT["project"]["classifiers"]
    jobs = workflow("release.yml")["jobs"]
    tested = set(runners())
    tested |= {PLATFORM_OF_RUNNER[os_.split("-")[0]] for os_ in jobs["pure-test"]["strategy"]["matrix"]["os"]}
    systems = {c for c in PYPROJECT["project"]["classifiers"] if c.startswith("Operating System ::")}
    assert systems == {OS_CLASSIFIER[platform] for platform in tested}


def test_the_workflow_pins_the_cibuildwheel_the_project_locks():
    """The wheels a release ships are built by the cibuildwheel whose options these tests read."""
    (pinned,) = re.findall(r"uses: pypa/cibuildwheel@v([\d.]+)", (WORKFLOWS / "release.yml").read_text("utf-8"))
    dev = [Requirement(r) for r in PYPROJECT["dependency-groups"]["dev"] if isinstance(r, str)]
    (wanted,) = [r for r in dev if r.name == "cibuildwheel"]
    assert wanted.specifier.contains(pinned)
    (locked,) = re.findall(r"^cibuildwheel==([\d.]+)$", (ROOT / "constraints.txt").read_text("utf-8"), re.M)
    assert locked == pinned


def build_options(platform: str, identifier: str):
    """cibuildwheel's options for one wheel, overrides applied (its own reader, as a build uses it)."""
    options = pytest.importorskip("cibuildwheel.options", reason="cibuildwheel is not installed: install the dev group")
    arguments = options.CommandLineArguments.defaults()
    arguments.package_dir = ROOT
    return options.compute_options(platform, arguments, env={}).build_options(identifier)


@pytest.mark.parametrize("platform", ["linux", "macos", "windows"])
def test_every_wheel_is_built_compiled_and_tested_with_the_short_suite_where_no_test_skips(platform):
    for identifier in identifiers(platform):
        wheel = build_options(platform, identifier)
        assert wheel.environment.as_dictionary({}) == {"MILLEBORNES_REQUIRE_COMPILED": "1"}
        assert wheel.test_command == " && ".join(CIBW["test-command"])
        assert "sys.exit(not millebornes.compiled())" in wheel.test_command
        assert wheel.test_sources == CIBW["test-sources"]
        if identifier.endswith("-musllinux_aarch64"):  # no matplotlib wheel there: no plot extra, its tests skip
            assert (wheel.test_extras, wheel.test_environment.as_dictionary({})) == ("[cli,rl]", {})
        else:
            assert wheel.test_extras == "[cli,rl,plot]"
            assert wheel.test_environment.as_dictionary({}) == {"MILLEBORNES_NO_SKIP": "1"}


def test_only_the_tests_that_draw_need_matplotlib_and_they_skip_without_it():
    """The musllinux aarch64 wheels are tested without the plot extra: every test of the suite that draws (a plot
    function or the --plot option) skips without matplotlib, and nothing else of the suite imports it."""
    drawing = []
    for name in suite_lines()[2:]:
        source = (ROOT / name).read_text(encoding="utf-8")
        assert not re.search(r"^\s*(import|from) matplotlib", source, re.M), name
        for node in ast.parse(source).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                body = ast.get_source_segment(source, node) or ""
                if "plot" in body.replace(node.name, ""):
                    drawing.append(node.name)
                    assert 'pytest.importorskip("matplotlib")' in body, node.name
    assert sorted(drawing) == ["test_cli_table_json_csv_and_plot", "test_plot_of_a_clean_sweep"]


# ---------------------------------------------------------------------------------------- the short suite
def suite_lines() -> list[str]:
    return SUITE.read_text(encoding="utf-8").splitlines()


def test_the_short_suite_is_one_argument_a_line_of_existing_test_files():
    """pytest reads an arguments file one argument a line: a blank line would be an argument too."""
    lines = suite_lines()
    assert all(line and line == line.strip() for line in lines)
    assert lines[:2] == ["-m", "not slow and not ray"]
    files = lines[2:]
    assert files and len(files) == len(set(files))
    assert all(re.fullmatch(r"tests/\w+/test_\w+\.py", f) and (ROOT / f).is_file() for f in files), files


def test_every_runner_of_the_short_suite_reads_the_one_file():
    assert CIBW["test-command"][1].endswith(" @tests/short_suite.txt")
    noxfile = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    values = [n.value for n in noxfile.body if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "SHORT_SUITE"]
    assert [ast.literal_eval(v) for v in values] == ["@tests/short_suite.txt"]
    assert 'SUITE = "tests/short_suite.txt"' in (ROOT / "tools" / "wheel_test.py").read_text(encoding="utf-8")
    release = (WORKFLOWS / "release.yml").read_text(encoding="utf-8")
    assert release.count("python tools/wheel_test.py ") == 2  # the pure wheel's and the sdist's tests


def test_the_wheels_tests_carry_what_the_short_suite_reads(tmp_path):
    """cibuildwheel copies test-sources beside the installed wheel: the suite is collected from that copy alone,
    and every folder or file of the checkout the suite's code names is in it."""
    sources = CIBW["test-sources"]
    named = " ".join((ROOT / f).read_text(encoding="utf-8") for f in suite_lines()[2:])
    named += " ".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").glob("*.py"))
    top = {p.name for p in ROOT.iterdir() if not p.name.startswith(".")} - {"tests", "src"}
    wanted = {name for name in top if re.search(rf"""(/|join\(ROOT,)\s*["']{re.escape(name)}["']""", named)}
    assert {"docs", "examples"} <= wanted  # the schemas and protocol page, the example bots
    assert wanted <= set(sources), wanted - set(sources)
    for source in sources:
        (shutil.copytree if (ROOT / source).is_dir() else shutil.copy)(ROOT / source, tmp_path / source)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "@tests/short_suite.txt"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    counts = re.search(r"^(\d+)/(\d+) tests collected \((\d+) deselected\)", done.stdout, re.M)
    assert counts and int(counts[1]) > 500, done.stdout[-500:]


# ---------------------------------------------------------------------------------------- pins and permissions
def test_every_action_is_pinned_to_a_release_or_a_commit():
    pin = re.compile(r"[\w.-]+/[\w.-]+@(v\d+(\.\d+){0,2}|[0-9a-f]{40})")
    uses = [
        step["uses"]
        for path in sorted(WORKFLOWS.glob("*.yml"))
        for job in workflow(path.name)["jobs"].values()
        for step in job.get("steps", [])
        if "uses" in step
    ]
    assert len(uses) >= 10
    assert [u for u in uses if not pin.fullmatch(u)] == []


def test_publishing_happens_on_a_version_tag_only_after_every_build_and_test():
    release = workflow("release.yml")
    assert release["on"]["push"] == {"tags": ["v*"]}
    assert release["permissions"] == {"contents": "read"}
    jobs = release["jobs"]
    publish = jobs["publish"]
    on_tag = "github.event_name == 'push' && startsWith(github.ref, 'refs/tags/v')"
    assert publish["if"] == on_tag and jobs["github-release"]["if"] == on_tag
    assert set(publish["needs"]) == set(jobs) - {"publish", "github-release"}
    assert "publish" in jobs["github-release"]["needs"]
    assert publish["environment"]["name"] == "pypi"
    assert publish["permissions"] == {"id-token": "write"}
    assert [s["uses"].split("@")[0] for s in publish["steps"] if "uses" in s] == [
        "actions/download-artifact",
        "pypa/gh-action-pypi-publish",
    ]
    writers = {name for name, job in jobs.items() if "write" in job.get("permissions", {}).values()}
    assert writers == {"publish", "github-release"}


def test_a_pull_request_that_touches_the_packaging_or_a_compiled_module_builds_the_release():
    paths = set(workflow("release.yml")["on"]["pull_request"]["paths"])
    setup = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    (compiled,) = [n.value for n in setup.body if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "COMPILED"]
    modules = {element.value for element in compiled.elts}
    assert modules and modules <= paths
    assert {"setup.py", "pyproject.toml", "MANIFEST.in", ".github/workflows/release.yml"} <= paths


def test_the_docs_site_is_built_by_make_docs_and_published_from_main_and_tags_only():
    docs = workflow("docs.yml")
    assert docs["permissions"] == {"contents": "read"}
    assert docs["on"]["push"] == {"branches": ["main"], "tags": ["v*"]}
    assert "pull_request" in docs["on"]
    build, deploy = docs["jobs"]["build"], docs["jobs"]["deploy"]
    assert [s["run"] for s in build["steps"] if "run" in s] == ["make docs"]
    (upload,) = [s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@")]
    assert upload["with"]["path"] == "site"
    assert deploy["needs"] == "build"
    assert "github.event_name != 'pull_request'" in deploy["if"]
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert "permissions" not in build
    assert [s["uses"].split("@")[0] for s in deploy["steps"]] == ["actions/deploy-pages"]
