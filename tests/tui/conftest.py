"""Every app test saves its fights in a temporary data folder, never the user's."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "skirmish-data"
    monkeypatch.setenv("SKIRMISH_DATA_DIR", str(folder))
    return folder
