"""Skirmish bundled content: encounters, creatures and powers as YAML data files."""
