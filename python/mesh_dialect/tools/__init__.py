"""Command-line entry points; each is a thin layer over a driver class."""
