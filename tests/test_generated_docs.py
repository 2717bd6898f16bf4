"""Every generated doc is what `botboard docs` makes of the code and data it describes: each game's
LED pictures, the palettes page, the hardware tables."""

from __future__ import annotations

from botboard import docgen


def test_no_generated_doc_is_stale() -> None:
    stale = [docgen.shown(path) for path in docgen.stale()]  # a game's own may be outside the checkout
    assert stale == [], f"stale: {', '.join(stale)}: run `{docgen.COMMAND}` and commit the result"


def test_every_page_a_declaration_names_exists() -> None:
    assert docgen.missing_pages() == []


def test_every_game_with_pictures_draws_some() -> None:
    from botboard import games

    for name in games.names():
        declaration = games.declaration(name)
        if declaration.pictures:
            drawn = declaration.load("pictures")()
            assert drawn and all(text.startswith("<svg") for text in drawn.values()), name
