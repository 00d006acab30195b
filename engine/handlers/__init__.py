"""Action handlers: one module per group of action types, each type's rules in one place.

Importing this package imports every module in it, so a new module's registered handlers
are known without a list to keep (see `engine.handlers.base`).
"""

from __future__ import annotations

import importlib
import pkgutil

from engine.handlers.base import (
    HANDLERS,
    Handler,
    Ids,
    Naming,
    describe_action,
    handler_for,
    register,
)

for _mod in pkgutil.iter_modules(__path__):
    if _mod.name != "base":
        importlib.import_module(f"{__name__}.{_mod.name}")

__all__ = ["HANDLERS", "Handler", "Ids", "Naming", "describe_action", "handler_for", "register"]
