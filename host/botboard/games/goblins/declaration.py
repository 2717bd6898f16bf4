"""Goblins, Inc. as botboard knows it: registered in pyproject.toml under ``botboard.games``."""

from ..declaration import GameDeclaration

_HERE = "botboard.games.goblins"

GAME = GameDeclaration(
    name="goblins", title="Goblins, Inc.", aliases=("goblins-inc",), tile_id=3,
    engine=f"{_HERE}.game:GAME",
    table=f"{_HERE}.table.mapping:GoblinsTable",
    catalogue=f"{_HERE}.table.tiles:CATALOGUE",
    evaluation=f"{_HERE}.evaluate:EVALUATION",
    boards=("goblins",),
    scenarios="scenarios",
    commands=f"{_HERE}.commands:register",
    pictures=f"{_HERE}.table.pictures:pictures",
    docs=("docs/goblins.md", "docs/playing-goblins.md", "docs/scenarios-goblins.md"),
    quick_options={"rounds": 1},  # one round: building, agendas, a combat, the score
)
