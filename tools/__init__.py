"""Developer tools, run with `python -m tools.<name>`; the bot never imports them."""
