"""Passes that report on a program without changing it."""
