"""Laser Tanks, a botboard game in its own package (README.md; found through its declaration)."""
