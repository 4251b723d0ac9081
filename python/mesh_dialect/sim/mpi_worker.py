"""Entry of one MPI rank: `mpiexec -n N python -m mesh_dialect.sim.mpi_worker RUN_DIR`.

A module of its own so that `mesh_dialect.sim.mpi` (the launcher) can be
imported without starting MPI; `run_mpi` writes RUN_DIR.
"""

from __future__ import annotations

import sys

from .mpi import worker_main

if __name__ == "__main__":
    sys.exit(worker_main(sys.argv[1:]))
