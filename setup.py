"""Build: the engine and the playout policy are compiled with mypyc, which makes search playouts about
seven times faster (bench/search.py).  The compiled modules are the same source as the pure-Python
ones, so legality keeps its one home.  Where no C compiler works, or with MILLEBORNES_PURE=1, the
package installs as pure Python and behaves the same, only slower.

After editing one of COMPILED, rebuild (``make build``, which reads the list below): an extension
module is imported in preference to its source, and ``millebornes`` warns when the compiled engine is
older than one of them.
"""

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "src/millebornes/cards.py",
    "src/millebornes/actions.py",
    "src/millebornes/observe.py",
    "src/millebornes/state.py",
    "src/millebornes/determinize.py",
    "src/millebornes/bots/rollout.py",
]


class OptionalBuildExt(build_ext):
    """A failed compile leaves the pure-Python package, with a warning, instead of no package."""

    def run(self):
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any compiler failure means: stay pure Python
            print(f"millebornes: not compiled ({exc}); installing pure Python", file=sys.stderr)
            self.extensions = []


def ext_modules():
    if os.environ.get("MILLEBORNES_PURE"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("millebornes: mypyc not found; installing pure Python", file=sys.stderr)
        return []
    # the other modules are imported, not checked: they stay pure Python
    return mypycify(["--follow-imports=silent", "--ignore-missing-imports", *COMPILED],
                    opt_level="3", group_name="millebornes_core")


setup(ext_modules=ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
