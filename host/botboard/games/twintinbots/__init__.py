"""Twin Tin Bots rules engine: ``GAME`` in game.py is the plugin instance."""
