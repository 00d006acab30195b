"""What an import tells its user: problems that stop a creature, warnings, and the summary.

An import reads files that were never written for Skirmish, so every outcome is data the
command line prints: a `Problem` names the file, the line and the field (`file:line: field:
message`, the shape `skirmish check` uses), an `ImportFailed` carries the problems that stop a
whole file or creature, and a `CreatureReport` lists what was imported and every part of the
source that did not become a rule (kept as a note on the power and listed as a warning).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Problem:
    """One problem at one place of one source file."""

    file: str
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        line = "?" if self.line is None else str(self.line)
        return f"{self.file}:{line}: {self.field}: {self.message}"


class ImportFailed(Exception):
    """The import of a file (or of one creature in it) cannot go on: one problem per line."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass
class CreatureReport:
    """What happened to one creature: a summary of what was imported, and the warnings."""

    name: str
    id: str
    file: str
    line: int | None
    summary: list[str] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    def warn(self, line: int | None, where: str, message: str) -> None:
        self.warnings.append(Problem(self.file, line, where, message))

    def lines(self) -> list[str]:
        """The report as text lines, for the command line."""
        head = f"{self.file}:{'?' if self.line is None else self.line}: {self.name} -> {self.id}"
        out = [head, *(f"  {s}" for s in self.summary)]
        out.extend(f"  warning: {w}" for w in self.warnings)
        return out
