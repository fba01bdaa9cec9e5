"""`/uno settings`: a server's settings panel, its form and its clicks."""
