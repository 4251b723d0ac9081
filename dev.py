#!/usr/bin/env python3
"""Set up the project and run it: the two commands the README starts with.

    python3 dev.py demo   # create .venv, install, run mesh-opt on an example
    python3 dev.py test   # create .venv, install with test tools, run every test

Also: `python3 dev.py lit [lit args]` (the CMake check target), `setup`.
Needs only Python 3.11, 3.12 or 3.13 and access to the package registry.
"""

from __future__ import annotations

import hashlib
import os
import shutil
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


SUPPORTED = ((3, 11), (3, 12), (3, 13))
"""The Pythons the pinned MLIR wheels are built for (pyproject's requires-python)."""


def python() -> str:
    """This interpreter when the wheels exist for it, else the newest
    supported python3.X on PATH."""
    if sys.version_info[:2] in SUPPORTED:
        return sys.executable
    for major, minor in reversed(SUPPORTED):
        found = shutil.which(f"python{major}.{minor}")
        if found:
            return found
    sys.exit(
        "dev.py: Python 3.11, 3.12 or 3.13 is required (the MLIR wheels are built for them), "
        f"this is {sys.version.split()[0]} and no python3.11-3.13 is on PATH"
    )


def setup(extras: str = "test") -> None:
    """Create .venv and install the pinned dependencies, once per change of
    pyproject.toml (a stamp file remembers what was installed)."""
    if not PY.exists():
        interpreter = python()
        if interpreter == sys.executable:
            venv.EnvBuilder(with_pip=True).create(VENV)
        else:
            run(interpreter, "-m", "venv", VENV)
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    stamp = VENV / ".mesh-dialect-installed"
    if stamp.exists() and stamp.read_text() == want:
        return
    target = f".[{extras}]" if extras else "."
    run(PY, "-m", "pip", "install", "--disable-pip-version-check", "-q", "-e", target)
    stamp.write_text(want)


def lit(args: list[str]) -> int:
    return run(BIN / "lit", "-sv", *(args or ["test"]), check=False)


def browser() -> None:
    """Best effort: Debian's chromium for the page test of test_viz.py, which
    skips itself without a browser (MESH_NO_BROWSER=1 skips the install)."""
    if shutil.which("chromium") or os.environ.get("MESH_NO_BROWSER"):
        return
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        print("dev.py: no chromium (installing it needs apt-get as root): the browser test will skip", flush=True)
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        try:
            ok = subprocess.run(cmd, env=env, check=False, timeout=600).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            ok = False
        if not ok:
            print("dev.py: could not install chromium: the browser test will skip", flush=True)
            return


def test() -> int:
    browser()
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
