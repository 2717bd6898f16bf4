"""The checks every game must pass, one module per part (collected by the plugin: ``check_*.py``)."""
