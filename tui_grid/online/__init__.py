"""Online play: `tui-grid serve ssh`, its limits, who a player is, and how each session's
app is started and kept apart from every other."""
