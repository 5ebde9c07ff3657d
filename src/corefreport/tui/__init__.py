"""The Textual terminal browser (``corefreport tui``)."""
