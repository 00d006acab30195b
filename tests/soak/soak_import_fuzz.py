"""The importer under mutation: thousands of damaged copies of the samples, and for each one
either a clean import (content the models accept) or `ImportFailed`; never another exception.

Each case takes one of the importer samples and applies a few random mutations (flip a byte,
delete or duplicate a span, cut the file, insert hostile tokens: entities, DOCTYPEs, huge
numbers, control characters, a stray `(standard; at-will)`), then imports the result.

    python tests/soak/soak_import_fuzz.py --cases 5000     (prints "N cases, M crashes")
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import yaml

from engine.content.schema import Library
from engine.importers import ImportFailed, import_bytes

SAMPLES = Path(__file__).resolve().parents[1] / "importers" / "samples"
TOKENS = [
    b"<!DOCTYPE x [<!ENTITY a 'aa'>]>", b"&a;", b"&#0;", b"]]>", b"<![CDATA[", b"<", b">",
    b"\x00", b"\xff\xfe", b"\xef\xbb\xbf", b"\r", b"\n\n", b"(standard; at-will)",
    b"(immediate reaction, when hit; recharge 1)", b"Level 999999999999 Solo Brute",
    b"HP 99999999999999999999", b"AC -5", b"+99999 vs. AC;", b"vs.", b"aura 1;",
    b"9999d9999 damage", b"ongoing 999 fire damage (save ends)", b"push 100 squares",
    b"Recharge \xe2\x9a\x80", b"\xe2\x9c\xa6", b"<Stat value=\"-1\"><alias name=\"AC\"/></Stat>",
    b"<Power name=\"\">", b"</Weapon>", b"<specific name=\"Attack Type\">Area wall 99",
    b"<img src='S1.gif'>", b"<script>", b"<h1 class='monster'>", b"\x1b[31m", b"\\u202e",
    b"9" * 5000, b'<?xml version="1.0" encoding="x-bogus"?>', b'encoding="utf-16"',
    b"Standard Actions", b"\xe2\x9c\xa6 Recharge 5 6", b"Effect (Free Action):",
]  # fmt: skip


def mutate(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(6)
        pos = rng.randrange(len(out) + 1)
        if op == 0 and out:
            out[min(pos, len(out) - 1)] = rng.randrange(256)
        elif op == 1:
            del out[pos : pos + rng.randint(1, 200)]
        elif op == 2:
            out[pos:pos] = rng.choice(TOKENS)
        elif op == 3:
            end = min(len(out), pos + rng.randint(1, 400))
            out[pos:pos] = out[pos:end]
        elif op == 4:
            del out[pos:]
        else:
            out[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 12)))
    return bytes(out)


def check(data: bytes, name: str) -> str | None:
    """None if the import ended well (content or ImportFailed); else what went wrong."""
    try:
        result = import_bytes(data, name)
    except ImportFailed as exc:
        if not exc.problems or any("\n" in str(p) for p in exc.problems):
            return f"{name}: ImportFailed without one-line problems"
        return None
    except Exception:
        return f"{name}: {traceback.format_exc(limit=3)}"
    if result.creatures:
        library = result.library()
        back = yaml.safe_load(yaml.safe_dump(library, allow_unicode=True))
        Library.model_validate(back)
    return None


def samples() -> list[Path]:
    return sorted(p for p in SAMPLES.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    files = [(p.name, p.read_bytes()) for p in samples()]
    t0 = time.perf_counter()
    crashes = []
    for i in range(args.cases):
        name, data = files[i % len(files)]
        problem = check(mutate(data, rng), name)
        if problem:
            crashes.append(problem)
            print(f"case {i}: {problem}", flush=True)
    print(f"{args.cases} cases, {len(crashes)} crashes ({time.perf_counter() - t0:.1f} s)")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
