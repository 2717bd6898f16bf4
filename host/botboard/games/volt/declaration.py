"""VOLT as botboard knows it: registered in pyproject.toml under ``botboard.games``."""

from ..declaration import GameDeclaration

_HERE = "botboard.games.volt"

GAME = GameDeclaration(
    name="volt", title="VOLT", tile_id=4,
    engine=f"{_HERE}.game:GAME",
    table=f"{_HERE}.table.mapping:VoltTable",
    catalogue=f"{_HERE}.table.tiles:CATALOGUE",
    evaluation=f"{_HERE}.evaluate:EVALUATION",
    boards=("volt",),
    scenarios="scenarios",
    pictures=f"{_HERE}.table.pictures:pictures",
    quick_options={"max_rounds": 3},  # three rounds: programs, activations, a workshop
    docs=("docs/volt.md", "docs/playing-volt.md", "docs/scenarios-volt.md"),
)
