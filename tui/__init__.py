"""The Textual app and the `skirmish` command line."""
