"""fedtool's build: the pure-Python package, and where Cython and a C compiler are at hand, the
modules in COMPILED built as C extensions beside their .py (docs/architecture.md, "The compiled
path"). Everything else is in pyproject.toml.

The compiled path is optional, roll for roll the same as the pure one: when Cython is missing
(an install with no build isolation and no Cython), the C compiler is missing or fails, or
FEDTOOL_PURE_PYTHON=1 is set, the build warns and installs pure Python, which runs unchanged
(the .py files never import Cython; a `.pxd` beside a module types it for Cython only).

A compiled module may `cimport` another (Face to the Mat's engine.pxd cimports the dice's
`_Streams`, to roll as C): built against that one's layout, it cannot run beside that one's .py.
So it is built only when the module it cimports was (translated and compiled in this build),
after it; and its mark (below) holds, beside its own .py's SHA-256, the SHA-256 of each .py and
.pxd it cimports: fedtool runs it compiled only while those are unchanged and the module it
cimports runs compiled itself (fedtool/__init__.py, `_fresh`). An edited dice.py, a dice that
failed to build, FEDTOOL_PURE_PYTHON: the engine runs pure with it, never half and half."""

from __future__ import annotations

import hashlib
import os
import re
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


_CIMPORT = re.compile(r"^\s*(?:from\s+(fedtool(?:\.\w+)+)\s+cimport\b|cimport\s+(fedtool(?:\.\w+)+))", re.MULTILINE)


def cimported(path: str) -> list[str]:
    """The modules of COMPILED (as paths) that the module at `path` cimports, read from its .pxd and .py."""
    found = []
    for source in (path.removesuffix(".py") + ".pxd", path):
        if os.path.exists(source):
            with open(source, encoding="utf-8") as text:
                for match in _CIMPORT.finditer(text.read()):
                    other = (match.group(1) or match.group(2)).replace(".", "/") + ".py"
                    if other in COMPILED and other != path and other not in found:
                        found.append(other)
    return found


def mark_text(path: str) -> str:
    """What setup.py writes beside a module it built (fedtool/__init__.py `_fresh` reads it): the
    SHA-256 of its .py; then, one a line, each .py and .pxd of the modules it cimports, as its
    path from the repository's root and its SHA-256."""
    lines = [_digest(path)]
    for other in cimported(path):
        for source in (other, other.removesuffix(".py") + ".pxd"):
            if os.path.exists(source):
                lines.append(f"{source} {_digest(source)}")
    return "\n".join(lines) + "\n"


def _digest(path: str) -> str:
    with open(path, "rb") as text:
        return hashlib.sha256(text.read()).hexdigest()


def _path(ext: Extension) -> str:
    return ext.name.replace(".", "/") + ".py"


def _warn(text: str) -> None:
    print(f"\nWARNING: fedtool: {text}; installing pure Python (the same results, slower)\n", file=sys.stderr, flush=True)


class OptionalBuildExt(build_ext):
    """build_ext that never fails the install: Cython's translation and each module's C build are
    tried, and whatever fails is left to its .py. Two C compilations at a time (`-j 2`)."""

    def finalize_options(self) -> None:
        self.distribution.ext_modules = self._translated(self.distribution.ext_modules or [])
        super().finalize_options()
        self._built: set = set()  # the modules built (their paths), each once its mark is written
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
        except Exception:  # noqa: BLE001 - then one at a time, to keep whatever can be compiled
            done = []
            for ext in extensions:  # a module Cython cannot translate stays pure, the others are built
                try:
                    done += cythonize([ext], compiler_directives=DIRECTIVES, build_dir="build/cython", quiet=True)
                except Exception as exc:  # noqa: BLE001 - any failure of the optional path falls back
                    _warn(f"Cython could not translate {ext.name} ({exc})")
        kept = OptionalBuildExt._with_what_they_cimport(done, "translated")
        # setuptools' own Extension (cythonize may hand back another); optional: one not built is not copied in place
        return [Extension(ext.name, list(ext.sources), optional=True) for ext in kept]

    @staticmethod
    def _with_what_they_cimport(extensions: list, done: str) -> list:
        """The extensions whose cimported modules are among them (a module that cimports one left
        pure would not import): the others are left pure, with a warning."""
        kept = list(extensions)
        while True:
            names = {_path(ext) for ext in kept}
            lacking = [ext for ext in kept if not set(cimported(_path(ext))) <= names]
            if not lacking:
                return kept
            for ext in lacking:
                _warn(f"{ext.name} cimports {', '.join(sorted(set(cimported(_path(ext))) - names))}, which was not {done}, so it is not built")
            kept = [ext for ext in kept if ext not in lacking]

    def build_extensions(self) -> None:
        """Those that cimport no other compiled module first, then the others, each only if what
        it cimports was built (`mark_text`; fedtool/__init__.py `_fresh` checks it again at import)."""
        every = list(self.extensions)
        left = every
        try:
            while left:  # in rounds: a module after those it cimports
                waiting = {_path(ext) for ext in left}
                ready = [ext for ext in left if not set(cimported(_path(ext))) & waiting] or left  # (a cycle: built as it comes)
                for ext in ready:
                    lacking = sorted(set(cimported(_path(ext))) - self._built)
                    if lacking:
                        _warn(f"{ext.name} cimports {', '.join(lacking)}, which was not built, so it is not built either")
                self.extensions = [ext for ext in ready if set(cimported(_path(ext))) <= self._built]
                super().build_extensions()
                left = [ext for ext in left if ext not in ready]
        finally:
            self.extensions = [ext for ext in every if _path(ext) in self._built]  # what is copied in place

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
        # the source it was built from, by its SHA-256 beside it (and those of what it cimports):
        # fedtool (fedtool/__init__.py, `_fresh`) runs a module's .py instead of its build once they changed
        with open(self._mark(self.get_ext_fullpath(ext.name), ext), "w", encoding="ascii") as mark:
            mark.write(mark_text(_path(ext)))
        self._built.add(_path(ext))

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
