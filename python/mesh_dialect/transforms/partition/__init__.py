"""Passes that turn annotated programs into per-device (SPMD) programs."""
