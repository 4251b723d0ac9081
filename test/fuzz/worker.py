"""The fuzzer's long-lived worker: runs `mesh-opt` / `mesh-run` in-process,
one request per line of stdin, one JSON answer per line on the protocol fd.

It runs the CLIs' own mains (`_main(argv)`) on a file, with stdout and stderr
captured, so a check is exactly the command line a reproducer gives, without
the 0.3 s start-up of a process. An exception escaping a main is what the
CLI would report as `internal error` (exit 2): the worker returns it with its
traceback. MLIR's own output (and faulthandler's stack dump on a crash or a
hang) goes to fd 2, which the parent points at a file it reads when the
worker dies.
"""

from __future__ import annotations

import contextlib
import faulthandler
import io
import json
import os
import resource
import sys
import tempfile
import time
import traceback


def _setup() -> io.TextIOWrapper:
    # The protocol gets a private copy of stdout; fd 1 then goes to stderr, so
    # nothing MLIR prints can corrupt an answer.
    proto = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    limit = int(os.environ.get("FUZZ_MEMORY_LIMIT", str(4 << 30)))
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    faulthandler.enable(file=sys.stderr, all_threads=True)
    return proto


def _top_frame(tb: traceback.StackSummary) -> str:
    """The innermost frame in the project's code, `file:function`."""
    for fr in reversed(tb):
        if "mesh_dialect" in fr.filename:
            path = fr.filename.split("mesh_dialect/", 1)[-1]
            return f"{path}:{fr.name}"
    return f"{os.path.basename(tb[-1].filename)}:{tb[-1].name}" if tb else "?"


STDOUT_LIMIT = 2_000_000
"""The most of a tool's printed output sent back; a longer one (a table of
65536 offsets prints a megabyte) is cut there and said to be cut, so the
fuzzer does not re-parse half a module."""


def run(request: dict, workdir: str) -> dict:
    files = request.get("files", {})
    for name, text in files.items():
        with open(os.path.join(workdir, name), "w", encoding="utf-8") as f:
            f.write(text)
    argv = [a.replace("{dir}", workdir) for a in request["argv"]]
    tool = request["tool"]
    if tool == "mesh-opt":
        from mesh_dialect.tools.mesh_opt import _main
    else:
        from mesh_dialect.tools.mesh_run import _main
    out, err = io.StringIO(), io.StringIO()
    answer: dict = {}
    start = time.monotonic()
    timeout = float(request.get("timeout", 10))
    faulthandler.dump_traceback_later(max(timeout - 1.0, 0.5), repeat=False, file=sys.stderr)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = _main(argv)
    except SystemExit as e:  # argparse's usage errors: what the CLI exits with
        rc = e.code if isinstance(e.code, int) else 1
    except MemoryError:
        tb = traceback.extract_tb(sys.exc_info()[2])
        rc, answer["exc"] = 2, "MemoryError"
        answer["top"] = _top_frame(tb)
        answer["tb"] = traceback.format_exc()[-4000:]
    except BaseException as e:  # noqa: BLE001 - what the CLI's guard would turn into exit 2
        if isinstance(e, KeyboardInterrupt):
            raise
        tb = traceback.extract_tb(sys.exc_info()[2])
        rc = 2
        answer["exc"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
        answer["top"] = _top_frame(tb)
        answer["tb"] = traceback.format_exc()[-4000:]
    finally:
        faulthandler.cancel_dump_traceback_later()
    stdout = out.getvalue()
    answer.update(
        rc=rc,
        stdout=stdout[:STDOUT_LIMIT],
        stdout_truncated=len(stdout) > STDOUT_LIMIT,
        stderr=err.getvalue()[:20000],
        seconds=time.monotonic() - start,
    )
    outputs = {}
    for name in request.get("read", []):
        path = os.path.join(workdir, name)
        if os.path.exists(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                outputs[name] = f.read()
            os.unlink(path)
    answer["files"] = outputs
    return answer


def main() -> None:
    proto = _setup()
    # (the directory `fuzz.Worker` removes when it is done with this process)
    workdir = os.environ.get("FUZZ_WORKDIR") or tempfile.mkdtemp(prefix="fuzz-worker-")
    os.makedirs(workdir, exist_ok=True)
    import mesh_dialect.tools.mesh_opt  # noqa: F401 - warm up before the first timed request
    import mesh_dialect.tools.mesh_run  # noqa: F401

    proto.write(json.dumps({"ready": os.getpid()}) + "\n")
    for line in sys.stdin:
        request = json.loads(line)
        # A fresh stderr file per request: after a crash it holds that request's dump.
        with contextlib.suppress(OSError):
            os.ftruncate(2, 0)
            os.lseek(2, 0, os.SEEK_SET)
        answer = run(request, workdir)
        proto.write(json.dumps(answer) + "\n")
        proto.flush()


if __name__ == "__main__":
    main()
