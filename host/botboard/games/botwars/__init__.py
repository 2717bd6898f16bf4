"""BotWars: a RoboRally-like square-grid ruleset (v2.1 default, v1 selectable). See docs/botwars.md."""
