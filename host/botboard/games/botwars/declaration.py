"""BotWars as botboard knows it: registered in pyproject.toml under ``botboard.games``."""

from ..declaration import GameDeclaration

_HERE = "botboard.games.botwars"

GAME = GameDeclaration(
    name="botwars", title="BotWars", tile_id=2,
    engine=f"{_HERE}.game:GAME",
    table=f"{_HERE}.table.mapping:BotWarsTable",
    catalogue=f"{_HERE}.table.tiles:CATALOGUE",
    evaluation=f"{_HERE}.evaluate:EVALUATION",
    boards=("botwars",),
    scenarios="scenarios",
    commands=f"{_HERE}.commands:register",
    pictures=f"{_HERE}.table.pictures:pictures",
    quick_options={"max_turns": 3},  # three turns: every stage, a few decisions
    docs=("docs/botwars.md", "docs/playing-botwars.md", "docs/botwars-boards.md", "docs/scenarios-botwars.md"),
)
