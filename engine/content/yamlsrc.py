"""YAML to plain Python that remembers where every value came from.

`yaml.safe_load` forgets positions and silently keeps the last of two duplicate keys, so a
content error could only say "somewhere in this file". Here the node tree is composed by
PyYAML's Python composer (which this module caps in depth) and walked by hand: each path (a
tuple of keys and list indices) gets the line and column of its value and of its key,
duplicate keys are errors, and block scalars (the map's `grid: |`) record the line their text
starts on so a map error at grid row r maps back to a file line.

The events the composer reads come from libyaml (PyYAML's `CParser`, shipped in its wheels)
when it is there: its scanner is ~10x faster than the pure-Python one, which was most of the
app's start-up (issue 14). Only a well-formed document is taken from it; any failure there
(a syntax error, a control character, a lone surrogate, nesting too deep) is parsed again by
the pure-Python loader, which alone words the errors, so a file is refused with the same
`file:line: field: message` either way. `tests/content/test_yaml_libyaml.py` checks that both
paths give the same data, positions and errors over the bundled files and a fuzzed corpus.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import Event
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

from engine.content.errors import ContentError, ContentErrors, Path_, field_path
from engine.content.limits import MAX_DEPTH, MAX_VALUES

_MERGE_TAG = "tag:yaml.org,2002:merge"
# PyYAML resolves a bare "=" to this tag but SafeLoader cannot construct it; in content
# it is only ever meant as text (a map symbol).
_VALUE_TAG = "tag:yaml.org,2002:value"
_DEEP_FLOW = re.compile(r"(?:[\[{][ \t]*){" + str(MAX_DEPTH + 1) + "}")
# Where libyaml reads differently from the pure-Python loader: it takes a tab as a separator
# where PyYAML refuses it, and doesn't count a byte order mark in a column. Such text is left
# to the pure-Python path (found by tests/content/test_yaml_libyaml.py's fuzzed corpus).
_LIBYAML_DIFFERS = re.compile("[\t\ufeff]")
_BLOCK_HEADER = re.compile("[|>](?:[+-][1-9]?|[1-9][+-]?)?(?:[ \r\n\x85\u2028\u2029]|$)")
_COLLECTION_TAGS = frozenset({"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"})


@dataclass(frozen=True, slots=True)
class Mark:
    """A 1-based line and column in a source file."""

    line: int
    column: int


@dataclass(frozen=True)
class YamlDoc:
    """A parsed file: its plain data, and the position of every value and key in it."""

    file: str
    text: str
    data: Any
    values: dict[Path_, Mark] = field(default_factory=dict)
    keys: dict[Path_, Mark] = field(default_factory=dict)
    blocks: dict[Path_, int] = field(default_factory=dict)
    """Path of a block scalar (`|` or `>`) -> the line its first text row is on."""
    containers: frozenset[Path_] = frozenset()
    """Paths whose value is a mapping or a list."""
    size: int = 0
    """Values read, aliases expanded (what the file costs against limits.MAX_VALUES)."""

    def line(self, path: Path_) -> int | None:
        """The line of the value at `path`, or of the nearest enclosing value that exists.

        A mapping or list under a key is reported at its key (`combatants:`), not at its
        first item, which is where its value starts.
        """
        for end in range(len(path), -1, -1):
            sub = tuple(path[:end])
            mark = self.values.get(sub)
            if mark is not None:
                key = self.keys.get(sub)
                return key.line if key is not None and sub in self.containers else mark.line
        return None

    def key_line(self, path: Path_) -> int | None:
        """The line of the key naming `path` (where an unknown key is written)."""
        mark = self.keys.get(tuple(path))
        return mark.line if mark is not None else self.line(path)

    def text_line(self, path: Path_, row: int) -> int | None:
        """The file line of 1-based text row `row` of the string at `path`."""
        start = self.blocks.get(tuple(path))
        if start is None:
            return self.line(path)
        return start + row - 1

    def error(self, path: Path_, message: str, *, at_key: bool = False) -> ContentError:
        line = self.key_line(path) if at_key else self.line(path)
        # A file with no values (empty, only comments) is reported at its first line.
        line = 1 if line is None else line
        return ContentError(self.file, line, field_path(path) or "(file)", message)


def parse_yaml(
    text: str, file: str, max_values: int = MAX_VALUES, *, libyaml: bool = True
) -> YamlDoc:
    """Parse one YAML document; raise `ContentErrors` for syntax errors and duplicate keys.

    Nothing in `text` can escape as another exception (see `_compose_pure`; the constructors
    raise plain ValueError/KeyError for a bad `!!float` or `!!bool`, caught per value), and
    aliases are capped by the number of values they expand to. `libyaml=False` parses with
    the pure-Python scanner only (the differential tests compare the two)."""
    deep = _DEEP_FLOW.search(text)
    if deep is not None:
        # PyYAML's scanner looks 1,024 characters ahead at every `[` it can't yet place, so
        # a long run of brackets costs it a second before the composer's limit is reached.
        line = text.count("\n", 0, deep.start()) + 1
        message = f"YAML syntax error: nested more than {MAX_DEPTH} levels deep"
        raise ContentErrors([ContentError(file, line, "yaml", message)])
    composed = _compose_libyaml(text) if libyaml else None
    if composed is None:
        composed = _compose_pure(text, file)
    loader, node = composed
    walker = _Walker(loader, file, max_values)
    try:
        data = None if node is None else walker.walk(node, (), 0, weak=False)
    except _TooBig as exc:
        raise ContentErrors([*walker.errors, exc.error]) from None
    except yaml.MarkedYAMLError as exc:
        raise ContentErrors([_syntax_error(exc, file)]) from None
    except (yaml.YAMLError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise ContentErrors([ContentError(file, 1, "yaml", f"unreadable YAML: {why}")]) from None
    finally:
        loader.dispose()
    if walker.errors:
        raise ContentErrors(walker.errors)
    containers = frozenset(walker.containers)
    return YamlDoc(
        file, text, data, walker.values, walker.keys, walker.blocks, containers, walker.count
    )


def _compose_libyaml(text: str) -> tuple[_Loader, Node | None] | None:
    """The node tree from libyaml's events, or None when libyaml is missing or the text is
    anything but one well-formed document (the pure-Python loader then says why)."""
    if _CLoader is None or _LIBYAML_DIFFERS.search(text) is not None:
        return None
    loader: _Loader | None = None
    try:
        loader = _CLoader(text)
        return loader, loader.get_single_node()
    except MemoryError:
        raise
    except Exception:  # whatever libyaml or its wrapper raises, the pure path words it
        if loader is not None:
            loader.dispose()
        return None


def _compose_pure(text: str, file: str) -> tuple[_Loader, Node | None]:
    """The node tree from PyYAML's pure-Python loader, or `ContentErrors` saying why not.

    Nothing in `text` can escape as another exception: PyYAML's reader, scanner and composer
    each have their own error classes, and nesting is capped before it can exhaust the stack."""
    loader: _Loader | None = None
    try:
        loader = _Loader(text)
        return loader, loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        error = _syntax_error(exc, file)
    except yaml.reader.ReaderError as exc:
        line = text[: max(exc.position, 0)].count("\n") + 1
        code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1])
        message = f"a control character (U+{code:04X}) can't be written in YAML; remove it"
        error = ContentError(file, line, "yaml", message)
    except (yaml.YAMLError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        error = ContentError(file, 1, "yaml", f"unreadable YAML: {why}")
    if loader is not None:
        loader.dispose()
    raise ContentErrors([error])


class _TooBig(Exception):
    """Ends a walk that has expanded more values than any content file needs."""

    def __init__(self, error: ContentError) -> None:
        super().__init__(str(error))
        self.error = error


class _LibyamlDiffers(Exception):
    """Ends a libyaml parse whose positions would differ from the pure-Python path's."""


