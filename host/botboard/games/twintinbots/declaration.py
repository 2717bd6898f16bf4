"""Twin Tin Bots as botboard knows it: registered in pyproject.toml under ``botboard.games``."""

from ..declaration import GameDeclaration

_HERE = "botboard.games.twintinbots"

GAME = GameDeclaration(
    name="twin-tin-bots", title="Twin Tin Bots", aliases=("ttb", "twintinbots"), tile_id=1,
    engine=f"{_HERE}.game:GAME",
    table=f"{_HERE}.table.mapping:TwinTinBotsTable",
    catalogue=f"{_HERE}.table.tiles:CATALOGUE",
    evaluation=f"{_HERE}.evaluate:EVALUATION",
    boards=("ttb-small", "ttb-big"),
    scenarios="scenarios",
    pictures=f"{_HERE}.table.pictures:pictures",
    docs=("docs/twin-tin-bots.md", "docs/playing.md", "docs/scenarios-twin-tin-bots.md"),
    quick_options={"track": 0},  # the end phase at once: a game of a few turns
    match_options={"track": 6},  # a game of minutes, not hours
)
