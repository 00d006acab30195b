"""Transitional alias: the app test helpers moved to `tests.support.app` (issue 13). Delete
this file once nothing imports it."""

from tests.support.app import *  # noqa: F403
