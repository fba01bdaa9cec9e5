"""A running table: its service, clicks, public message, panels, timers and computer seats."""
