"""Passes that complete sharding annotations."""
