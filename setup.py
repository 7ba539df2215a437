"""Build: the engine and the playout policy are compiled with mypyc, which makes search playouts about
seven times faster (bench/search.py).  The compiled modules are the same source as the pure-Python
ones, so legality keeps its one home.  Where no C compiler works, or with MILLEBORNES_PURE=1, the
package installs as pure Python and behaves the same, only slower: a failed compile says so in the build log
and the wheel it makes is tagged ``py3-none-any``, as pure as it is.  MILLEBORNES_REQUIRE_COMPILED=1 turns that
failure into an error (``make dist`` and the release's wheel builds set it: a wheel for one platform must hold
the compiled engine).

After editing one of COMPILED, rebuild (``make build``, which reads the list below): an extension
module is imported in preference to its source, and ``millebornes`` warns when the compiled engine is
older than one of them.

Two things keep a first install short: mypyc translates the modules only when the extensions are
built (pip also runs this file to ask for requirements and metadata, which need no C), and the C
files of the one extension are compiled side by side, one compiler per core.
"""

import os
import re
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from copy import copy

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

COMPILED = [
    "src/millebornes/cards.py",
    "src/millebornes/actions.py",
    "src/millebornes/observe.py",
    "src/millebornes/state.py",
    "src/millebornes/determinize.py",
    "src/millebornes/bots/rollout.py",
    "src/millebornes/bots/encode.py",
]
GROUP = "millebornes_core"


def flag(name: str) -> bool:
    """An on/off environment variable: unset, empty or 0 is off, 1 is on, anything else is refused."""
    value = os.environ.get(name, "")
    if value not in ("", "0", "1"):
        sys.exit(f"millebornes: {name}={value!r}: set it to 1 (on) or 0 (off)")
    return value == "1"


PURE = flag("MILLEBORNES_PURE")
REQUIRE_COMPILED = flag("MILLEBORNES_REQUIRE_COMPILED")
if PURE and REQUIRE_COMPILED:
    sys.exit("millebornes: MILLEBORNES_PURE and MILLEBORNES_REQUIRE_COMPILED ask for opposite builds: unset one")


def mypyc_extensions() -> list:
    """The C extensions of COMPILED (mypyc writes their C now), or none: pure Python."""
    try:
        from mypyc.build import mypycify
    except ImportError:
        if REQUIRE_COMPILED:
            raise
        print("millebornes: mypyc not found; installing pure Python", file=sys.stderr)
        return []
    # the other modules are imported, not checked: they stay pure Python; the project's type-check settings
    # (pyproject.toml) are left out, so a stricter lint never turns a build into pure Python
    return mypycify(
        ["--config-file", os.devnull, "--follow-imports=silent", "--ignore-missing-imports", *COMPILED],
        opt_level="3",
        group_name=GROUP,
        multi_file=True,
    )


def placeholders() -> list:
    """The extensions mypyc will make, by name only: the group's library and one small module per source.
    The C is written only when build_ext runs; metadata and the sdist need none of it."""
    modules = [path[len("src/") : -len(".py")].replace("/", ".") for path in COMPILED]
    return [Extension(name, sources=[]) for name in (f"{GROUP}__mypyc", *modules)]


FALLBACK = """
millebornes: WARNING: the engine was not compiled ({reason}).
millebornes: installing the pure Python engine instead: it plays the same games, only slower.
millebornes: for the compiled engine, install a C compiler and Python's headers (Debian: apt-get install gcc
millebornes: python3-dev) and build again, or install a wheel made for your platform.
millebornes: MILLEBORNES_REQUIRE_COMPILED=1 makes this an error; MILLEBORNES_PURE=1 asks for pure Python.
"""


