"""The version of corefreport (in the signature of every score)."""

__version__ = "0.1.0"
