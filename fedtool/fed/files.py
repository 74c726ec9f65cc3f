"""Writing the fed's folders so that a crash leaves the old contents or the new, never half.

`StagedDir` builds a folder's new contents beside it and swaps it in with renames (a week's
outbox, the site); `atomic_write` replaces one file through a temporary file and a rename.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def atomic_write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class StagedDir:
    """Build a folder's new contents beside it, then swap it in with renames.

    `keep` names subfolders of the old folder carried into the new one (the week's
    announcements survive its run). If anything fails before `__exit__` completes
    cleanly, the old folder is put back and the staging folder removed.
    """

    def __init__(self, final: Path, keep: tuple[str, ...] = ()):
        self.final = final
        self.keep = keep
        self.backup: Path | None = None
        self.swapped = False

    def __enter__(self) -> "StagedDir":
        self.final.parent.mkdir(parents=True, exist_ok=True)
        self.recover()
        self.path = Path(tempfile.mkdtemp(prefix=f".{self.final.name}.new-", dir=self.final.parent))
        return self

    def recover(self) -> None:
        """Tidy what a killed process left beside the folder (the caller holds the fed's lock,
        so nobody else is building it): a staging folder is dropped; an old folder moved
        aside comes back if the new one never took its place, else it is dropped."""
        parent, name = self.final.parent, self.final.name
        for stale in parent.glob(f".{name}.new-*"):
            shutil.rmtree(stale, ignore_errors=True)
        for old in sorted(parent.glob(f".{name}.old-*")):
            if not self.final.exists():
                old.rename(self.final)
            else:
                shutil.rmtree(old, ignore_errors=True)

    def write(self, name: str, content: str) -> None:
        target = self.path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")

    def swap(self) -> None:
        if self.final.exists():
            self.backup = Path(tempfile.mkdtemp(prefix=f".{self.final.name}.old-", dir=self.final.parent))
            self.backup.rmdir()
            self.final.rename(self.backup)
        self.path.rename(self.final)
        self.swapped = True
        if self.backup:
            for name in self.keep:
                if (self.backup / name).exists() and not (self.final / name).exists():
                    (self.backup / name).rename(self.final / name)

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            if self.backup:
                shutil.rmtree(self.backup, ignore_errors=True)
            return
        if self.swapped:
            if self.backup:
                for name in self.keep:
                    if (self.final / name).exists() and not (self.backup / name).exists():
                        (self.final / name).rename(self.backup / name)
            self.final.rename(self.path)
            if self.backup:
                self.backup.rename(self.final)
        shutil.rmtree(self.path, ignore_errors=True)
