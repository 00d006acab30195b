"""The importer never raises anything but its own error, whatever the bytes (issue 18).

Hypothesis damages the samples (spans deleted, duplicated or replaced by hostile tokens, the
file cut anywhere) and imports the result: it must either produce content the models accept
or raise `ImportFailed` with one-line problems. `tests/soak/soak_import_fuzz.py --cases 5000`
runs the same check over thousands of seeded mutations; here it runs small.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.soak.soak_import_fuzz import TOKENS, check, main, mutate, samples

FILES = [(p.name, p.read_bytes()) for p in samples()]


@st.composite
def damaged(draw: st.DrawFn) -> tuple[str, bytes]:
    name, data = draw(st.sampled_from(FILES))
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        a = draw(st.integers(0, len(out)))
        b = draw(st.integers(a, min(len(out), a + 300)))
        repl = draw(st.one_of(st.sampled_from(TOKENS), st.binary(max_size=16), st.just(b"")))
        out[a:b] = repl
    if draw(st.booleans()):
        del out[draw(st.integers(0, len(out))) :]
    return name, bytes(out)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_damaged_samples_import_or_fail_cleanly(case: tuple[str, bytes]) -> None:
    name, data = case
    assert check(data, name) is None


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=2000), st.sampled_from(["x.dnd4e", "x.html", "x.txt", "x.library"]))
def test_random_bytes_import_or_fail_cleanly(data: bytes, name: str) -> None:
    assert check(data, name) is None


def test_seeded_mutation_soak_small() -> None:
    assert main(["--cases", "150", "--seed", "7"]) == 0


def test_mutate_changes_the_bytes() -> None:
    rng = random.Random(3)
    _, data = FILES[0]
    assert any(mutate(data, rng) != data for _ in range(5))
