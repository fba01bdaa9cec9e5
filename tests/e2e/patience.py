"""How long a test waits for something the bot does at once.

Every wait ends at the event it waits for, so a generous deadline costs nothing when all
goes well: it only has to outlast a machine busy with other work (both cores taken), and
still end a test whose answer never comes.
"""

PATIENCE = 60.0
