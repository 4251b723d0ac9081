"""The `mesh-opt` command-line driver and its test-mode helpers."""
