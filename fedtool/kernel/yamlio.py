"""YAML reading that remembers line numbers, so every error can name its line.

Player files are untrusted: aliases are refused (no "billion laughs"), size is capped,
and only plain data (mappings, lists, scalars) is built.

A file read again (`load_yaml`, `parse_yaml(..., keep=True)`: sheets, settings, cards, strategy
files) is parsed once: what the parse built is kept in the user's cache (`fedtool.kernel.checked`)
as its shape alone, each value a place in the text, and the next read of the very same text
rebuilds it from the text without PyYAML (issue 18: a week's run imports no YAML parser).
"""

from __future__ import annotations

import contextvars
import os
import re
import stat
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from . import checked
from .errors import FedError, Problem

MAX_YAML_BYTES = 1_000_000


class LineDict(dict):
    """A dict that knows the line of itself, of each of its values (`lines`) and of each of
    its keys (`key_lines`: where a block value starts on the line after its key)."""

    line: int = 0
    lines: dict
    key_lines: dict


class LineList(list):
    """A list that knows the line of itself and of each of its items."""

    line: int = 0
    lines: list


@lru_cache(maxsize=None)
def loader() -> type:
    """fedtool's YAML loader (a safe loader, LibYAML's parser when it is there, that refuses
    aliases and builds `LineDict`s and `LineList`s), made when first asked for: PyYAML is
    imported only by a command that parses YAML or writes it."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # LibYAML's parser when it is there

    class Loader(base):
        fast_scalars = True  # `construct_object`'s shortcut for plain scalars (tests/test_run_work.py turns it off to compare)

        def construct_object(self, node, deep=False):
            # An alias is the same node met again: refuse it (no "billion laughs" expansions).
            constructed = self.constructed_objects
            if node in constructed or node in self.recursive_objects:
                raise yaml.MarkedYAMLError(None, None, "anchors and aliases (&name, *name) are not allowed in fedtool files", node.start_mark)
            if node.__class__ is yaml.ScalarNode and self.fast_scalars:
                # a scalar of a standard tag built by its constructor directly, as PyYAML's
                # construct_object would (none of them is a generator or recurses), without its
                # bookkeeping calls: most of a sheet's or a strategy's nodes (issue 18)
                make = scalar_constructors.get(node.tag)
                if make is not None:
                    data = constructed[node] = node.value if make is plain_str else make(self, node)
                    return data
            return super().construct_object(node, deep=deep)

        def construct_mapping(self, node, deep=False):
            if not isinstance(node, yaml.MappingNode):
                return super().construct_mapping(node, deep)
            result = LineDict()
            result.line = node.start_mark.line + 1
            result.lines = {}
            result.key_lines = {}
            for key_node, value_node in node.value:
                key = self.construct_object(key_node, deep=True)
                try:
                    hash(key)
                except TypeError:
                    raise yaml.MarkedYAMLError(
                        None, None, "a key must be a plain value", key_node.start_mark
                    ) from None
                if key in result:
                    raise yaml.MarkedYAMLError(
                        None, None, f"the key {key!r} appears twice", key_node.start_mark
                    )
                result[key] = self.construct_object(value_node, deep=True)
                result.lines[key] = value_node.start_mark.line + 1
                result.key_lines[key] = key_node.start_mark.line + 1
            return result

        def construct_sequence(self, node, deep=False):
            if not isinstance(node, yaml.SequenceNode):
                raise yaml.MarkedYAMLError(None, None, "expected a list here", node.start_mark)
            result = LineList(self.construct_object(child, deep=True) for child in node.value)
            result.line = node.start_mark.line + 1
            result.lines = [child.start_mark.line + 1 for child in node.value]
            return result

        def construct_yaml_timestamp(self, node):
            # a date that does not exist (30 February, hour 25) is a mistake at its line, not a crash
            try:
                return super().construct_yaml_timestamp(node)
            except (ValueError, OverflowError) as exc:
                raise yaml.MarkedYAMLError(None, None, f"{node.value!r} is not a date that exists ({exc})", node.start_mark) from None

    Loader.add_constructor("tag:yaml.org,2002:timestamp", Loader.construct_yaml_timestamp)
    Loader.add_constructor("tag:yaml.org,2002:map", Loader.construct_mapping)
    Loader.add_constructor("tag:yaml.org,2002:seq", Loader.construct_sequence)
    plain_str = yaml.constructor.SafeConstructor.construct_yaml_str  # a str scalar's data is its value (construct_scalar)
    # the scalar tags `construct_object` builds directly: each with the constructor the loader has for it
    scalar_constructors = {tag: Loader.yaml_constructors[tag] for tag in
                           ("tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null",
                            "tag:yaml.org,2002:float")
                           if tag in Loader.yaml_constructors}
    return Loader


MAX_DEPTH = 1000  # no fedtool file nests a tenth as deep; LibYAML and the constructors crash far deeper
_BRACKETS = re.compile(r"[\[\]{}]")
_QUOTED = re.compile(r"'[^'\n]*'|\"(?:[^\"\\\n]|\\.)*\"")
_INDICATORS = re.compile(r"^(?:[ \t]*[-?:](?:[ \t]+|$))+", re.MULTILINE)  # compact block nesting: `- - x`, `? ? x`, `- ? - x`, `: - x`


def nesting_depth(text: str) -> int:
    """How deep `text` nests collections, as far as it can tell without parsing: flow
    brackets (outside quoted strings) and compact block collections opened on one line
    (`- - - x`, explicit keys `? ? x`, `- ? - ? x`, values `: - x`). Read before the
    parser, which a mail nested a hundred thousand deep would crash (a signal, not an error)."""
    depth = deepest = 0
    for mark in _BRACKETS.finditer(_QUOTED.sub("", text)):
        depth = depth + 1 if mark.group() in "[{" else max(0, depth - 1)
        deepest = max(deepest, depth)
    dashes = max((len(re.findall(r"[-?:]", m.group())) for m in _INDICATORS.finditer(text)), default=0)
    return max(deepest, dashes)


_KEEPING: contextvars.ContextVar[bool] = contextvars.ContextVar("fedtool_yaml_keeping", default=True)


@contextmanager
def read_once() -> Iterator[None]:
    """Within: no parse is kept, `keep` or not: for texts read once, whose entries would only
    cost (mail intake's strategies, one new text a mail: keeping each cost a 1,000-mail intake
    a quarter of its time; the run that reads them as files keeps them then). Worker processes
    forked within inherit it."""
    token = _KEEPING.set(False)
    try:
        yield
    finally:
        _KEEPING.reset(token)


def parse_yaml(text: str, file: str | Path, keep: bool = False) -> Any:
    """Parse YAML text; a syntax error becomes a FedError naming the file and line.

    `keep`: the text is a file's that will be read again (a sheet, a strategy file, the
    settings): a parse of the very same text made before (by any command) is rebuilt from
    what the cache kept (`_kept`), and this one is kept when it is new."""
    keep = keep and _KEEPING.get()
    if keep:
        key = kept_key(text)
        kept = checked.recall(key, plain=True)
        if kept is not None:
            try:
                return _rebuilt(kept["yaml"], text[kept["skip"]:] if "skip" in kept else text)
            except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
                pass  # an entry of another shape: the text is parsed
    if nesting_depth(text) > MAX_DEPTH:
        raise FedError(Problem(str(file), None, f"broken YAML: nested more than {MAX_DEPTH:,} levels deep", "YAML syntax"))
    data, node = _parsed(text, file)
    if keep:
        # a text that opens with a byte-order mark: LibYAML skips the mark and counts the places
        # after it (PyYAML's own reader counts it); the entry says which (`skip`)
        for skip in (0, 1) if text[:1] == "\ufeff" else (0,):
            form = _kept(node, data, text[skip:] if skip else text)
            if form is not None:
                checked.remember(key, {"yaml": form, "skip": 1} if skip else {"yaml": form}, plain=True)
                break
    return data


def kept_key(text: str) -> checked.Sealed:
    """The name of the entry that keeps the parse of `text`, sealed by the text itself: the
    entry says nothing to a reader without the file (`fedtool.kernel.checked`, sealed entries)."""
    return checked.sealed(checked.digest("yaml", text), text.encode("utf-8", "surrogatepass"))


def _parsed(text: str, file: str | Path) -> tuple[Any, Any]:
    """The data of `text` and the node tree it was built from (PyYAML's `load`, the node kept)."""
    import yaml

    parser = loader()(text)
    try:
        node = parser.get_single_node()
        return (parser.construct_document(node) if node is not None else None), node
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        place = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        message = exc.problem or exc.context or "cannot be read"
        raise FedError(Problem(str(file), place, f"broken YAML: {message}", "YAML syntax")) from None
    except yaml.YAMLError as exc:
        raise FedError(Problem(str(file), None, f"broken YAML: {exc}", "YAML syntax")) from None
    except RecursionError:
        raise FedError(Problem(str(file), None, "broken YAML: nested too deeply", "YAML syntax")) from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        # PyYAML's constructors raise these for values they cannot build: a date that does
        # not exist, a 5,000-digit number, an explicit tag on the wrong kind of value
        raise FedError(Problem(str(file), None, f"broken YAML: a value cannot be read ({exc})", "YAML syntax")) from None
    finally:
        parser.dispose()


# ---------------------------------------------------------------- a parse kept as its shape
#
# What is kept of a parse holds no value of the file's (a sheet holds its owner's address, a
# strategy is secret until the run, the settings hold a password): only its shape, the lines
# the parse gave, and where in the text each value is. A mapping is {"m": [line, keys, values,
# value lines, key lines]}, a list {"s": [line, items, lines]}; a string is [start, end], the
# place of its characters in the text, or, written otherwise (quoted with escapes, folded over
# lines, a block), {"t": pieces}: the places of its parts and the blanks between them
# (`_pieces`); a whole number, a decimal and a yes/no are ["i" | "f" | "b", start, end], the
# place of the scalar they were read from, read again the way YAML read it (`_rebuilt`); a
# null is null. A parse that holds anything else (a date; a string with a character its text
# does not hold, an escaped one) or that the rebuild would not give back the same, value for
# value, type for type and line for line (`_same`), is not kept: that text is parsed every
# time.

_BOOLS = {"yes": True, "true": True, "on": True, "no": False, "false": False, "off": False}  # YAML 1.1's, as PyYAML reads them


class _NotKept(Exception):
    pass


def _kept(node: Any, data: Any, text: str) -> Any:
    """The kept form of the parse (`data`, built from `node`), or None when it cannot be kept."""
    try:
        form = _form(node, data, text)
        if _same(_rebuilt(form, text), data):
            return form
    except (_NotKept, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
        pass
    return None


def _form(node: Any, data: Any, text: str) -> Any:
    kind = type(data)
    if kind is LineDict:
        if node.id != "mapping" or len(node.value) != len(data):
            raise _NotKept
        keys, values = [], []
        for (key_node, value_node), (key, value) in zip(node.value, data.items()):
            keys.append(_form(key_node, key, text))
            values.append(_form(value_node, value, text))
        return {"m": [data.line, keys, values, [data.lines[k] for k in data], [data.key_lines[k] for k in data]]}
    if kind is LineList:
        if node.id != "sequence" or len(node.value) != len(data):
            raise _NotKept
        return {"s": [data.line, [_form(child, item, text) for child, item in zip(node.value, data)], list(data.lines)]}
    if node.id != "scalar":
        raise _NotKept
    if data is None:
        return None
    start, end = node.start_mark.index, node.end_mark.index
    if kind is str:
        if text[start:end] == data:
            return [start, end]
        if node.style in ("'", '"') and text[start + 1:end - 1] == data:
            return [start + 1, end - 1]
        return {"t": _pieces(data, start, end, text)}
    if kind is int:
        return ["i", start, end]
    if kind is float:
        return ["f", start, end]
    if kind is bool:
        return ["b", start, end]
    raise _NotKept  # a date, bytes, a set: parsed every time


_BLANK_REACH = 256  # how far past where it is `_pieces` looks for a blank (deeper than any indent a fedtool file has)


def _pieces(value: str, start: int, end: int, text: str) -> list:
    """A string the text does not hold as itself (quoted with escapes, folded over lines, a
    block) as pieces of its scalar's text in order, each [start, end], and the blanks (a space,
    a line's end) that folding or a block's layout made; _NotKept when it takes anything else."""
    pieces: list = []
    at, done, length = start, 0, len(value)
    while done < length:
        char = value[done]
        # a blank is looked for near where the text is (a fold's line end, a line's indent):
        # looked for to the scalar's end, a blank the text has not there (a scalar folded
        # over lines that hold none) would cost a search of the rest of the scalar each time
        found = text.find(char, at, min(end, at + _BLANK_REACH) if char in " \n" else end)
        if found < 0:
            if char not in " \n":
                raise _NotKept
            pieces.append(char)
            done += 1
            continue
        size = 1
        while done + size < length and found + size < end and text[found + size] == value[done + size]:
            size += 1
        pieces.append([found, found + size])
        done += size
        at = found + size
    return pieces


def _rebuilt(form: Any, text: str) -> Any:
    """The data a kept form says, its values read from `text`."""
    if form.__class__ is list:
        if len(form) == 2:
            return text[form[0]:form[1]]
        kind, start, end = form
        if kind == "i":
            return int(text[start:end])
        if kind == "f":
            return float(text[start:end])
        if kind == "b":
            return _BOOLS[text[start:end].lower()]
        raise ValueError(kind)
    if form is None:
        return None
    pieces = form.get("t")
    if pieces is not None:
        return "".join([text[piece[0]:piece[1]] if piece.__class__ is list else piece for piece in pieces])
    mapping = form.get("m")
    if mapping is not None:
        line, keys, values, lines, key_lines = mapping
        keys = [_rebuilt(key, text) for key in keys]
        result = LineDict(zip(keys, [_rebuilt(value, text) for value in values]))
        result.line = line
        result.lines = dict(zip(keys, lines))
        result.key_lines = dict(zip(keys, key_lines))
        return result
    line, items, lines = form["s"]
    result = LineList([_rebuilt(item, text) for item in items])
    result.line = line
    result.lines = lines
    return result


def _same(one: Any, other: Any) -> bool:
    """Whether two parses are the same: values, types, order and lines."""
    kind = type(one)
    if kind is not type(other):
        return False
    if kind is LineDict:
        return (one.line == other.line and len(one) == len(other)
                and all(type(a) is type(b) and a == b and _same(one[a], other[b]) for a, b in zip(one, other))
                and list(one.lines.items()) == list(other.lines.items()) and list(one.key_lines.items()) == list(other.key_lines.items()))
    if kind is LineList:
        return one.line == other.line and one.lines == other.lines and len(one) == len(other) and all(_same(a, b) for a, b in zip(one, other))
    if kind is float:
        return repr(one) == repr(other)
    return one == other


def read_text(path: Path, shown: str | None = None, limit: int = MAX_YAML_BYTES) -> str:
    """Read a UTF-8 text file: the one guard every file fedtool reads goes through (sheets,
    strategies in every layout, cards, openings, settings, data files, scripted dice).

    Refused, each with a clear message naming the file: a file not there or not readable; a
    folder, a device (/dev/zero never ends), a pipe or a socket (reading one may wait
    forever); more than `limit` bytes (counted as read, since a device or /proc file says 0);
    bytes that are not UTF-8, and the NUL byte (text never holds one; a parser would take it
    for the end of the text, or choke), each with its line.
    """
    shown = shown or str(path)
    try:
        # O_NONBLOCK: opening a pipe with no writer returns at once rather than waiting; the
        # file is judged by what was opened (fstat), so it cannot be swapped after a check
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except (FileNotFoundError, NotADirectoryError):
        raise FedError(Problem(shown, None, "file not found")) from None
    except IsADirectoryError:
        raise FedError(Problem(shown, None, "is a folder, not a file")) from None
    except OSError as exc:
        raise FedError(Problem(shown, None, f"cannot be read ({exc.strerror or exc})")) from None
    try:
        kind = os.fstat(fd).st_mode
        if stat.S_ISDIR(kind):
            raise FedError(Problem(shown, None, "is a folder, not a file"))
        if not stat.S_ISREG(kind):
            raise FedError(Problem(shown, None, "is not a regular file (a device, a pipe or a socket): fedtool reads only files"))
        size = os.fstat(fd).st_size
        if size > limit:
            raise FedError(Problem(shown, None, f"file is {size} bytes; the limit is {limit}"))
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise FedError(Problem(shown, None, f"file is more than {limit} bytes; the limit is {limit}"))
    except OSError as exc:
        raise FedError(Problem(shown, None, f"cannot be read ({exc.strerror or exc})")) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FedError(Problem(shown, f"line {line}, byte {exc.start}", "not valid UTF-8 text")) from None
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        raise FedError(Problem(shown, f"line {line}", "a NUL byte (\\0): not text"))
    return text.replace("\r\n", "\n").replace("\r", "\n")  # universal newlines, as a file opened as text reads


def load_yaml(path: Path, shown: str | None = None) -> Any:
    """Read and parse one YAML file (its parse kept: `parse_yaml`)."""
    shown = shown or str(path)
    return parse_yaml(read_text(path, shown), shown, keep=True)


def subset(data: dict, keys: Any) -> LineDict:
    """The entries of `data` under `keys`, each still knowing its line."""
    part = LineDict((key, data[key]) for key in keys if key in data)
    part.line = getattr(data, "line", 0)
    lines = getattr(data, "lines", {})
    part.lines = {key: lines[key] for key in part if key in lines}
    key_lines = getattr(data, "key_lines", {})
    part.key_lines = {key: key_lines[key] for key in part if key in key_lines}
    return part


def line_of(data: Any, loc: tuple | list) -> int | None:
    """The line of the deepest element of `loc` (a pydantic-style path) found in `data`."""
    line = getattr(data, "line", None) or None
    node = data
    for key in loc:
        if isinstance(node, LineDict) and key in node:
            line = node.lines.get(key, line)
            node = node[key]
        elif isinstance(node, LineList) and isinstance(key, int) and 0 <= key < len(node):
            line = node.lines[key]
            node = node[key]
        else:
            break
    return line


def dump_yaml(data: Any) -> str:
    """Plain YAML for files fedtool writes (lists of plain values in flow style, no aliases:
    fedtool's own loader refuses them, so it never writes them)."""
    import yaml

    return yaml.dump(_plain(data), Dumper=_dumper(), sort_keys=False, allow_unicode=True, width=100, default_flow_style=None)


@lru_cache(maxsize=None)
def _dumper() -> type:
    import yaml

    class Dumper(yaml.SafeDumper):
        def ignore_aliases(self, data: Any) -> bool:
            return True

    return Dumper


def _plain(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_plain(v) for v in data]
    return data
