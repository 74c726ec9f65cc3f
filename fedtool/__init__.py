"""fedtool: the fedhead's processor for play-by-mail pro-wrestling leagues."""

import os as _os  # (already imported by Python's start-up: costs nothing)

__version__ = "0.1.0"

_HERE = _os.path.dirname(_os.path.abspath(__file__))

_PURE = bool(_os.environ.get("FEDTOOL_PURE_PYTHON"))
SOURCE_MARK = ".compiled-from.sha256"  # beside a compiled module: the SHA-256 of the .py it was built from (setup.py)


def _fresh(extension: str, source: str) -> bool:
    """Whether the C extension at `extension` was built from `source` as it is now: setup.py
    writes the source's SHA-256 beside each module it compiles. A .py edited since the build
    (a developer's change, a mutation test) is then run as written, not the stale build.

    A module that cimports another compiled module (Face to the Mat's engine, the dice's
    `_Streams`) was built against that one's layout and imports only beside its build: its
    mark's further lines name each .py and .pxd it cimports with their SHA-256 (setup.py,
    `mark_text`), and it is fresh only while those are unchanged and each such module's own
    extension is fresh too. So it runs pure whenever the module it cimports does."""
    if not _os.path.exists(source):
        return True  # an install without its sources: the extension is all there is
    folder, name = _os.path.split(extension)
    try:
        with open(_os.path.join(folder, name.partition(".")[0] + SOURCE_MARK), encoding="ascii") as mark:
            recorded, *cimported = mark.read().split("\n")
        if _digest(source) != recorded.strip():
            return False
        for line in filter(None, cimported):
            path, _, digest = line.strip().rpartition(" ")  # a path from the repository's root (fedtool/kernel/dice.py)
            other = _os.path.join(_os.path.dirname(_HERE), *path.split("/"))
            if not _os.path.exists(other):
                continue  # an install without its sources, as above
            if _digest(other) != digest:
                return False
            if other.endswith(".py") and not _compiled_beside(other):
                return False
        return True
    except OSError:
        return False


def _digest(path: str) -> str:
    import hashlib

    with open(path, "rb") as text:
        return hashlib.sha256(text.read()).hexdigest()


def _compiled_beside(source: str) -> bool:
    """Whether the module whose .py is `source` runs compiled: a fresh extension beside it."""
    if _PURE:
        return False
    stem = source[: -len(".py")]
    return any(_os.path.exists(stem + suffix) and _fresh(stem + suffix, source) for suffix in _machinery.EXTENSION_SUFFIXES)


# The compiled path (setup.py's COMPILED) leaves a C extension beside some modules' .py, and
# Python's import prefers an extension. For fedtool's own folders only, this path hook finds an
# extension only when it is fresh (`_fresh`) and FEDTOOL_PURE_PYTHON is unset; otherwise the .py
# (tests/test_compiled.py plays every ruleset both ways and compares the dice, roll for roll).
import sys as _sys  # noqa: E402  (both already imported by Python's start-up)
from importlib import machinery as _machinery  # noqa: E402

_PURE_LOADERS = ((_machinery.SourceFileLoader, _machinery.SOURCE_SUFFIXES), (_machinery.SourcelessFileLoader, _machinery.BYTECODE_SUFFIXES))


class _Finder(_machinery.FileFinder):
    def __init__(self, path: str) -> None:
        super().__init__(path, (_machinery.ExtensionFileLoader, _machinery.EXTENSION_SUFFIXES), *_PURE_LOADERS)
        self._pure = _machinery.FileFinder(path, *_PURE_LOADERS)

    def find_spec(self, fullname, target=None):
        spec = super().find_spec(fullname, target)
        if spec is not None and isinstance(spec.loader, _machinery.ExtensionFileLoader):
            if _PURE or not _fresh(spec.origin, _os.path.join(self.path, fullname.rpartition(".")[2] + ".py")):
                return self._pure.find_spec(fullname, target)
        return spec

    def invalidate_caches(self) -> None:
        super().invalidate_caches()
        self._pure.invalidate_caches()


def _fedtool_finder(path: str):
    if path != _HERE and not path.startswith(_HERE + _os.sep):
        raise ImportError  # not fedtool's: the next hook finds it as usual
    return _Finder(path)


_sys.path_hooks.insert(0, _fedtool_finder)
for _path in [p for p in _sys.path_importer_cache if p == _HERE or p.startswith(_HERE + _os.sep)]:
    del _sys.path_importer_cache[_path]


def compiled_modules() -> list[str]:
    """fedtool's modules this process runs compiled (built as C extensions by setup.py; none
    under FEDTOOL_PURE_PYTHON=1, nor one whose .py changed since it was built): a module imported already counts as it was loaded, one not yet
    imported as it would be."""
    import sys
    from importlib.machinery import EXTENSION_SUFFIXES

    found = []
    for folder, dirs, files in _os.walk(_HERE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        package = ".".join(["fedtool", *[p for p in _os.path.relpath(folder, _HERE).split(_os.sep) if p != "."]])
        for name in files:
            suffix = next((s for s in EXTENSION_SUFFIXES if name.endswith(s)), None)
            if suffix is None:
                continue
            module = f"{package}.{name[: -len(suffix)]}"
            loaded = sys.modules.get(module)
            if loaded is not None:
                if (getattr(loaded, "__file__", "") or "").endswith(suffix):
                    found.append(module)
            elif not _PURE and _fresh(_os.path.join(folder, name), _os.path.join(folder, name[: -len(suffix)] + ".py")):
                found.append(module)
    return sorted(found)
