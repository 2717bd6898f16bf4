"""The host's side of the board link: transports, the connection, health."""
