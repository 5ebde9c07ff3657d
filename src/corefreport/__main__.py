"""``python -m corefreport``: the command line."""

from .cli import main

main()
