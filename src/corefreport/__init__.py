"""corefreport: coreference evaluation with the official numbers, and the reasons behind them."""

__version__ = "0.1.0"
