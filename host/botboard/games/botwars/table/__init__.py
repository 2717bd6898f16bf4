"""BotWars at the table: the table mapping (mapping.py), its LED language (leds.py), card tags (tiles.py)."""
