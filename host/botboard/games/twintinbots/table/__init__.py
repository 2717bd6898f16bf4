"""Twin Tin Bots at the table: its table mapping (``mapping.TwinTinBotsTable``) and its parts."""
