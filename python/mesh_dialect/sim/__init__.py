"""Executable semantics of mesh layouts and collectives over per-device numpy arrays."""
