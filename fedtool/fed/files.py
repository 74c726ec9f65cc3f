"""Writing the fed's folders so that a crash leaves the old contents or the new, never half.

`StagedDir` builds a folder's new contents beside it (`.NAME.new-*`) and swaps it in with
renames (a week's outbox, an exhibition, the site); `settle` finishes or undoes a swap a
killed process left, and drops its leftovers; `atomic_write` replaces one file through a
temporary file and a rename.

A week's outbox is decided by the league, not by the folder: its staging folder is named
for the run it holds (`.week-NN.new-run2-*`), completed and flushed to disk (`seal`)
before the league commits, and swapped in after. Whatever a kill leaves, `settle` makes
the outbox follow the league: the staging of the run the league holds is swapped in, any
other is dropped (fedtool.week.run.settle_outbox).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def umask() -> int:
    """The process's umask (read by setting it and putting it back: there is no other portable way)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path: Path, data: str | bytes) -> None:
    """Replace `path` with `data` (text written as UTF-8) whole: a temporary file beside it,
    `.NAME.` and eight random characters (a dot name no reader of the folder takes), then
    a rename. The file gets the mode any new file gets (0644 under the usual umask 022),
    not mkstemp's private 0600 (issue 19). A process killed mid-write leaves the temporary
    file: `half_written` finds it for the next writer, under the fed's lock, to remove."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def half_written(folder: Path, name: str = "*") -> list[Path]:
    """The temporary files `atomic_write` left in `folder` when killed while writing a file
    named `name` (a glob pattern): only a writer holding the fed's lock may remove them, as
    no other can be writing them then."""
    return [path for path in folder.glob(f".{name}.{'[a-z0-9_]' * 8}") if path.is_file()]


NEW, OLD = ".new-", ".old-"  # a folder's staging (.NAME.new-*) and the old one moved aside (.NAME.old-*)


def overlapping(target: Path, folders: list[Path]) -> Path | None:
    """The first of `folders` that `target` lies inside, is, or holds (as resolved), or None:
    a folder replaced whole (an export, a site) must never take a fed's inputs with it."""
    target = target.resolve()
    for folder in folders:
        folder = folder.resolve()
        if target == folder or folder in target.parents or target in folder.parents:
            return folder
    return None


def leftovers(final: Path) -> list[Path]:
    """The staging and moved-aside folders of `final` a swap made or left beside it."""
    parent, name = final.parent, final.name
    if not parent.is_dir():
        return []
    return sorted(p for p in parent.iterdir() if p.name.startswith((f".{name}{NEW}", f".{name}{OLD}")))


def settle(final: Path, decided: str | None = None) -> None:
    """Finish or undo an interrupted swap of `final`, and drop what it left beside it.

    `decided` names the staging that holds the truth (its tag, as given to `StagedDir`):
    that staging folder, if it is still there, is swapped in; every other staging folder
    is dropped. Then a folder moved aside (.NAME.old-*) is dropped once `final` is in place,
    or put back if `final` is missing (a swap killed between its two renames, undecided).
    The caller holds the fed's lock, so nobody else is building the folder."""
    parent, name = final.parent, final.name
    chosen = None
    for path in leftovers(final):
        if not path.name.startswith(f".{name}{NEW}"):
            continue
        tag = path.name[len(f".{name}{NEW}"):]
        if decided is not None and chosen is None and (tag == decided or tag.startswith(f"{decided}-")):
            chosen = path
        else:
            shutil.rmtree(path, ignore_errors=True)
    if chosen is not None:
        if final.exists() or final.is_symlink():
            final.rename(_aside(final))
        chosen.rename(final)
        _sync_path(parent)
    for old in leftovers(final):  # only .old-* are left now
        if final.exists() or final.is_symlink():
            shutil.rmtree(old, ignore_errors=True)
        else:
            old.rename(final)


def _aside(final: Path) -> Path:
    """A new, unused name to move `final` aside to (.NAME.old-*)."""
    path = Path(tempfile.mkdtemp(prefix=f".{final.name}{OLD}", dir=final.parent))
    path.rmdir()
    return path


def _sync_path(path: Path) -> None:
    """Flush one file or folder to disk (a folder: its entries, the names created or
    renamed in it)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_all(paths: list[Path]) -> None:
    """Flush every file and folder of `paths` to disk, several at once (threads: an fsync
    waits for the disk with the GIL released); the first error met is raised once all have
    ended. Plain threads, not concurrent.futures (20 ms to import, with logging)."""
    _start_sync(paths, own=True)()


def _start_sync(paths: list[Path], own: bool = False):
    """Start flushing `paths` (as `_sync_all`) and return the function that waits for every
    flush to end and raises the first error met. `own`: this thread flushes too, before it
    returns; else only the threads started, and the caller's thread is free meanwhile."""
    import threading

    errors: list[BaseException] = []
    pending = list(reversed(paths))

    def work() -> None:
        while True:
            try:
                path = pending.pop()
            except IndexError:
                return
            try:
                _sync_path(path)
            except BaseException as exc:  # raised in the caller's thread below
                errors.append(exc)

    threads = [threading.Thread(target=work, daemon=True) for _ in range(min(SYNC_THREADS, len(paths)) - (1 if own else 0))]
    for thread in threads:
        thread.start()
    if own:
        work()  # this thread flushes too

    def wait() -> None:
        for thread in threads:
            thread.join()
        if errors:
            raise errors[0]

    return wait


