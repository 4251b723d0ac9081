"""Op handlers of the simulator, one module per dialect; importing this
package registers them all."""

from . import core, linalg, mesh, stablehlo, tensor, tosa, tosa_window  # noqa: F401
