"""Instruction counts for the benchmarks (issue 14: load-independent, where CPU time on a
shared machine is not): a command run under valgrind's callgrind, and its total."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path


def count(cmd: Sequence[str], toggle: str | None = None) -> tuple[int, str]:
    """Run `cmd` under callgrind (collecting only inside `toggle`, a function name, when
    given) with a fixed hash seed; its total instructions and its standard output."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        vg = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        if toggle:
            vg += [f"--toggle-collect={toggle}", "--collect-atstart=no"]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run([*vg, *cmd], check=True, env=env, capture_output=True, text=True)
        m = re.search(r"^totals:\s+(\d+)", out.read_text(), re.MULTILINE)
        assert m is not None, f"no totals in callgrind's output of {cmd}"
    return int(m.group(1)), done.stdout
