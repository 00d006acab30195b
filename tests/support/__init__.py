"""The one home of what tests share: content fixtures (powers, creatures, defenses), fight
drivers, the app's Pilot helpers and the save writer without fsync. Tests import from here
(`from tests.support.content import BOLT`), never from another test module or a soak script.
"""
