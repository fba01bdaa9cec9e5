"""Finished matches looked back at: `/uno history` pages and replay panels.

The replay itself is the engine's (engine/replay.py): the match's seed and action
log run again; this package reads them (db/history.py), draws them with the live
table's own words (cogs/uno/render/) and answers the controls.
"""
