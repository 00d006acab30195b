#!/usr/bin/env python3
"""libyaml against the pure-Python YAML path (issue 14): both must read every text alike.

`engine.content.yamlsrc.parse_yaml` scans with libyaml when it can and falls back to PyYAML's
pure-Python scanner (which alone words the errors). This reads each case both ways and
compares everything a caller sees: the data, every value's and key's position, the block
scalars' first lines, the containers, the values counted against the limits, or the errors
(as printed). The corpus is the bundled files and mutated copies of them, built by the content
fuzzer's mutators (tests/soak/fuzz_content.py: control characters, tabs, byte order marks,
broken indentation, hostile scalars, aliases, merges, deep nesting, big maps, ...).

    .venv/bin/python tests/soak/diff_yaml.py --cases 5000        (exit 1 on any difference)

`differences()` is the same as a function, for tests/content/test_yaml_libyaml.py.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.content.errors import ContentErrors  # noqa: E402
from engine.content.yamlsrc import parse_yaml  # noqa: E402
from tests.soak import fuzz_content  # noqa: E402


def outcome(text: str, libyaml: bool) -> tuple[Any, ...]:
    """Everything `parse_yaml` hands back for `text` (data by repr: `.nan` != `.nan`)."""
    try:
        doc = parse_yaml(text, "case.yaml", libyaml=libyaml)
    except ContentErrors as exc:
        return ("refused", [str(e) for e in exc.errors])
    return ("read", repr(doc.data), doc.values, doc.keys, doc.blocks, doc.containers, doc.size)


def mutated(seed: int) -> str:
    """Case `seed` of the corpus: a bundled file mutated by the content fuzzer's mutators."""
    rng = random.Random(seed)
    rel = rng.choice(fuzz_content.files())
    return fuzz_content.mutate((fuzz_content.MAPS / rel).read_text(encoding="utf-8"), rng)


def differences(texts: Iterable[str]) -> list[str]:
    """A line for each text the two paths read differently (empty: they agree)."""
    out = []
    for text in texts:
        fast, pure = outcome(text, libyaml=True), outcome(text, libyaml=False)
        if fast != pure:
            out.append(f"{text[:60]!r}...: libyaml {str(fast)[:150]} / pure {str(pure)[:150]}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1, help="first case's seed")
    args = parser.parse_args(argv)
    bundled = [p.read_text(encoding="utf-8") for p in sorted(fuzz_content.MAPS.rglob("*.yaml"))]
    found = differences(bundled)
    for seed in range(args.seed, args.seed + args.cases):
        found += [f"seed {seed}: {line}" for line in differences([mutated(seed)])]
    print(
        f"diff_yaml: {len(bundled)} bundled files and {args.cases} mutated: "
        f"{len(found)} read differently"
    )
    for line in found[:20]:
        print("  " + line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
