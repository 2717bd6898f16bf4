"""Goblins, Inc. at the table: two construction yards read tile by tile (mapping.py)."""
