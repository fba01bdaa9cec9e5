"""Lobbies: opening one, seating players, and the clicks that start a table."""
