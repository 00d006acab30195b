"""Import: a GM's own characters and monsters, from the files they already have.

Character Builder saves (`cb4e`), Compendium monster pages and stat blocks pasted as text
(`statblock`, through `htmltext`) are read into one middle form (`model`), mapped to Skirmish
content with their numbers unchanged (`mapping`; prose read by `effects`), and written as one
library per source file (`run`). Everything here is pure parsing and mapping: no Textual, no
network, and the only exception that leaves it is `ImportFailed` (in `report`).
"""

from engine.importers.report import CreatureReport, ImportFailed, Problem
from engine.importers.run import FileImport, import_all, import_bytes, import_file

__all__ = [
    "CreatureReport",
    "FileImport",
    "ImportFailed",
    "Problem",
    "import_all",
    "import_bytes",
    "import_file",
]
