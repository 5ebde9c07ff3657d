"""``python -m corefreport.cli``: the command line."""

from . import main

main()
