"""linalg's generated op classes and enums, without its op DSL (see the package)."""

from mlir.dialects import _linalg_enum_gen, _linalg_ops_gen  # noqa: F401 - imported to register them
