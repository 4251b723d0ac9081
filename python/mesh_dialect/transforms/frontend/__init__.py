"""Passes between this dialect's annotations and other frameworks' ones:
JAX's Shardy (`sdy`) and GSPMD (`mhlo.sharding`) shardings in, Shardy out."""

from __future__ import annotations

__all__: list[str] = []
