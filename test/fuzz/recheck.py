"""Run every saved finding's check again (in-process, through a worker) and
say which still fail: `.venv/bin/python test/fuzz/recheck.py [--out DIR] [--project PY]`.

Without --project it tests the working tree's mesh_dialect, so after fixes it
tells which findings are gone. Writes DIR/RECHECK.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import fuzz  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/fuzz-findings")
    ap.add_argument("--project", default=None)
    ap.add_argument("--timeout", type=float, default=20.0)
    args = ap.parse_args(argv)
    out = Path(args.out)
    index = json.loads((out / "index.json").read_text())
    checks = json.loads((out / "checks.json").read_text()) if (out / "checks.json").exists() else {}
    worker = fuzz.Worker(args.project)
    checker = fuzz.Checker(worker, timeout=args.timeout, sim_timeout=args.timeout)
    rows = []
    try:
        for d in sorted(index["distinct"], key=lambda d: d["path"]):
            check = checks.get(d["path"])
            if check is None:
                rows.append((d, "no check recorded"))
                continue
            text = Path(d["path"]).read_text()
            f = checker.replay(check, text)
            if f is None:
                status = "passes now"
            elif f.cls == d["cls"] and f.sig == d["sig"]:
                status = "still fails"
            else:
                status = f"fails differently: [{f.cls}] {f.sig}"
            rows.append((d, status))
            print(f"{d['path']}: {status}", flush=True)
    finally:
        worker.close()
    lines = [
        f"# Recheck of {out} on {args.project or 'the working tree'} at "
        f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}",
        "",
    ]
    lines += [f"- `{d['path']}` [{d['cls']}]: {status} — {d['sig']}" for d, status in rows]
    still = sum(1 for _, s in rows if s != "passes now")
    lines += ["", f"{still} of {len(rows)} still fail."]
    (out / "RECHECK.md").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
