#!/usr/bin/env python3
"""Set up the project and run it: the two commands the README starts with.

    python3 dev.py demo   # create .venv, install, run mesh-opt on an example
    python3 dev.py test   # create .venv, install with test tools, run every test

Also: `python3 dev.py lit [lit args]` (the CMake check target), `setup`.
Needs only Python 3.11 and access to the package registry.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / "bin"
PY = BIN / "python"


def run(*cmd: str | Path, check: bool = True) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], cwd=ROOT, check=check).returncode


def setup(extras: str = "test") -> None:
    """Create .venv and install the pinned dependencies, once per change of
    pyproject.toml (a stamp file remembers what was installed)."""
    if sys.version_info[:2] != (3, 11):
        sys.exit(
            f"dev.py: Python 3.11 is required (the MLIR wheels are built for it), this is {sys.version.split()[0]}"
        )
    if not PY.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    stamp = VENV / ".mesh-dialect-installed"
    if stamp.exists() and stamp.read_text() == want:
        return
    target = f".[{extras}]" if extras else "."
    run(PY, "-m", "pip", "install", "--disable-pip-version-check", "-q", "-e", target)
    stamp.write_text(want)


def lit(args: list[str]) -> int:
    return run(BIN / "lit", "-sv", *(args or ["test"]), check=False)


def test() -> int:
    failures = 0
    failures += lit([]) != 0
    failures += run(BIN / "ruff", "check", "python", "test", "bench", "dev.py", "lit.cfg.py", check=False) != 0
    failures += run(PY, "-m", "pytest", "-q", "test/python", check=False) != 0
    return 1 if failures else 0


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "test"
    if command == "demo":
        setup(extras="")
        example = ROOT / "examples" / "collectives.mlir"
        return run(BIN / "mesh-opt", example, "--mesh-canonicalize", check=False)
    if command == "setup":
        setup()
        return 0
    if command == "lit":
        setup()
        return lit(argv[1:])
    if command == "test":
        setup()
        return test()
    sys.exit(f"dev.py: unknown command '{command}' (use demo, test, lit or setup)")


if __name__ == "__main__":
    os.environ.pop("PYTHONPATH", None)
    sys.exit(main(sys.argv[1:]))
