"""fedtool's build: the pure-Python package, and where Cython and a C compiler are at hand, the
modules in COMPILED built as C extensions beside their .py (docs/architecture.md, "The compiled
path"). Everything else is in pyproject.toml.

The compiled path is optional, roll for roll the same as the pure one: when Cython is missing
(an install with no build isolation and no Cython), the C compiler is missing or fails, or
FEDTOOL_PURE_PYTHON=1 is set, the build warns and installs pure Python, which runs unchanged
(the .py files never import Cython; a `.pxd` beside a module types it for Cython only)."""

from __future__ import annotations

import hashlib
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The modules compiled (paths from the repository's root); each keeps its .py, the pure fallback.
# tests/test_compiled.py plays every ruleset compiled and pure and finds this list itself.
SOURCE_MARK = ".compiled-from.sha256"  # fedtool.SOURCE_MARK: setup.py cannot import the package it builds

COMPILED = [
    "fedtool/kernel/dice.py",
    "fedtool/rulesets/facemat/engine.py",
    "fedtool/rulesets/facemat/royale.py",
    "fedtool/rulesets/matclash/cards.py",
    "fedtool/rulesets/matclash/engine.py",
    "fedtool/rulesets/matclash/policy.py",
    "fedtool/rulesets/madmatch/engine.py",
    "fedtool/rulesets/madmatch/solitaire.py",
    "fedtool/rulesets/madmatch/strategy.py",
]

DIRECTIVES = {
    "language_level": 3,
    "annotation_typing": False,  # a hint such as `cards: list` must not turn into a type check (a range is passed): types go in .pxd files
    "binding": True,  # functions stay introspectable, picklable and patchable like Python's
}


def _warn(text: str) -> None:
    print(f"\nWARNING: fedtool: {text}; installing pure Python (the same results, slower)\n", file=sys.stderr, flush=True)


class OptionalBuildExt(build_ext):
    """build_ext that never fails the install: Cython's translation and each module's C build are
    tried, and whatever fails is left to its .py. Two C compilations at a time (`-j 2`)."""

    def finalize_options(self) -> None:
        self.distribution.ext_modules = self._translated(self.distribution.ext_modules or [])
        super().finalize_options()
        if not self.parallel:
            self.parallel = 2

    @staticmethod
    def _translated(extensions: list) -> list:
        """The extensions with their .py translated to C by Cython, or none (the fallback)."""
        if not extensions or os.environ.get("FEDTOOL_PURE_PYTHON"):
            if extensions:
                print("fedtool: FEDTOOL_PURE_PYTHON is set: nothing compiled", file=sys.stderr)
            return []
        try:
            from Cython.Build import cythonize
        except ImportError:
            _warn("Cython is not installed, so nothing is compiled")
            return []
        try:  # all at once, two processes
            done = cythonize(extensions, compiler_directives=DIRECTIVES, build_dir="build/cython", nthreads=2, quiet=True)
            return [Extension(ext.name, list(ext.sources)) for ext in done]  # setuptools' own Extension (cythonize may hand back another)
        except Exception:  # noqa: BLE001 - then one at a time, to keep whatever can be compiled
            pass
        done = []
        for ext in extensions:  # a module Cython cannot translate stays pure, the others are built
            try:
                done += cythonize([ext], compiler_directives=DIRECTIVES, build_dir="build/cython", quiet=True)
            except Exception as exc:  # noqa: BLE001 - any failure of the optional path falls back
                _warn(f"Cython could not translate {ext.name} ({exc})")
        return [Extension(ext.name, list(ext.sources)) for ext in done]  # setuptools' own Extension (cythonize may hand back another)

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - no C compiler at all, a broken toolchain
            _warn(f"the C build failed ({exc})")

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001 - this module stays pure Python
            _warn(f"{ext.name} could not be compiled ({exc})")
            return
        # the source it was built from, by its SHA-256 beside it: fedtool (fedtool/__init__.py, `_fresh`)
        # runs a module's .py instead of its build once the .py has changed
        with open(ext.name.replace(".", "/") + ".py", "rb") as text:
            digest = hashlib.sha256(text.read()).hexdigest()
        with open(self._mark(self.get_ext_fullpath(ext.name), ext), "w", encoding="ascii") as mark:
            mark.write(digest + "\n")

    @staticmethod
    def _mark(built: str, ext: Extension) -> str:
        return os.path.join(os.path.dirname(built), ext.name.rpartition(".")[2] + SOURCE_MARK)

    def copy_extensions_to_source(self) -> None:
        """An in-place (editable) build: each module's mark goes beside it too."""
        super().copy_extensions_to_source()
        build_py = self.get_finalized_command("build_py")
        for ext in self.extensions:
            built = self._mark(os.path.join(self.build_lib, self.get_ext_filename(ext.name)), ext)
            if os.path.exists(built):
                package, _, _ = ext.name.rpartition(".")
                self.copy_file(built, self._mark(os.path.join(build_py.get_package_dir(package), "x"), ext), level=self.verbose)


def _extension(path: str) -> Extension:
    return Extension(path.removesuffix(".py").replace("/", "."), [path])


setup(ext_modules=[_extension(path) for path in COMPILED], cmdclass={"build_ext": OptionalBuildExt})
