"""VOLT at the table: die tiles in control-unit slots, faces and keys on the phone."""
