"""Decisions: policies that read engine state and return engine actions, and the headless
simulator that plays whole encounters with both sides AI-controlled."""
