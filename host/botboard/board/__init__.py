"""The board side: layouts, the simulated board and its control socket, firmware
build and deploy, and the daemon's board tools (the link is in ``botboard.link``)."""
