"""Transitional alias: the helpers moved to `tests.support.helpers` (issue 13). Branches that
still say `from skirmish_helpers import ...` keep working until they are merged; new code
imports from tests.support. Delete this file once nothing imports it."""

from tests.support.helpers import *  # noqa: F403
from tests.support.helpers import BOLT as BOLT  # the rules tests' bolt (+5 vs Reflex)
