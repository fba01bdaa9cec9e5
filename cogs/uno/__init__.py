"""The UNO feature: the /uno command group, lobbies, tables, panels and rendering.

`cog.py` holds the commands and the one click router (`install` adds it to a
bot); each other module is one named part (see docs/development.md, "The layout").
This package file imports nothing, so that no part's import runs the others.
"""
