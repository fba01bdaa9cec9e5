"""Everything that talks to Discord over HTTP: click answers, panel and message edits."""
