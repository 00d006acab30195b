"""The encounter screen's panes: grid, initiative, log, status and details."""