class CompiledBuildExt(build_ext):
    """Fills the placeholders with mypyc's extensions, then compiles them; a failed compile leaves the
    pure-Python package, with a warning, instead of no package (unless MILLEBORNES_REQUIRE_COMPILED)."""

    def run(self):
        try:
            self.translate()
            super().run()
        except Exception as exc:  # noqa: BLE001 - any compiler failure means: stay pure Python
            if REQUIRE_COMPILED:
                raise RuntimeError(
                    f"millebornes: the engine did not compile (MILLEBORNES_REQUIRE_COMPILED): {exc}"
                ) from exc
            reason = str(exc) if len(str(exc)) <= 160 else str(exc)[:160] + " ..."
            print(FALLBACK.format(reason=reason), file=sys.stderr)
            self.pure()

    def pure(self) -> None:
        """Build nothing, and let a wheel being made say it is pure: bdist_wheel decides its tag after the build
        (setuptools' get_tag reads root_is_pure then), so the fallback wheel is ``py3-none-any``, not a platform's.
        An editable install has taken its tag before the build and keeps it (it is never shared).
        Extensions compiled before the failure are removed from the build, so a wheel is wholly pure."""
        if not self.inplace and self.extensions and self.extensions[0].sources:
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
        self.extensions = []
        self.distribution.ext_modules = []
        wheel = self.distribution.command_obj.get("bdist_wheel")
        if wheel is not None and getattr(wheel, "root_is_pure", None) is False:
            wheel.root_is_pure = True

    def translate(self) -> None:
        if not self.extensions or self.extensions[0].sources:
            return
        made = {ext.name: ext for ext in mypyc_extensions()}
        if not made:
            self.pure()
            return
        if set(made) != {ext.name for ext in self.extensions}:
            raise RuntimeError(f"mypyc made {sorted(made)}, setup.py expected {[e.name for e in self.extensions]}")
        for ext in self.extensions:  # keep setuptools' bookkeeping (the _private attributes) of each
            vars(ext).update(vars(made[ext.name]))

    def build_extension(self, ext):
        """Compiles the C files side by side with the compilers known to allow it: gcc and clang (setuptools'
        unix compiler, Linux and macOS) and MSVC. MSVC sets itself up (vcvarsall) inside its first compile and
        refuses a second set-up, so threads racing there would fail the build: it is set up here, once, first.
        Any other compiler (mingw, for one) compiles one file after another, as setuptools does."""
        compiler = self.compiler
        if compiler.compiler_type == "msvc" and not compiler.initialized:
            compiler.initialize(self.plat_name)
        if compiler.compiler_type not in ("unix", "msvc"):
            super().build_extension(ext)
            return
        one_by_one = compiler.compile

        def side_by_side(sources, *args, **kwargs):
            def one(source):  # lists of its own for each call: a compiler may extend the options it is given
                return one_by_one([source], *[copy(a) for a in args], **{k: copy(v) for k, v in kwargs.items()})

            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                return [obj for objects in pool.map(one, sources) for obj in objects]

        compiler.compile = side_by_side
        try:
            super().build_extension(ext)
        finally:
            del self.compiler.compile


class BuildPyWithSchemas(build_py):
    """The package also carries the JSON Schemas of docs/ (the bot protocol's, the bot socket's, the
    observation's...) as millebornes/schemas/, which the server serves (``GET /api/schemas/NAME``): docs/ stays
    their one source, copied at each build (the sdist has docs/ too)."""

    def run(self):
        super().run()
        here = os.path.dirname(os.path.abspath(__file__))
        target = os.path.join(self.build_lib, "millebornes", "schemas")
        self.mkpath(target)
        for name in sorted(os.listdir(os.path.join(here, "docs"))):
            if name.endswith(".schema.json"):
                self.copy_file(os.path.join(here, "docs", name), os.path.join(target, name))


def pypi_description() -> str:
    """README.md with every relative link made absolute: PyPI shows it away from the repository. A page of docs/
    goes to the hosted documentation site, any other file (and the README's own headings) to the forge, at the
    release's tag (main for a .dev)."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "pyproject.toml"), "rb") as file:
        urls = tomllib.load(file)["project"]["urls"]
    with open(os.path.join(here, "src", "millebornes", "__init__.py")) as file:
        version = re.search(r'^__version__ = "([^"]+)"$', file.read(), re.M).group(1)
    ref = "main" if ".dev" in version else f"v{version}"
    site, forge = urls["Documentation"].rstrip("/"), urls["Source"].rstrip("/")

    def absolute(match: re.Match) -> str:
        target = match.group(2)
        if re.match(r"[a-z]+:", target):
            return match.group(0)
        path, _, anchor = target.partition("#")
        path = path or "README.md"  # PyPI gives the description's headings no anchors: the forge's page has them
        if path.startswith("docs/") and path.endswith(".md"):
            page = path[len("docs/") : -len(".md")]
            url = site + "/" + ("" if page == "index" else page + "/")
        elif path.startswith("docs/"):
            url = f"{site}/{path[len('docs/') :]}"
        else:
            url = f"{forge}/blob/{ref}/{path}"
        return f"{match.group(1)}({url}{'#' + anchor if anchor else ''})"

    with open(os.path.join(here, "README.md"), encoding="utf-8") as file:
        return re.sub(r"(!?\[[^\]]*\])\(([^)\s]+)\)", absolute, file.read())


setup(
    ext_modules=[] if PURE else placeholders(),
    cmdclass={"build_ext": CompiledBuildExt, "build_py": BuildPyWithSchemas},
    long_description=pypi_description(),
    long_description_content_type="text/markdown",
)
