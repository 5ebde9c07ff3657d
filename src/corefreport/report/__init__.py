"""Views that write files: tables (CSV, Markdown, LaTeX), and later HTML/PDF reports."""
