"""Where the emulated Pico's image comes from: the record, its check, and what a user is told."""

from __future__ import annotations

from pathlib import Path

import pytest

from botboard.chip import image
from tests.chip.conftest import needs_chip


def test_the_record_names_micropython_1_28_for_the_pico_and_two_checksums() -> None:
    rec = image.record()
    assert "v1.28.0" in rec["firmware"]["what"] and "RPI_PICO" in rec["firmware"]["what"]
    for part in ("firmware", "bootrom"):
        assert len(rec[part]["sha256"]) == 64 and int(rec[part]["sha256"], 16) >= 0


def test_a_missing_image_says_where_it_was_looked_for_and_where_to_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOTBOARD_RP2_DIR", str(tmp_path))
    with pytest.raises(image.ImageError) as err:
        image.locate()
    assert str(tmp_path) in str(err.value) and "docs/firmware.md" in str(err.value)
    assert not image.available()


def test_another_file_in_the_image_s_place_is_refused_with_both_checksums(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rec = image.record()
    (tmp_path / rec["firmware"]["file"]).write_bytes(b"not the image")
    (tmp_path / rec["bootrom"]["file"]).write_bytes(b"not the rom")
    monkeypatch.setenv("BOTBOARD_RP2_DIR", str(tmp_path))
    with pytest.raises(image.ImageError) as err:
        image.locate()
    assert rec["firmware"]["sha256"] in str(err.value)
    assert image.locate(check=False).firmware == tmp_path / rec["firmware"]["file"]


@needs_chip
def test_the_image_in_place_is_the_recorded_one() -> None:
    found = image.locate()
    rec = image.record()
    assert image.sha256(found.firmware) == rec["firmware"]["sha256"]
    assert image.sha256(found.bootrom) == rec["bootrom"]["sha256"]
