"""A mutation and structure-aware fuzzer for mesh-opt and mesh-run.

    .venv/bin/python test/fuzz/fuzz.py --seconds 600 --seed 1 --out /tmp/fuzz-findings

Inputs come from `generate.py` (lit-test chunks mutated at the token level,
and generated programs). Each input gets these checks, each with a hard
timeout, in a worker process (`worker.py`) that is restarted when it dies or
hangs:

- `mesh-opt IN`: no internal error / signal / hang; an error names a
  position; the printed output re-parses and prints identically;
- `mesh-opt --no-verify-each PASSES IN` for the passes in PIPELINES: the
  same, and an accepted output re-parses (so it verifies);
- for generated programs, every accepted partition simulates equal to the
  original (`mesh-run PART --compare-with IN --seed K`), also once lowered
  below mesh ops (SIM_PIPELINES).

Each distinct failure (class + normalized first line) is written, shrunk by
lines, to OUT/<class>/<n>.mlir with <n>.txt (command, what happened, whether
the CLI reproduces it), and OUT/SUMMARY.md is rewritten after every new one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import generate  # noqa: E402

PIPELINES: list[list[str]] = [
    ["--mesh-canonicalize"],
    ["--sharding-propagation"],
    ["--sharding-propagation", "--mesh-partition"],
    ["--sharding-propagation", "--mesh-partition", "--mesh-optimize-collectives"],
    ["--test-mesh-resharding"],
]
# Extra pipelines for generated programs, whose partitions are simulated.
SIM_PIPELINES: list[list[str]] = [
    ["--mesh-partition{limit}"],
    ["--mesh-partition{limit}", "--mesh-optimize-collectives"],
    ["--pass-pipeline=builtin.module(sharding-propagation{fixed-point=false traversal={traversal}}, mesh-partition)"],
    ["--sharding-propagation=skip-unknown=true", "--mesh-partition{full}"],
    # prepare-windows, decompose-softmax, propagation, partition, optimize, canonicalize
    ["--mesh-spmd-pipeline"],
    # the per-device program lowered below mesh ops, as a backend takes it
    [
        "--mesh-partition{limit}",
        "--mesh-optimize-collectives",
        "--mesh-canonicalize",
        "--mesh-lower-all-slice",
        "--mesh-lower-process-multi-index",
    ],
]
TRAVERSALS = ["forward", "backward", "forward-backward", "backward-forward"]
_PER_DEVICE_OPS = re.compile(r"\bmesh\.(?:all_\w+|reduce_scatter|broadcast|shift|process_\w+_index)\b")
"""Ops of a program written partly per device (the generator's `collective`)."""


# --------------------------------------------------------------------------
# the worker


class Worker:
    """A `worker.py` subprocess; `call` gives its answer, or says it died or hung."""

    def __init__(self, pythonpath: str | None, max_requests: int = 400):
        self.pythonpath = pythonpath
        self.max_requests = max_requests
        self.proc: subprocess.Popen | None = None
        self.requests = 0
        # One directory holds the worker's stderr and scratch files, whichever
        # process it runs in: a killed worker cannot clean up after itself,
        # so `close` removes the directory.
        self.home = tempfile.mkdtemp(prefix="fuzz-worker-")
        self.errfile = open(os.path.join(self.home, "stderr"), "w+b")  # noqa: SIM115 - closed by `close`
        self.restarts = 0

    def _start(self) -> None:
        env = dict(os.environ)
        if self.pythonpath:
            env["PYTHONPATH"] = self.pythonpath
        env["PYTHONFAULTHANDLER"] = "1"
        env["FUZZ_WORKDIR"] = os.path.join(self.home, "work")
        self.errfile.seek(0)
        self.errfile.truncate()
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "worker.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errfile,
            env=env,
            start_new_session=True,
        )
        line = self._readline(60)
        if line is None or "ready" not in line:
            raise RuntimeError(f"worker did not start: {self._stderr_tail()}")
        self.requests = 0
        self.restarts += 1

    def _readline(self, timeout: float) -> str | None:
        assert self.proc and self.proc.stdout
        fd = self.proc.stdout.fileno()
        buf = b""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                return None
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return buf.decode("utf-8", "replace") if buf else None
            buf += chunk
            if buf.endswith(b"\n"):
                return buf.decode("utf-8", "replace")

    def _stderr_tail(self) -> str:
        try:
            with open(self.errfile.name, "rb") as f:
                data = f.read()
        except OSError:
            return ""
        return data[-6000:].decode("utf-8", "replace")

    def kill(self) -> None:
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the worker's own session only
            except ProcessLookupError:
                pass
            self.proc.wait()
            self.proc = None

    def close(self) -> None:
        """Kill the worker and remove its files."""
        self.kill()
        self.errfile.close()
        shutil.rmtree(self.home, ignore_errors=True)

    def call(self, request: dict, timeout: float) -> dict:
        if self.proc is None or self.proc.poll() is not None or self.requests >= self.max_requests:
            self.kill()
            self._start()
        assert self.proc and self.proc.stdin
        request = dict(request, timeout=timeout)
        self.requests += 1
        try:
            self.proc.stdin.write((json.dumps(request) + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass
        line = self._readline(timeout)
        if line is not None and line.strip():
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                pass
        # Dead or hung: say which, with what it printed, and start afresh.
        rc = self.proc.poll()
        if rc is None:
            time.sleep(0.3)  # let faulthandler's dump land
            tail = self._stderr_tail()
            self.kill()
            return {"timeout": True, "stderr_tail": tail}
        tail = self._stderr_tail()
        self.kill()
        return {"signal": -rc if rc < 0 else None, "exit": rc, "stderr_tail": tail}


# --------------------------------------------------------------------------
# findings


def float_kind(text: str) -> bool | str:
    """Whether a program computes on floats: "narrow" when on bf16 or f16
    (whose rounding, modelled by the simulator, exceeds the fixed
    tolerance), else True or False."""
    if re.search(r"x(?:bf16|f16)>|: (?:bf16|f16)\b", text):
        return "narrow"
    return bool(re.search(r"x(f16|f32|f64)>", text))


def tolerance(floats: bool | str) -> list[str]:
    """mesh-run's tolerance flags for a comparison: a tight fixed one on
    floats (reduction order only), mesh-run's own default on bf16 and f16
    (their epsilon, scaled by the work), none on integers (exact)."""
    return ["--rtol", "1e-4", "--atol", "1e-4"] if floats is True else []


def normalize(msg: str) -> str:
    """A message's shape: no file positions, values, numbers or types."""
    msg = msg.strip()
    msg = re.sub(r"^\S*?:\d+:\d+:\s*", "", msg)
    msg = re.sub(r"(/[\w.+-]+)+\.(mlir|py)", "FILE", msg)
    msg = re.sub(r"'[^']*\.mlir'", "'FILE'", msg)
    msg = re.sub(r"tensor<[^>]*>", "T", msg)
    msg = re.sub(r"%[\w#]+", "%V", msg)
    msg = re.sub(r"@[\w]+", "@S", msg)
    msg = re.sub(r"\[[\d, \[\]]*\]", "[L]", msg)
    msg = re.sub(r"-?\d+", "N", msg)
    msg = re.sub(r"'[^'\s]{40,}'", "'...'", msg)
    msg = re.sub(r"'mesh\.\w+' needs a device", "'mesh.OP' needs a device", msg)
    msg = re.sub(r"around '[\w.]+'", "around 'OP'", msg)
    return msg[:160]


@dataclass
class Failure:
    cls: str
    sig: str  # the normalized message that identifies the bug
    message: str  # what happened, for people
    check: dict  # how to run the check again (see Checker.replay)
    text: str
    extra: dict = field(default_factory=dict)


def _first_error(stderr: str) -> str:
    for line in stderr.splitlines():
        if "error:" in line or "internal error" in line:
            return line.strip()
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    return lines[0].strip() if lines else "(no message)"


def _crash_top(tail: str) -> str:
    """From faulthandler's dump: the signal and the innermost project frame."""
    what = ""
    m = re.search(r"Fatal Python error: ([^\n]+)", tail)
    if m:
        what = m.group(1).strip()
    for pat in (
        r"Critical nanobind error: [^\n]*",
        r"LLVM ERROR: [^\n]*",
        r"Assertion [^\n]*",
        r"terminate called[^\n]*",
    ):
        m = re.search(pat, tail)
        if m:
            what = (what + " / " if what else "") + m.group(0)[:160]
            break
    frame = ""
    for m in re.finditer(r'File "([^"]+)", line \d+ in (\w+)', tail):
        if "mesh_dialect" in m.group(1):
            frame = m.group(1).split("mesh_dialect/", 1)[-1] + ":" + m.group(2)
            break  # faulthandler lists the innermost frame first
    return f"{what or 'died'} at {frame or '?'}"


def _unlocated_errors(stderr: str) -> list[str]:
    bad = []
    for line in stderr.splitlines():
        if re.match(r"\s*error:", line) or re.search(r":0:0: error", line):
            bad.append(line.strip())
    return bad


# --------------------------------------------------------------------------
# checks


def _died(name: str, what: str, ans: dict, check: dict, text: str) -> Failure:
    """The failure of a process that died by signal `name`."""
    tail = ans["stderr_tail"]
    return Failure(
        f"signal-{name}",
        f"{what}: {_crash_top(tail)}",
        f"{what}: the process died ({name})",
        check,
        text,
        {"tail": tail[-3000:]},
    )


class Checker:
    """Runs the checks of one input through a worker and returns failures."""

    def __init__(self, worker: Worker, timeout: float = 10.0, sim_timeout: float = 20.0):
        self.worker = worker
        self.timeout = timeout
        self.sim_timeout = sim_timeout
        self.calls = 0
        self.stats: dict[str, int] = {}

    def _bump(self, key: str) -> None:
        self.stats[key] = self.stats.get(key, 0) + 1

    def opt(self, text: str, flags: list[str], unreg: bool) -> dict:
        argv = [*flags, "{dir}/in.mlir"] + (["--allow-unregistered-dialect"] if unreg else [])
        self.calls += 1
        return self.worker.call({"tool": "mesh-opt", "argv": argv, "files": {"in.mlir": text}}, self.timeout)

    def run_sim(self, part: str, orig: str, seed: int, floats: bool | str) -> tuple[dict, dict]:
        tol = tolerance(floats)
        self.calls += 2
        # (a program written partly per device runs on every device of its
        # mesh: --global would stop it at its first collective)
        where = [] if _PER_DEVICE_OPS.search(orig) else ["--global"]
        ref = self.worker.call(
            {
                "tool": "mesh-run",
                "argv": ["{dir}/orig.mlir", *where, "--seed", str(seed), "-q"],
                "files": {"orig.mlir": orig},
            },
            self.sim_timeout,
        )
        if ref.get("rc") != 0:
            return ref, {}
        got = self.worker.call(
            {
                "tool": "mesh-run",
                "argv": ["{dir}/part.mlir", "--compare-with", "{dir}/orig.mlir", "--seed", str(seed), "-q", *tol],
                "files": {"part.mlir": part, "orig.mlir": orig},
            },
            self.sim_timeout,
        )
        return ref, got

    @staticmethod
    def _crash(ans: dict, check: dict, text: str, what: str) -> Failure | None:
        """The failure classes every call shares: hang, signal, traceback."""
        if "signal" in ans and ans.get("stderr_tail", "").lstrip().startswith("Timeout ("):
            # (the worker died inside faulthandler's own dump of a check past
            # its time, a crash of CPython's: the check itself hung)
            ans = {"timeout": True, "stderr_tail": ans["stderr_tail"]}
        if ans.get("timeout"):
            m = re.search(r"Fatal Python error: (\w[\w ]*)", ans["stderr_tail"])
            if m:  # crashed, then hung in the crash handler
                name = {
                    "Segmentation fault": "SIGSEGV",
                    "Aborted": "SIGABRT",
                    "Bus error": "SIGBUS",
                    "Floating point exception": "SIGFPE",
                }.get(m.group(1).strip(), m.group(1).strip())
                return _died(name, what, ans, check, text)
            return Failure(
                "timeout",
                f"{what}: {_crash_top(ans['stderr_tail'])}",
                f"{what} did not finish in time",
                check,
                text,
                {"tail": ans["stderr_tail"][-3000:]},
            )
        if "signal" in ans or "exit" in ans:
            sig = ans.get("signal")
            name = signal.Signals(sig).name if sig else f"exit {ans.get('exit')}"
            return _died(name, what, ans, check, text)
        if ans.get("exc"):
            exc = ans["exc"].split(":")[0]
            cls = "memory" if exc == "MemoryError" else "internal"
            return Failure(
                cls,
                f"{what}: {exc} at {ans.get('top')}",
                f"{what}: {ans['exc']}",
                check,
                text,
                {"tb": ans.get("tb", "")},
            )
        err = ans.get("stderr", "")
        if ans.get("rc") == 2 or "internal error" in err or "Traceback" in err:
            line = next((ln for ln in err.splitlines() if "internal error" in ln or "Error" in ln), _first_error(err))
            cls = "memory" if "MemoryError" in line else "internal"
            return Failure(
                cls, f"{what}: {normalize(line)}", f"{what}: {line.strip()}", check, text, {"stderr": err[-3000:]}
            )
        return None

    def check_parse(self, text: str, unreg: bool) -> tuple[list[Failure], str | None]:
        check = {"kind": "parse", "unreg": unreg}
        ans = self.opt(text, [], unreg)
        f = self._crash(ans, check, text, "mesh-opt")
        if f:
            return [f], None
        if ans["rc"] != 0:
            self._bump("rejected")
            f = self._unlocated("mesh-opt", ans["stderr"], check, text)
            return ([f] if f else []), None
        self._bump("parsed")
        if ans.get("stdout_truncated"):
            self._bump("output-too-long")
            return [], None
        printed = ans["stdout"]
        check = {"kind": "roundtrip", "unreg": unreg}
        f, again = self._reparse(
            printed,
            unreg,
            check,
            text,
            "mesh-opt (re-parse of the printed output)",
            ("roundtrip-reparse", "re-parse: ", "the printed output does not re-parse"),
        )
        if f:
            return [f], printed
        if again["stdout"] != printed:
            return [
                Failure(
                    "roundtrip-unstable",
                    "print(parse(print(x))) != print(x)",
                    "printing the re-parsed output gives a different text",
                    check,
                    text,
                    {"output": printed, "output2": again["stdout"]},
                )
            ], printed
        return [], printed

    def check_pass(
        self, text: str, flags: list[str], unreg: bool, printed: str | None
    ) -> tuple[list[Failure], str | None]:
        check = {"kind": "pass", "flags": flags, "unreg": unreg}
        label = "mesh-opt " + " ".join(flags)
        ans = self.opt(text, ["--no-verify-each", *flags], unreg)
        f = self._crash(ans, check, text, label)
        if f:
            return [f], None
        if ans["rc"] != 0:
            self._bump("pass-refused")
            joined = " ".join(flags)
            if (
                "sharding-propagation" in joined
                and "partition" in joined
                and "run sharding-propagation first" in ans["stderr"]
            ):
                # Partition says the annotations are incomplete right after propagation completed them.
                first = _first_error(ans["stderr"])
                sig = normalize(first)
                return [
                    Failure(
                        "partition-refuses-propagated",
                        sig,
                        f"`{label}`: partition refuses what propagation produced: {first}",
                        check,
                        text,
                    )
                ], None
            f = self._unlocated(label, ans["stderr"], check, text)
            return ([f] if f else []), None
        self._bump("pass-accepted")
        if ans.get("stdout_truncated"):  # too long to send back whole: nothing to re-parse or simulate
            self._bump("output-too-long")
            return [], None
        out = ans["stdout"]
        if out == printed:
            return [], out
        f, _ = self._reparse(
            out,
            unreg,
            check,
            text,
            f"re-parse of the output of {label}",
            ("pass-output-invalid", f"{' '.join(flags)}: ", f"the output of `{label}` does not verify"),
        )
        return ([f], None) if f else ([], out)

    def _unlocated(self, label: str, stderr: str, check: dict, text: str) -> Failure | None:
        """A failure for the first error without file:line:col, if any."""
        bad = _unlocated_errors(stderr)
        if not bad:
            return None
        return Failure(
            "diag-no-location", f"{label}: {normalize(bad[0])}", f"an error without a position: {bad[0]}", check, text
        )

    def _reparse(
        self, out: str, unreg: bool, check: dict, text: str, what: str, failure: tuple[str, str, str]
    ) -> tuple[Failure | None, dict]:
        """Parse `out` again; `failure` is (class, signature prefix, message)
        of the failure to report when it does not parse."""
        again = self.opt(out, [], unreg)
        f = self._crash(again, check, text, what)
        if f or again["rc"] == 0:
            return f, again
        cls, prefix, message = failure
        first = _first_error(again["stderr"])
        return Failure(cls, f"{prefix}{normalize(first)}", f"{message}: {first}", check, text, {"output": out}), again

    def check_sim(self, text: str, part: str, flags: list[str], seed: int, floats: bool | str) -> list[Failure]:
        check = {"kind": "sim", "flags": flags, "seed": seed, "floats": floats}
        flags = [re.sub(r" ?traversal=[\w-]+|=full-arguments=true", "", f) for f in flags]  # one bug, any traversal
        ref, got = self.run_sim(part, text, seed, floats)
        f = self._crash(ref, check, text, "mesh-run (original)")
        if f:
            return [f]
        if ref["rc"] != 0:
            self._bump("sim-original-unrunnable")
            return []
        f = self._crash(got, check, text, "mesh-run --compare-with")
        if f:
            return [f]
        if got.get("rc") == 1 and "needs a device" in got.get("stderr", ""):
            # The partitioned function states no layout: mesh-run runs it on one
            # device. Report that, and check it on the mesh all the same.
            mesh = re.search(r"mesh\.mesh @(\w+)", text)
            fs = [
                Failure(
                    "sim-error",
                    f"{' '.join(flags)}: {normalize(_first_error(got['stderr']))}",
                    f"the partitioned program does not run: {_first_error(got['stderr'])}",
                    check,
                    text,
                    {"output": part},
                )
            ]
            if mesh:
                check2 = dict(check, spmd=mesh.group(1))
                self.calls += 1
                got = self.worker.call(
                    {
                        "tool": "mesh-run",
                        "argv": [
                            "{dir}/part.mlir",
                            "--compare-with",
                            "{dir}/orig.mlir",
                            "--seed",
                            str(seed),
                            "-q",
                            "--spmd",
                            "--mesh",
                            mesh.group(1),
                            *tolerance(floats),
                        ],
                        "files": {"part.mlir": part, "orig.mlir": text},
                    },
                    self.sim_timeout,
                )
                if "MISMATCH" in got.get("stdout", ""):
                    detail = next((ln for ln in got["stdout"].splitlines() if "differs" in ln), "")
                    fs.append(
                        Failure(
                            "sim-mismatch",
                            f"{' '.join(flags)}: mismatch (--spmd)",
                            f"the partitioned program computes something else: {detail}",
                            check2,
                            text,
                            {"output": part, "run": got["stdout"][-2000:]},
                        )
                    )
            return fs[:1] if len(fs) == 1 else fs
        self._bump("simulated")
        if "mesh.update_halo" in part:
            self._bump("simulated-update_halo")
        if "MISMATCH" in got["stdout"]:
            detail = next((ln for ln in got["stdout"].splitlines() if "differs" in ln or "shape" in ln), "")
            return [
                Failure(
                    "sim-mismatch",
                    f"{' '.join(flags)}: mismatch",
                    f"the partitioned program computes something else: {detail}",
                    check,
                    text,
                    {"output": part, "run": got["stdout"][-2000:]},
                )
            ]
        if got["rc"] != 0:
            first = _first_error(got["stderr"]) if got["stderr"].strip() else got["stdout"].strip()[:200]
            return [
                Failure(
                    "sim-error",
                    f"{' '.join(flags)}: {normalize(first)}",
                    f"the partitioned program does not run: {first}",
                    check,
                    text,
                    {"output": part},
                )
            ]
        return []

    def check_input(self, inp: generate.Input, rng: random.Random) -> list[Failure]:
        failures, printed = self.check_parse(inp.text, inp.unregistered)
        if printed is None or failures:
            return failures
        pipelines = list(PIPELINES)
        if inp.simulate:
            for p in SIM_PIPELINES:
                pipelines.append(
                    [
                        f.replace("{traversal}", rng.choice(TRAVERSALS))
                        .replace("{full}", rng.choice(["", "=full-arguments=true"]))
                        # groups of uneven pieces as loops, not unrolled: small meshes reach them too
                        .replace("{limit}", rng.choice(["", "=unroll-limit=0"]))
                        for f in p
                    ]
                )
        floats = float_kind(inp.text)
        propagated = None
        for flags in pipelines:
            fs, out = self.check_pass(inp.text, flags, inp.unregistered, printed)
            failures += fs
            if flags == ["--sharding-propagation"]:
                propagated = out
            if out is not None and inp.simulate and any("partition" in f for f in flags):
                failures += self.check_sim(inp.text, out, flags, rng.randrange(1000), floats)
        if inp.simulate and propagated is not None and not failures:
            failures += self.check_relayout(inp.text, propagated, rng, floats)
        return failures

    def check_relayout(self, text: str, propagated: str, rng: random.Random, floats: bool | str) -> list[Failure]:
        """Propagation's output with some layouts changed, partitioned alone:
        layouts do not change what a program computes, so an accepted
        partition must simulate equal to the original."""
        relaid = generate.mutate_annotations(propagated, rng)
        check = {"kind": "pass", "flags": ["--mesh-partition"], "unreg": False}
        ans = self.opt(relaid, [], False)
        if ans.get("rc") != 0:
            f = self._crash(ans, check, relaid, "mesh-opt")
            return [f] if f else []
        fs, out = self.check_pass(relaid, ["--mesh-partition"], False, None)
        if fs or out is None:
            return fs
        self._bump("relayout-partitioned")
        # Simulated against the original program (same computation, no layouts changed).
        result = self.check_sim(text, out, ["--mesh-partition"], rng.randrange(1000), floats)
        for f in result:
            f.text = relaid  # the reproducer is the relaid program; it computes what the original does
            f.sig = "relayout " + f.sig
        return result

    def replay(self, check: dict, text: str) -> Failure | None:
        """Run one failed check again on (a shrunk) text."""
        unreg = check.get("unreg", False)
        if check["kind"] in ("parse", "roundtrip"):
            fs, _ = self.check_parse(text, unreg)
            return fs[0] if fs else None
        if check["kind"] == "pass":
            fs, _ = self.check_pass(text, check["flags"], unreg, None)
            return fs[0] if fs else None
        parsed = self.opt(text, [], False)
        if parsed.get("rc") != 0:
            return None
        ans = self.opt(text, ["--no-verify-each", *check["flags"]], False)
        if ans.get("rc") != 0:
            return self._crash(ans, check, text, "mesh-opt " + " ".join(check["flags"]))
        return (self.check_sim(text, ans["stdout"], check["flags"], check["seed"], check["floats"]) or [None])[0]


# --------------------------------------------------------------------------
# shrinking and reproduction


def shrink(checker: Checker, failure: Failure, budget_s: float) -> str:
    """Drop lines (halves, then single lines) while the same failure remains."""
    if failure.cls.startswith("timeout"):
        return failure.text
    lines = failure.text.splitlines()
    deadline = time.monotonic() + budget_s

    def same(cand: list[str]) -> bool:
        f = checker.replay(failure.check, "\n".join(cand) + "\n")
        return f is not None and f.cls == failure.cls and f.sig == failure.sig

    chunk = max(len(lines) // 2, 1)
    while chunk >= 1 and time.monotonic() < deadline:
        i = 0
        changed = False
        while i < len(lines) and time.monotonic() < deadline:
            cand = lines[:i] + lines[i + chunk :]
            if cand and same(cand):
                lines = cand
                changed = True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    return "\n".join(lines) + "\n"


def cli_commands(check: dict, path: str) -> list[str]:
    opt = ".venv/bin/mesh-opt"
    unreg = " --allow-unregistered-dialect" if check.get("unreg") else ""
    if check["kind"] == "parse":
        return [f"{opt}{unreg} {path}"]
    if check["kind"] == "roundtrip":
        return [
            f"{opt}{unreg} {path} -o /tmp/fz-p1.mlir && {opt}{unreg} /tmp/fz-p1.mlir -o /tmp/fz-p2.mlir "
            f"&& diff /tmp/fz-p1.mlir /tmp/fz-p2.mlir"
        ]
    flags = " ".join(shlex.quote(f) for f in check["flags"])
    if check["kind"] == "pass":
        return [f"{opt}{unreg} --no-verify-each {flags} {path} -o /tmp/fz-out.mlir && {opt}{unreg} /tmp/fz-out.mlir"]
    tol = "".join(f" {t}" for t in tolerance(check.get("floats", False)))
    if check.get("spmd"):
        tol += f" --spmd --mesh {check['spmd']}"
    return [
        f"{opt} --no-verify-each {flags} {path} -o /tmp/fz-part.mlir && .venv/bin/mesh-run /tmp/fz-part.mlir "
        f"--compare-with {path} --seed {check['seed']} -q{tol}"
    ]


def run_cli(cmd: str, pythonpath: str | None, timeout: float) -> str:
    if not (ROOT / ".venv").exists():  # a checkout without its own venv: the tools beside this python
        cmd = cmd.replace(".venv/bin/", f"{Path(sys.executable).parent}/")
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    try:
        p = subprocess.run(
            ["bash", "-c", f"ulimit -v {4 << 20}; {cmd}"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            start_new_session=True,
            errors="replace",
        )
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout:g} s"
    rc = p.returncode
    what = f"exit {rc}" if rc >= 0 else f"killed by {signal.Signals(-rc).name}"
    if rc > 128 and rc - 128 in {s.value for s in signal.Signals}:
        what += f" (signal {signal.Signals(rc - 128).name})"
    err = "\n".join(p.stderr.strip().splitlines()[:6])
    out = "\n".join(ln for ln in p.stdout.splitlines() if "match" in ln.lower() or "differs" in ln)[:600]
    return f"{what}\n{err}\n{out}".strip()


# --------------------------------------------------------------------------
# the store


_MAIN_STATS = ("inputs", "calls", "seconds", "restarts")


class Store:
    def __init__(self, out: Path, baseline: str):
        self.out = out
        self.baseline = baseline
        self.distinct: dict[tuple[str, str], dict] = {}
        self.counts: dict[str, int] = {}
        out.mkdir(parents=True, exist_ok=True)
        self._load()

    def _load(self) -> None:
        index = self.out / "index.json"
        if index.exists():
            data = json.loads(index.read_text())
            for d in data["distinct"]:
                self.distinct[(d["cls"], d["sig"])] = d
            self.counts = data.get("counts", {})

    def known(self, f: Failure) -> bool:
        return (f.cls, f.sig) in self.distinct

    def hit(self, f: Failure) -> None:
        self.counts[f.cls] = self.counts.get(f.cls, 0) + 1
        d = self.distinct.get((f.cls, f.sig))
        if d is not None:
            d["hits"] += 1

    def add(self, f: Failure, text: str, original: str, origin: str, cli: str) -> str:
        d = self.out / f.cls
        d.mkdir(parents=True, exist_ok=True)
        n = 1 + len([p for p in d.glob("*.mlir") if re.fullmatch(r"\d+\.mlir", p.name)])
        path = d / f"{n}.mlir"
        path.write_text(text)
        if original != text:
            (d / f"{n}.orig.mlir").write_text(original)
        cmds = cli_commands(f.check, str(path))
        lines = [
            f"class: {f.cls}",
            f"signature: {f.sig}",
            f"what happened: {f.message}",
            f"input origin: {origin}",
            "command (from /work/main):",
            *(f"  {c}" for c in cmds),
            f"found on: {self.baseline}",
            "on the command line:",
            *(f"  {ln}" for ln in cli.splitlines()),
        ]
        for key in ("tb", "stderr", "tail", "run"):
            if f.extra.get(key):
                lines += [f"{key}:", f.extra[key].rstrip()]
        if f.extra.get("output"):
            (d / f"{n}.out.mlir").write_text(f.extra["output"])
            lines.append(f"the output in question: {d / f'{n}.out.mlir'}")
        (d / f"{n}.txt").write_text("\n".join(lines) + "\n")
        checks_path = self.out / "checks.json"
        checks = json.loads(checks_path.read_text()) if checks_path.exists() else {}
        checks[str(path)] = f.check
        checks_path.write_text(json.dumps(checks, indent=1))
        self.distinct[(f.cls, f.sig)] = {
            "cls": f.cls,
            "sig": f.sig,
            "path": str(path),
            "command": cmds[0],
            "message": f.message[:300],
            "hits": 1,
            "cli": cli.splitlines()[0] if cli else "",
        }
        return str(path)

    def save(self, stats: dict) -> None:
        (self.out / "index.json").write_text(
            json.dumps({"distinct": list(self.distinct.values()), "counts": self.counts, "stats": stats}, indent=1)
        )
        by_cls: dict[str, list[dict]] = {}
        for d in self.distinct.values():
            by_cls.setdefault(d["cls"], []).append(d)
        lines = [
            "# Fuzz findings",
            "",
            f"Updated {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}. Found on: {self.baseline}.",
            "Each reproducer's .txt gives the command (run from /work/main), the message and whether the",
            "plain command line reproduces it. Fuzzer: test/fuzz/fuzz.py.",
            "",
            f"Inputs tried: {stats.get('inputs', 0)}; checks (tool runs): {stats.get('calls', 0)}; "
            f"fuzzing time: {stats.get('seconds', 0):.0f} s; worker restarts: {stats.get('restarts', 0)}.",
            f"Other counts: {json.dumps({k: v for k, v in stats.items() if k not in _MAIN_STATS})}",
            "",
            "| class | distinct | failing checks |",
            "|---|---:|---:|",
        ]
        for cls in sorted(by_cls):
            lines.append(f"| {cls} | {len(by_cls[cls])} | {self.counts.get(cls, 0)} |")
        lines.append("")
        for cls in sorted(by_cls):
            lines += [f"## {cls}", ""]
            for d in sorted(by_cls[cls], key=lambda d: -d["hits"]):
                lines.append(f"- `{d['path']}` ({d['hits']} hits; CLI: {d['cli']}): {d['sig']}")
            lines.append("")
        tmp = self.out / "SUMMARY.md.tmp"
        tmp.write_text("\n".join(lines))
        os.replace(tmp, self.out / "SUMMARY.md")


# --------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--inputs", type=int, default=None, help="stop after this many inputs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="/tmp/fuzz-findings")
    ap.add_argument(
        "--project", default=None, help="python/ directory of the mesh_dialect to test (default: the installed one)"
    )
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds a check may take before it counts as a hang")
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--no-cli", action="store_true", help="do not confirm findings on the command line")
    args = ap.parse_args(argv)

    baseline = f"the working tree {ROOT}"
    if args.project:
        commit = Path(args.project).parent / "COMMIT"
        baseline = f"{args.project}" + (
            f" (a snapshot of commit {commit.read_text().strip()[:12]})" if commit.exists() else ""
        )
    store = Store(Path(args.out), baseline)
    worker = Worker(args.project)
    checker = Checker(worker, timeout=args.timeout)
    seeds = generate.load_seeds()
    rng = random.Random(args.seed)
    start = time.monotonic()
    n = 0
    prev = {}
    if (Path(args.out) / "index.json").exists():
        prev = json.loads((Path(args.out) / "index.json").read_text()).get("stats", {})

    def stats() -> dict:
        s = {k: prev.get(k, 0) + checker.stats.get(k, 0) for k in {*prev, *checker.stats}}
        s.update(
            inputs=prev.get("inputs", 0) + n,
            calls=prev.get("calls", 0) + checker.calls,
            seconds=prev.get("seconds", 0) + time.monotonic() - start,
            restarts=prev.get("restarts", 0) + worker.restarts,
        )
        return s

    last_save = 0.0
    # `kill PID` stops a long run cleanly: the summary is written, the worker killed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while time.monotonic() - start < args.seconds and (args.inputs is None or n < args.inputs):
            try:
                inp = generate.next_input(random.Random(rng.getrandbits(64)), seeds)
            except Exception as e:  # noqa: BLE001 - a generator bug must not end a long run
                print(f"generator error, input skipped: {type(e).__name__}: {e}", flush=True)
                continue
            n += 1
            simulated = checker.stats.get("simulated", 0)
            found = checker.check_input(inp, random.Random(n))
            # What a generated program holds (halos, offsets, convolutions...),
            # and whether any of its partitions was simulated.
            for note in inp.notes:
                checker._bump(f"with-{note}")
                if checker.stats.get("simulated", 0) > simulated:
                    checker._bump(f"with-{note}-simulated")
            for f in found:
                new = not store.known(f)
                store.hit(f)
                checker._bump("failing-checks")
                if not new:
                    continue
                text = f.text if args.no_shrink else shrink(checker, f, 12)
                tmp = Path(args.out) / ".cli.mlir"
                tmp.write_text(text)
                cli = (
                    "not checked"
                    if args.no_cli
                    else run_cli(cli_commands(f.check, str(tmp))[0], args.project, 40 if f.cls == "timeout" else 30)
                )
                path = store.add(f, text, f.text, inp.origin, cli)
                print(f"[{time.monotonic() - start:6.0f}s] new {f.cls}: {f.sig}  -> {path}", flush=True)
                store.save(stats())
            if time.monotonic() - last_save > 30:
                store.save(stats())
                last_save = time.monotonic()
    finally:
        worker.close()
        store.save(stats())
    print(json.dumps(stats()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
