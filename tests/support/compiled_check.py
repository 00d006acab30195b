"""A pytest plugin for `tests/benchmarks/bench_compiled.py` (`-p tests.support.compiled_check`):
the session stops at once unless the modules it imports are the compiled copy's, so that the
differential fixtures can't pass on the pure sources by mistake (the checkout's own
`pythonpath` setting once put them first)."""

from __future__ import annotations

import pytest


def pytest_sessionstart(session: pytest.Session) -> None:
    import ai.moving
    import engine.attacks

    bad = [m.__file__ for m in (ai.moving, engine.attacks) if not str(m.__file__).endswith(".so")]
    if bad:
        raise pytest.UsageError(f"the fixtures would run pure modules, not compiled ones: {bad}")
