"""YAML reading that remembers line numbers, so every error can name its line.

Player files are untrusted: aliases are refused (no "billion laughs"), size is capped,
and only plain data (mappings, lists, scalars) is built.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

import yaml

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


_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # LibYAML's parser when it is there


class _Loader(_Base):
    fast_scalars = True  # `construct_object`'s shortcut for plain scalars (tests/test_yaml_fast.py turns it off to compare)

    def construct_object(self, node, deep=False):
        # An alias is the same node met again: refuse it (no "billion laughs" expansions).
        constructed = self.constructed_objects
        if node in constructed or node in self.recursive_objects:
            raise yaml.MarkedYAMLError(None, None, "anchors and aliases (&name, *name) are not allowed in fedtool files", node.start_mark)
        if node.__class__ is yaml.ScalarNode and self.fast_scalars:
            # a scalar of a standard tag built by its constructor directly, as PyYAML's
            # construct_object would (none of them is a generator or recurses), without its
            # bookkeeping calls: most of a sheet's or a strategy's nodes (issue 18)
            make = _SCALAR_CONSTRUCTORS.get(node.tag)
            if make is not None:
                data = constructed[node] = node.value if make is _PLAIN_STR else make(self, node)
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


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _Loader.construct_yaml_timestamp)
_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_mapping)
_Loader.add_constructor("tag:yaml.org,2002:seq", _Loader.construct_sequence)

_PLAIN_STR = yaml.constructor.SafeConstructor.construct_yaml_str  # a str scalar's data is its value (construct_scalar)
# the scalar tags `construct_object` builds directly: each with the constructor the loader has for it
_SCALAR_CONSTRUCTORS = {tag: _Loader.yaml_constructors[tag] for tag in
                        ("tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:float")
                        if tag in _Loader.yaml_constructors}


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


def parse_yaml(text: str, file: str | Path) -> Any:
    """Parse YAML text; a syntax error becomes a FedError naming the file and line."""
    if nesting_depth(text) > MAX_DEPTH:
        raise FedError(Problem(str(file), None, f"broken YAML: nested more than {MAX_DEPTH:,} levels deep", "YAML syntax"))
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader is a safe loader
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
    """Read and parse one YAML file."""
    shown = shown or str(path)
    return parse_yaml(read_text(path, shown), shown)


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


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True  # fedtool's own loader refuses aliases, so it never writes them


def dump_yaml(data: Any) -> str:
    """Plain YAML for files fedtool writes (lists of plain values in flow style, no aliases)."""
    return yaml.dump(_plain(data), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None)


def _plain(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_plain(v) for v in data]
    return data
