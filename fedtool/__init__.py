"""fedtool: the fedhead's processor for play-by-mail pro-wrestling leagues."""

import os as _os  # (already imported by Python's start-up: costs nothing)

__version__ = "0.1.0"

_HERE = _os.path.dirname(_os.path.abspath(__file__))

if _os.environ.get("FEDTOOL_PURE_PYTHON"):
    # The compiled path (setup.py's COMPILED) leaves a C extension beside some modules' .py, and
    # Python's import prefers the extension. FEDTOOL_PURE_PYTHON=1 imports the .py instead: a path
    # hook that, for fedtool's own folders only, finds source and bytecode but no extension
    # (tests/test_compiled.py plays every ruleset both ways and compares the dice, roll for roll).
    import sys as _sys
    from importlib import machinery as _machinery

    def _pure_finder(path: str):
        if path != _HERE and not path.startswith(_HERE + _os.sep):
            raise ImportError  # not fedtool's: the next hook finds it as usual
        return _machinery.FileFinder(path, (_machinery.SourceFileLoader, _machinery.SOURCE_SUFFIXES),
                                     (_machinery.SourcelessFileLoader, _machinery.BYTECODE_SUFFIXES))

    _sys.path_hooks.insert(0, _pure_finder)
    for _path in [p for p in _sys.path_importer_cache if p == _HERE or p.startswith(_HERE + _os.sep)]:
        del _sys.path_importer_cache[_path]


def compiled_modules() -> list[str]:
    """fedtool's modules this process runs compiled (built as C extensions by setup.py; none
    under FEDTOOL_PURE_PYTHON=1): a module imported already counts as it was loaded, one not yet
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
            elif not _os.environ.get("FEDTOOL_PURE_PYTHON"):
                found.append(module)
    return sorted(found)
