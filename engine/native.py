"""What the optional compiled build (`skirmish compile`, mypyc) needs said in the source.

`mypyc_attr` marks a class for mypyc (`allow_interpreted_subclasses=True`: a plain Python
class, such as a test's own ruleset or handler, may subclass it once compiled). mypy and mypyc
read the real one from `mypy_extensions`; at run time it is a decorator that changes nothing,
so the pure install doesn't need `mypy_extensions`. This module itself is never compiled (the
run-time definition is the branch mypy reads as unreachable).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

T = TypeVar("T")

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:

    def mypyc_attr(*_args: Any, **_kwargs: Any) -> Callable[[T], T]:
        return lambda thing: thing


__all__ = ["mypyc_attr"]
