"""The fuzzers of issue 17, small enough for CI (`tests/soak/fuzz_*.py` run them in full), and
Hypothesis properties: whatever the bytes, the content loader raises only ContentErrors and
the save reader only SaveError, each a printable one-liner."""

from __future__ import annotations

import json
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.content import ContentErrors
from engine.content.yamlsrc import parse_yaml
from engine.save import SaveError, encode_line, read_save
from engine.savecheck import action
from tests.soak import fuzz_content, fuzz_saves
from tests.soak.fuzzlib import fuzz

pytestmark = pytest.mark.timeout(300)


@pytest.mark.slow  # the soak fuzzer at small counts: still ~40 s
def test_content_fuzzer_small() -> None:
    report = fuzz(fuzz_content.run, fuzz_content.cases(200, seed=17, sim_every=33), workers=2)
    assert report.cases == 200
    assert not report.crashes and not report.hangs and not report.memory, report.details()


@pytest.mark.slow  # the soak fuzzer at small counts: still ~30 s
def test_save_fuzzer_small() -> None:
    fuzz_saves.SEED_SAVE = fuzz_saves.make_seed_save(records=20)
    report = fuzz(fuzz_saves.run, range(17_000_000, 17_000_200), workers=2)
    assert report.cases == 200
    assert not report.crashes and not report.hangs and not report.memory, report.details()


YAMLISH = st.text(
    alphabet=st.sampled_from(list(string.printable + "[]{}&*!|>-:#'\"\x00\x1b\x9b\u202e")),
    max_size=300,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(YAMLISH)
def test_any_text_parses_or_is_refused_with_content_errors(text: str) -> None:
    try:
        parse_yaml(text, "h.yaml")
    except ContentErrors as exc:
        for e in exc.errors:
            assert str(e).isprintable() and e.line is not None


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=120, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            ["action", "path", "targets", "origin", "squares", "power", "mode", "effect", "target"]
        ),
        JSON,
    )
)
def test_any_action_json_is_an_action_or_a_value_error(data: dict[str, Any]) -> None:
    if "action" not in data or not isinstance(data.get("action"), str):
        data["action"] = "move"
    try:
        action(data)
    except ValueError as exc:
        assert str(exc).isprintable()


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.binary(max_size=80) | JSON.map(lambda v: encode_line({"n": v})), max_size=5))
def test_any_lines_after_a_real_header_read_or_refuse(tmp_path: Path, lines: list[bytes]) -> None:
    header = _HEADER.read_bytes().split(b"\n")[0] + b"\n"
    path = tmp_path / "h.save.jsonl"
    path.write_bytes(header + b"".join(x if x.endswith(b"\n") else x + b"\n" for x in lines))
    try:
        read_save(path)
    except SaveError as exc:
        assert "\n" not in str(exc)


@pytest.fixture(autouse=True, scope="module")
def _header(tmp_path_factory: pytest.TempPathFactory) -> None:
    global _HEADER
    _HEADER = tmp_path_factory.mktemp("h") / "seed.save.jsonl"
    _HEADER.write_bytes(fuzz_saves.make_seed_save(records=4))


_HEADER = Path()
assert json  # the module is used by the strategies' reprs in failure reports
