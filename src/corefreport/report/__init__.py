"""Views that write files: tables (CSV, Markdown, LaTeX: :mod:`.tables`) and paper-ready reports
(HTML, PDF, LaTeX: :mod:`.document` — ``write_report`` — over :mod:`.model`, :mod:`.html`,
:mod:`.pdf`, :mod:`.latex` and :mod:`.svg`)."""
