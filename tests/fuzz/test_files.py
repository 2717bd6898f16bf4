"""Every file kind botboard reads (formats.py), damaged in every way damage.py derives from its
good document or its bytes: each command that reads it ends in status 0 or 2, one line naming
the file, no traceback, and the file left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from .cli import held, run
from .damage import FUZZ, damaged_bytes, damaged_doc
from .formats import FORMATS, Format


def _tried(fmt: Format, folder: Path, data: bytes) -> None:
    path = folder / fmt.file
    path.write_bytes(data)
    for argv in fmt.commands(path):
        outcome = run(argv)
        held(outcome, str(path), fmt.file, report=fmt.report)
        assert path.read_bytes() == data, f"{argv} changed {path}"


def _text(fmt: Format, doc: object) -> bytes:
    try:
        return fmt.text(doc).encode("utf-8", "surrogatepass")
    except (TypeError, ValueError, RecursionError):  # a value the format cannot even spell
        return fmt.text(fmt.good()).encode()


@pytest.mark.parametrize("fmt", FORMATS, ids=[f.name for f in FORMATS])
def test_the_good_file_is_read(fmt: Format, tmp_path: Path) -> None:
    path = tmp_path / fmt.file
    path.write_text(fmt.text(fmt.good()))
    for argv in fmt.commands(path):
        outcome = run(argv)
        assert outcome.status == 0, outcome.err  # the damage below is damage to a good file


@pytest.mark.parametrize("fmt", FORMATS, ids=[f.name for f in FORMATS])
@FUZZ
@given(data=st.data())
def test_a_damaged_value_anywhere_is_one_line(fmt: Format, data: st.DataObject,
                                              tmp_path_factory: pytest.TempPathFactory) -> None:
    doc = data.draw(damaged_doc(fmt.good()))
    _tried(fmt, tmp_path_factory.mktemp(fmt.name), _text(fmt, doc))


@pytest.mark.parametrize("fmt", FORMATS, ids=[f.name for f in FORMATS])
@FUZZ
@given(data=st.data())
def test_damaged_bytes_are_one_line(fmt: Format, data: st.DataObject,
                                    tmp_path_factory: pytest.TempPathFactory) -> None:
    good = fmt.text(fmt.good()).encode()
    _tried(fmt, tmp_path_factory.mktemp(fmt.name), data.draw(damaged_bytes(good)))
