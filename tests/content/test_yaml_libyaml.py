"""libyaml and the pure-Python YAML path read every text alike (issue 14: start-up speed).

`parse_yaml` scans with libyaml when PyYAML has it and falls back to the pure-Python scanner,
which words every error; these compare the two on the bundled files, on named hostile texts,
on a fuzzed corpus (tests/soak/diff_yaml.py at a small count) and on Hypothesis texts.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.content import yamlsrc
from tests.support.helpers import load_script

diff_yaml = load_script("soak/diff_yaml.py")
MAPS = Path(__file__).resolve().parents[2] / "maps"
BUNDLED = sorted(MAPS.rglob("*.yaml"))

HOSTILE = {
    "syntax": "a: 1\nb: [1, 2\nc: 3\n",
    "control": "a: b\x07c\n",
    "escape": "name: \x1b[2J\n",
    "surrogate": "a: \ud800\n",
    "deep-flow": "a: " + "[" * 60 + "]" * 60 + "\n",
    "deep-block": "".join("  " * k + f"k{k}:\n" for k in range(80)),
    "deep-dashes": "- " * 60 + "x\n",
    "laughs": "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
    + "".join(f"l{k}: &l{k} [" + ", ".join([f"*l{k - 1}"] * 10) + "]\n" for k in range(1, 7)),
    "duplicate": "a: 1\nb:\n  c: 1\n  c: 2\na: 3\n",
    "recursive-merge": "x: &x {<<: *x}\n",
    "merge": "base: &b {hp: 10, speed: 6}\norc:\n  <<: *b\n  hp: 12\n",
    "unknown-alias": "a: *nowhere\n",
    "two-documents": "a: 1\n---\nb: 2\n",
    "unsafe-tag": "a: !!python/object/apply:os.system ['true']\n",
    "bad-float": "a: !!float y\n",
    "bad-timestamp": "a: !!timestamp 2001-13-45\n",
    "tab-separator": "a:\t1\nb: {c:\t2}\n",
    "tab-indent": "a:\n\tb: 1\n",
    "bom-start": "\ufeffa: 1\n",
    "bom-inside": "a: x\ufeffy\nb: 2\n",
    "line-separators": "a: 1\u2028b: 2\x85c: 3\n",
    "wide-chars": "a: \U0001f600\U0001f600\nb: {c: \u00e9\u00e9, d: [1, 2]}\n",
    "block-scalar": "map:\n  grid: |\n    ##\n    #.\n  legend: {'.': {}}\n",
    "keys-as-written": "legend:\n  ~: {}\n  =: {}\n  on: {}\n  1: {}\nsymbol: =\n",
    "key-is-list": "? [a, b]\n: 1\n",
    "empty": "",
    "comment-only": "# nothing\n",
    "null": "~\n",
    "directives": "%YAML 1.1\n---\na: 1\n...\n",
    "bad-directive": "%YAML 2.0\n---\na: 1\n",
    "anchor-on-key": "&k a: 1\n*k : 2\n",
}


def test_libyaml_is_there_so_the_comparison_means_something() -> None:
    # The PyYAML wheels ship libyaml; without it every test below compares a path with itself.
    assert yamlsrc.HAVE_LIBYAML


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_bundled_files_read_alike_and_through_libyaml(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert diff_yaml.differences([text]) == []
    # The fast path takes it (it doesn't just fall back to the pure one).
    assert yamlsrc._compose_libyaml(text) is not None


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_texts_read_or_are_refused_alike(text: str) -> None:
    assert diff_yaml.differences([text]) == []


def test_a_document_libyaml_refuses_is_worded_by_the_pure_path() -> None:
    # libyaml itself would say "did not find expected ',' or ']'" at line 3's end.
    assert yamlsrc._compose_libyaml(HOSTILE["syntax"]) is None
    assert diff_yaml.outcome(HOSTILE["syntax"], libyaml=True) == (
        "refused",
        [
            "case.yaml:3: yaml: YAML syntax error: expected ',' or ']', but got ':' "
            "(column 2), while parsing a flow sequence at line 2"
        ],
    )


@pytest.mark.slow
def test_fuzzed_corpus_reads_alike() -> None:
    # `tests/soak/diff_yaml.py --cases 5000` is the full run.
    assert diff_yaml.main(["--cases", "120", "--seed", "14000"]) == 0


YAMLISH = st.text(
    alphabet=st.sampled_from(
        [
            *string.printable,
            *"[]{}&*!|>-:#'\"?%@`,",
            "\x00",
            "\x1b",
            "\x85",
            "\u2028",
            "\ufeff",
            "\u202e",
            "\U0001f600",
            "\u00e9",
            "\ud800",
        ]
    ),
    max_size=200,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(YAMLISH)
def test_any_text_reads_alike(text: str) -> None:
    assert diff_yaml.differences([text]) == []


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
        ),
        max_leaves=20,
    ),
    st.sampled_from([None, True]),
)
def test_any_dumped_data_reads_alike(data: object, flow: bool | None) -> None:
    # Well-formed documents of every shape and scalar kind (quoted, escaped, multi-line).
    import yaml

    text = yaml.safe_dump(data, default_flow_style=flow, allow_unicode=True)
    assert diff_yaml.differences([text]) == []
