"""Laser Tanks as botboard knows it: pyproject.toml registers ``GAME`` under ``botboard.games``."""

from botboard.games.declaration import GameDeclaration

_HERE = "botboard_lasertanks"

GAME = GameDeclaration(
    name="lasertanks", title="Laser Tanks", tile_id=101,
    engine=f"{_HERE}.game:GAME",
    table=f"{_HERE}.table.mapping:LaserTanksTable",
    catalogue=f"{_HERE}.tiles:CATALOGUE",
    evaluation=f"{_HERE}.evaluate:EVALUATION",
    boards=("boards/lasertanks.json",),
    scenarios="scenarios",
    quick_options={"max_rounds": 6},
    match_options={"max_rounds": 12},
)