class _DepthCap(Composer):
    """The composer, refusing nesting deeper than `MAX_DEPTH` before it recurses further: it
    calls itself once per level, so 1,000 `[` would exhaust Python's stack."""

    _depth = 0
    peek_event: Callable[[], Event]  # the parser's, mixed in beside this class

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                mark = cast(yaml.error.Mark, self.peek_event().start_mark)
                raise yaml.composer.ComposerError(
                    None, None, f"nested more than {MAX_DEPTH} levels deep", mark
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _Loader(_DepthCap, yaml.SafeLoader):
    """The pure-Python safe loader with the depth cap."""


def _libyaml_loader() -> type[_Loader] | None:
    """libyaml's scanner and parser under the Python composer (depth cap included), the safe
    constructors and resolver; None when PyYAML was built without libyaml. (`CSafeLoader`
    composes in C, out of the depth cap's reach.)"""
    try:
        from yaml._yaml import CParser
    except ImportError:
        return None

    class _LibyamlLoader(_DepthCap, CParser, SafeConstructor, Resolver):
        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            self.text = stream
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            Composer.__init__(self)

        def compose_scalar_node(self, anchor: dict[Any, Node]) -> ScalarNode:
            event = cast(yaml.ScalarEvent, self.peek_event())
            if event.value == "" and not event.style:
                # An empty plain value (`a:` with nothing after it): libyaml marks it at the
                # next token, PyYAML at the end of the previous one.
                raise _LibyamlDiffers
            start = event.start_mark.index if event.start_mark is not None else 0
            if event.style in ("|", ">") and not _BLOCK_HEADER.match(self.text, start):
                # `|#`: libyaml takes a comment right after the indicators, PyYAML refuses it.
                raise _LibyamlDiffers
            return super().compose_scalar_node(anchor)

    # It has every method the walker and `parse_yaml` call on a `_Loader`.
    return cast(type[_Loader], _LibyamlLoader)


_CLoader = _libyaml_loader()
HAVE_LIBYAML = _CLoader is not None
"""Whether documents are scanned by libyaml (see the module docstring)."""


def _syntax_error(exc: yaml.MarkedYAMLError, file: str) -> ContentError:
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark is not None else None
    problem = exc.problem or exc.context or "unreadable YAML"
    message = f"YAML syntax error: {problem}"
    if mark is not None:
        message += f" (column {mark.column + 1})"
    ctx = exc.context_mark
    if exc.context and exc.problem and ctx is not None and mark is not None:
        # "while parsing a block mapping ... at line 3" says where the broken part began.
        message += f", {exc.context} at line {ctx.line + 1}" if ctx.line != mark.line else ""
    return ContentError(file, line, "yaml", message)


def _mark(node: Node) -> Mark:
    return Mark(node.start_mark.line + 1, node.start_mark.column + 1)


class _Walker:
    """Turns composed nodes into plain data while recording positions."""

    def __init__(self, loader: yaml.SafeLoader, file: str, max_values: int) -> None:
        self.loader = loader
        self.max_values = max_values
        self.file = file
        self.values: dict[Path_, Mark] = {}
        self.keys: dict[Path_, Mark] = {}
        self.blocks: dict[Path_, int] = {}
        self.containers: set[Path_] = set()
        self.errors: list[ContentError] = []
        self.count = 0

    def record(self, table: dict[Path_, Any], path: Path_, value: Any, weak: bool) -> None:
        # Values pulled in through a `<<` merge never override what the mapping itself says.
        if weak:
            table.setdefault(path, value)
        else:
            table[path] = value

    def fail(self, node: Node, path: Path_, message: str) -> None:
        self.errors.append(
            ContentError(self.file, node.start_mark.line + 1, field_path(path) or "(file)", message)
        )

    def walk(self, node: Node, path: Path_, depth: int, weak: bool) -> Any:
        self.record(self.values, path, _mark(node), weak)
        self.count += 1
        if self.count > self.max_values:
            message = (
                f"too many values: a load may read {MAX_VALUES} (aliases expanded, includes "
                "counted)"
            )
            raise _TooBig(ContentError(self.file, node.start_mark.line + 1, "yaml", message))
        if depth > MAX_DEPTH:
            self.fail(node, path, "nested too deeply (a recursive YAML alias?)")
            return None
        if isinstance(node, ScalarNode):
            return self.scalar(node, path, weak)
        if isinstance(node, SequenceNode | MappingNode):
            self.containers.add(path)
            if node.tag not in _COLLECTION_TAGS:
                # Walked by hand, so a tag would otherwise be silently ignored.
                self.fail(node, path, f"cannot read this value: unsupported tag {node.tag!r}")
                return None
        if isinstance(node, SequenceNode):
            return [
                self.walk(item, (*path, i), depth + 1, weak) for i, item in enumerate(node.value)
            ]
        if isinstance(node, MappingNode):
            return self.mapping(node, path, depth, weak)
        self.fail(node, path, f"unsupported YAML node {type(node).__name__}")
        return None

    def scalar(self, node: ScalarNode, path: Path_, weak: bool) -> Any:
        if node.style in ("|", ">"):
            # The node starts at the indicator; its text starts on the next line.
            self.record(self.blocks, path, node.start_mark.line + 2, weak)
        if node.tag == _VALUE_TAG:
            return node.value
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            self.fail(node, path, f"cannot read this value: {exc.problem}")
        except (ValueError, KeyError, TypeError, OverflowError, AttributeError):
            # `!!float y`, `!!bool maybe`, `!!int x`, `!!timestamp 2001-13-45`: the safe
            # constructors raise plain errors for these (AttributeError: a `!!timestamp`
            # whose text doesn't match the timestamp pattern at all).
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            self.fail(node, path, f"cannot read this value: {node.value[:40]!r} is not a {tag}")
        return None

    def mapping(self, node: MappingNode, path: Path_, depth: int, weak: bool) -> dict[str, Any]:
        out: dict[str, Any] = {}
        seen: dict[str, int] = {}
        merges: list[Node] = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                merges.append(value_node)
                continue
            if not isinstance(key_node, ScalarNode):
                self.fail(key_node, path, "a key must be plain text, not a list or mapping")
                continue
            # Keys are kept as written: `~`, `=`, `on` or `1` as a key mean that text.
            key: str = key_node.value
            sub = (*path, key)
            line = key_node.start_mark.line + 1
            if key in seen:
                self.fail(key_node, sub, f"duplicate key {key!r} (first at line {seen[key]})")
                continue
            seen[key] = line
            self.record(self.keys, sub, _mark(key_node), weak)
            out[key] = self.walk(value_node, sub, depth + 1, weak)
        if merges and depth > MAX_DEPTH:
            self.fail(node, path, "`<<` merges nested too deeply (a mapping merged into itself?)")
            return out
        for merge in merges:
            sources = merge.value if isinstance(merge, SequenceNode) else [merge]
            for source in sources:
                if not isinstance(source, MappingNode):
                    self.fail(source, path, "`<<` merges only mappings")
                    continue
                merged = self.mapping(source, path, depth + 1, weak=True)
                for key, value in merged.items():
                    out.setdefault(key, value)
        return out