SYNC_THREADS = 16  # flushes waiting at once: enough for a week's outbox to go in one or two of the file system's commits


class StagedDir:
    """Build a folder's new contents beside it, then swap it in with renames.

    Plain use (the site, an exhibition, a week's announcements): write, then `swap`; if
    anything fails first, the old folder stays and the staging folder is removed.

    Decided by a record (a week's run): give a `tag` (the staging is `.NAME.new-TAG-*`),
    write, `seal` (copies the `keep` subfolders of the old folder in, e.g. the week's
    announcements, and flushes everything to disk), commit the record, then `swap`. From
    `seal` on, a failure leaves the staging folder where it is, for `settle(final, TAG)` to
    swap in if the record was committed, or to drop if it was not.
    """

    def __init__(self, final: Path, keep: tuple[str, ...] = (), tag: str | None = None):
        self.final = final
        self.keep = keep
        self.tag = tag
        self.sealed = False
        self.written: list[Path] = []
        self.flushing = None  # `flush`'s wait, once started

    def __enter__(self) -> "StagedDir":
        self.final.parent.mkdir(parents=True, exist_ok=True)
        if self.tag is None:
            settle(self.final)  # a killed build's leftovers (a tagged folder's are settled by its record's owner)
        prefix = f".{self.final.name}{NEW}" + (f"{self.tag}-" if self.tag else "")
        self.path = Path(tempfile.mkdtemp(prefix=prefix, dir=self.final.parent))
        self.folders = {self.path}  # the folders made in it
        # mkdtemp makes the folder private (0700); the folder it becomes (a site, an outbox
        # week) is read by others, a web server running as another user: the mode any new
        # folder gets, 0755 under the usual umask 022 (issue 19)
        os.chmod(self.path, 0o777 & ~umask())
        return self

    def write(self, name: str, content: str) -> None:
        target = self.path / name
        if target.parent not in self.folders:  # each folder made once, not once a file
            target.parent.mkdir(parents=True, exist_ok=True)
            self.folders.add(target.parent)
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(content)
        self.written.append(target)

    def flush(self) -> None:
        """Complete the staging folder (the old folder's `keep` subfolders, as hard links
        where the file system allows) and start flushing it to disk in the background, so
        the caller's work (the league's rows) goes on while the disk writes; `seal` waits
        for it. Nothing may be written to the staging folder after this."""
        if self.flushing is not None:
            return
        for name in self.keep:
            source = self.final / name
            if source.is_dir() and not (self.path / name).exists():
                shutil.copytree(source, self.path / name, copy_function=_link_or_copy)
        # every file and folder is flushed, as before, but side by side: an fsync waits for
        # the disk, not the processor, and the file system commits the flushes waiting
        # together at once (issue 18: a week's 24 files flushed one by one were 40-90 ms
        # of a run on ext4; together, about 4 ms). All have returned before `seal` does.
        self.flushing = _start_sync([*self.written, *(Path(folder) for folder, _, _ in os.walk(self.path))])

    def seal(self) -> None:
        """Complete the staging folder and flush it to disk (every file written, every
        folder's entries, the folder it lands in), `flush` started first if it was not:
        once this returns, the staging folder can stand for the folder whatever happens
        next, a power cut included."""
        self.flush()
        self.flushing()
        _sync_path(self.final.parent)
        self.sealed = True

    def _flushed(self) -> None:
        """Wait for a flush started and not waited for (its errors are not the caller's)."""
        if self.flushing is not None and not self.sealed:
            try:
                self.flushing()
            except OSError:
                pass

    def swap(self) -> None:
        """Put the staging folder in the folder's place; the old one is dropped."""
        settle(self.final, self.path.name[len(f".{self.final.name}{NEW}"):])

    def __exit__(self, exc_type, exc, tb) -> None:
        self._flushed()  # no flush left running in a folder that may be dropped next
        if exc_type is None or self.sealed and self.tag is not None:
            return  # swapped; or sealed and decided elsewhere (settle)
        shutil.rmtree(self.path, ignore_errors=True)
        settle(self.final)  # a swap stopped between its renames: the old folder back


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)
