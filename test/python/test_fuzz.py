"""A bounded run of the fuzzer (test/fuzz/fuzz.py) for CI.

A fixed seed and a fixed number of inputs (not a time budget), so the run is
the same on every machine; the per-check timeout is generous so that a slow
machine cannot turn a slow check into a "hang". For every input, and every
pass output, it asserts: no traceback or internal error, no death by signal,
no hang, every error names a position, every printed output re-parses and
prints identically, every pass output verifies, and every accepted partition
of a generated program simulates equal to the original.

Longer runs, by hand: `.venv/bin/python test/fuzz/fuzz.py --seconds 600 --seed N --out DIR`.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "test" / "fuzz"))

import fuzz  # noqa: E402
import generate  # noqa: E402

SEED = 20261123
# Generated programs (each simulated after every partition pipeline) and
# mutated lit-test chunks, in the fuzzer's usual mix.
INPUTS = 40
# Seconds a single check may take before it counts as a hang. The slowest
# check in this run takes well under a second on a 2-core machine.
HANG_TIMEOUT = 60.0


@pytest.fixture(scope="module")
def checker():
    worker = fuzz.Worker(None)
    try:
        yield fuzz.Checker(worker, timeout=HANG_TIMEOUT, sim_timeout=HANG_TIMEOUT)
    finally:
        worker.close()


def _describe(f: fuzz.Failure) -> str:
    cmd = fuzz.cli_commands(f.check, "INPUT.mlir")[0]
    return f"[{f.cls}] {f.message}\n  command: {cmd}\n  input:\n{f.text}"


def _report(failures: list[fuzz.Failure]) -> None:
    """Fail with one example per distinct failure (class + normalized message)."""
    if not failures:
        return
    distinct: dict[tuple[str, str], list[fuzz.Failure]] = {}
    for f in failures:
        distinct.setdefault((f.cls, f.sig), []).append(f)
    lines = [f"{len(failures)} failing checks, {len(distinct)} distinct:"]
    lines += [f"  {len(fs)} x [{cls}] {sig}" for (cls, sig), fs in distinct.items()]
    shown = "\n\n".join(_describe(fs[0]) for fs in list(distinct.values())[:8])
    pytest.fail("\n".join(lines) + "\n\n" + shown)


def _run(checker: fuzz.Checker, inputs: list[generate.Input]) -> list[fuzz.Failure]:
    failures = []
    for i, inp in enumerate(inputs):
        failures += checker.check_input(inp, random.Random(SEED + i))
    return failures


def _inputs() -> list[generate.Input]:
    rng = random.Random(SEED)
    seeds = generate.load_seeds()
    return [generate.next_input(random.Random(rng.getrandbits(64)), seeds) for _ in range(INPUTS)]


def test_inputs_are_deterministic():
    """The same seed gives the same inputs, so a CI failure reproduces."""
    a, b = _inputs(), _inputs()
    assert [x.text for x in a] == [x.text for x in b]
    assert sum(x.simulate for x in a) >= INPUTS // 4


def test_fuzz_bounded(checker):
    failures = _run(checker, _inputs())
    # The run must have exercised the tools, not only rejected its inputs.
    assert checker.stats.get("parsed", 0) >= INPUTS // 4
    assert checker.stats.get("simulated", 0) >= INPUTS // 4
    _report(failures)


def test_generated_programs_partition(checker):
    """Every generated program whose partition is accepted simulates equal
    (a separate seed stream, generated programs only)."""
    rng = random.Random(SEED + 1)
    inputs = [
        generate.Input(generate.structured(random.Random(rng.getrandbits(64))), "structured", simulate=True)
        for _ in range(15)
    ]
    failures = _run(checker, inputs)
    _report(failures)


def test_relayout_changes_layouts_only():
    """`mutate_annotations` must change layouts and nothing else: the relaid
    program is checked against the original, so a changed slice stride (a
    list on the same line as an op's `#mesh.sharding<...>`) made a program
    the simulator refuses and a false report."""
    program = (
        "  %s = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding\n"
        "  %a = mesh.shard %x to %s annotate_for_users : tensor<4x8xi32>\n"
        "  %i = tensor.insert_slice %a into %x[0, 0] [4, 8] [1, 1] "
        "{mesh.sharding_option = #mesh.sharding<@mesh, [[1], [0]]>} : tensor<4x8xi32> into tensor<4x8xi32>\n"
    )
    stripped = generate.re.compile(r"#mesh\.sharding<[^>]*>|split_axes = .*| ?annotate_for_users")
    changed = 0
    for seed in range(300):
        relaid = generate.mutate_annotations(program, random.Random(seed))
        assert stripped.sub("", relaid) == stripped.sub("", program), relaid
        changed += relaid != program
    assert changed > 200


def test_output_too_long_to_send_back_is_not_reparsed(checker):
    """The worker sends back at most `STDOUT_LIMIT` characters of a tool's
    output: re-parsing the cut remainder reported a module that does not
    verify (a 65536-device reshard prints two tables of 65536 offsets)."""
    before = checker.stats.get("output-too-long", 0)
    failures, out = checker.check_pass(_HUGE_RESHARD, ["--test-mesh-resharding"], False, None)
    assert (failures, out) == ([], None)
    assert checker.stats.get("output-too-long", 0) == before + 1


_HUGE_RESHARD = """
mesh.mesh @mesh(shape = 1x65536)
func.func @f(%x: tensor<4x12xi32>) -> tensor<4x12xi32> {
  %s = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<4x12xi32>
  %w = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %1 = mesh.shard %0 to %w annotate_for_users : tensor<4x12xi32>
  return %1 : tensor<4x12xi32>
}
"""


def test_death_while_dumping_a_timeout_is_a_timeout() -> None:
    # A worker whose check ran past its time dies (SIGSEGV) while
    # faulthandler prints the stack: the check hung, the harness crashed.
    tail = 'Timeout (0:00:09)!\nThread 0x00007f (most recent call first):\n  File "/x/resharding.py", line 1 in _bo'
    found = fuzz.Checker._crash({"signal": 11, "exit": -11, "stderr_tail": tail}, {}, "", "mesh-opt")
    assert found is not None and found.cls == "timeout"
    died = fuzz.Checker._crash({"signal": 11, "exit": -11, "stderr_tail": "Fatal Python error: x"}, {}, "", "mesh-opt")
    assert died is not None and died.cls == "signal-SIGSEGV"


def test_float_ids_come_from_arguments_only():
    """A float the program computes may round to the other side of an
    integer once partitioned (a sum in another order), and a lookup at
    `fptosi` of it then reads another row: a false report. Generated
    lookups take float ids from arguments (or annotations of them) only."""
    shard = generate.re.compile(r"(%\w+) = mesh\.shard (%\w+) ")
    generic = generate.re.compile(r"= linalg\.generic .*? ins\((%\w+)")
    lookup_id = generate.re.compile(r"%lw\d+ = arith\.fptosi")
    lookups = 0
    for seed in range(2000):
        program = generate.Program(random.Random(seed))
        text = program.build()
        if program.is_int or "id lookup" not in program.features:
            continue
        source = dict(shard.findall(text))
        for chunk in text.split("linalg.generic")[1:]:
            if not lookup_id.search(chunk.split("} -> ")[0]):
                continue
            first = generic.search("= linalg.generic" + chunk).group(1)
            while first in source:
                first = source[first]
            assert first.startswith("%arg"), f"seed {seed}: ids read from {first}"
            lookups += 1
    assert lookups >= 3


def test_closed_worker_leaves_no_files() -> None:
    """A worker's scratch files and stderr live in one directory, which
    `close` removes, also after the worker was killed mid-run and
    restarted: each start used to leave a directory behind in /tmp."""
    worker = fuzz.Worker(None)
    try:
        worker._start()
        first = worker.proc.pid
        worker.kill()
        worker._start()
        assert worker.proc.pid != first
        scratch = Path(worker.home) / "work"
        assert scratch.is_dir()
    finally:
        worker.close()
    assert not Path(worker.home).exists()
