"""A self-contained HTML page of a program's layouts: every value's tiles
and every reshard with the bytes it moves.

The page needs nothing but itself: the layouts are embedded as JSON and a
short script builds each value's grid when the page loads (CSS grids sized
like the pieces, so uneven pieces look uneven).  The reshards are a plain
table, and each value's picture is also there as text for readers without
scripts (`<noscript>`).
"""

from __future__ import annotations

import json
from html import escape

from .program import FunctionLayouts, ValueLayout
from .terminal import colour, halo_text, text_colour, to_text

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; } h2 { font-size: 1.15em; margin-top: 2em; } h3 { font-size: 1em; }
code, pre, .grid, .tile { font-family: ui-monospace, monospace; }
figure.value { display: inline-block; vertical-align: top; margin: 0 1.5em 1.5em 0; }
figcaption { font-size: 0.9em; margin-bottom: 0.3em; max-width: 32em; }
.grid { display: grid; width: 24em; gap: 1px; background: #fff; border: 1px solid #888; }
.tile { display: flex; flex-direction: column; align-items: center; justify-content: center;
        font-size: 0.85em; text-align: center; min-height: 1.6em; overflow: hidden; }
.tile.halo { outline: 2px dashed rgba(0, 0, 0, 0.55); outline-offset: -4px; }
.note, .problem { font-size: 0.85em; color: #555; margin: 0.2em 0; }
.problem { color: #a33; }
table.reshards { border-collapse: collapse; font-size: 0.9em; }
table.reshards td, table.reshards th { border: 1px solid #bbb; padding: 0.25em 0.5em; vertical-align: top; }
table.reshards td.bytes { text-align: right; }
table.reshards td.steps { white-space: nowrap; }
"""

_SCRIPT = """
(function () {
  var data = JSON.parse(document.getElementById("mesh-viz-data").textContent);
  var drawn = 0;
  function fr(sizes) {
    return sizes.map(function (n) { return "minmax(2.5em, " + Math.max(n, 1) + "fr)"; }).join(" ");
  }
  var boxes = document.querySelectorAll(".values");
  data.functions.forEach(function (fn, i) {
    var box = boxes[i];
    if (!box) return;
    fn.values.forEach(function (v) {
      var fig = document.createElement("figure");
      fig.className = "value";
      fig.dataset.name = v.name;
      var cap = document.createElement("figcaption");
      cap.innerHTML = "<b></b><br><span></span>";
      cap.firstChild.textContent = v.title;
      cap.lastChild.textContent = v.layout ? v.layout.type + " on " + v.layout.mesh_text + ": " + v.layout.sharding
                                           : v.sharding;
      fig.appendChild(cap);
      if (!v.layout) {
        var p = document.createElement("p");
        p.className = "problem";
        p.textContent = "not drawn: " + v.problem;
        fig.appendChild(p);
        box.appendChild(fig);
        return;
      }
      var L = v.layout, grid = document.createElement("div");
      grid.className = "grid";
      // rows and columns of empty pieces are not drawn: the note names their devices
      var rows = L.rows.filter(function (n, r) { return L.hidden_rows.indexOf(r) < 0; });
      var columns = L.columns.filter(function (n, c) { return L.hidden_columns.indexOf(c) < 0; });
      grid.style.gridTemplateColumns = fr(columns);
      grid.style.gridTemplateRows = fr(rows);
      var total = rows.reduce(function (a, b) { return a + b; }, 0);
      var across = columns.reduce(function (a, b) { return a + b; }, 0);
      var height = L.shape.length < 2 ? 3 : Math.min(18, Math.max(3, 24 * total / Math.max(across, 1)));
      grid.style.height = height + "em";
      L.tiles.forEach(function (t) {
        if (t.hidden) return;
        var cell = document.createElement("div");
        cell.className = "tile" + (t.halo_text ? " halo" : "");
        cell.dataset.devices = t.devices.join(" ");
        cell.style.background = t.color;
        cell.style.color = t.text;
        cell.title = "elements " + t.bounds.map(function (b) { return b[0] + ":" + b[1]; }).join(", ") +
                     "; local " + t.local.join("x");
        var label = document.createElement("span");
        label.className = "label";
        label.textContent = t.label;
        cell.appendChild(label);
        if (t.halo_text) {
          var h = document.createElement("span");
          h.className = "halo-text";
          h.textContent = t.halo_text;
          cell.appendChild(h);
        }
        grid.appendChild(cell);
        drawn += 1;
      });
      fig.appendChild(grid);
      [L.partial, L.halo, L.empty].forEach(function (note) {
        if (!note) return;
        var p = document.createElement("p");
        p.className = "note";
        p.textContent = note;
        fig.appendChild(p);
      });
      box.appendChild(fig);
    });
  });
  document.body.dataset.tiles = String(drawn);
  document.body.dataset.rendered = "true";
})();
"""


def _value_json(v: ValueLayout) -> dict:
    out: dict = {
        "name": v.name,
        "title": v.title,
        "what": v.what,
        "line": v.line,
        "col": v.col,
        "sharding": f"@{v.mesh} {v.sharding}" if v.sharding is not None else "",
        "problem": v.problem,
        "layout": None,
    }
    if v.layout is not None:
        layout = v.layout.to_json()
        layout["mesh_text"] = v.layout.mesh_text()
        for n, (tile, item) in enumerate(zip(v.layout.tiles, layout["tiles"])):
            item["color"] = colour(n)
            item["text"] = text_colour(item["color"])
            item["halo_text"] = halo_text(tile)
        out["layout"] = layout
    return out


def page_data(functions: list[FunctionLayouts], source: str = "") -> dict:
    """What the page embeds: plain data, also handy for other tools."""
    return {
        "source": source,
        "functions": [
            {
                "name": f.name,
                "per_device": f.per_device,
                "values": [_value_json(v) for v in f.values],
                "reshards": [
                    {
                        "name": r.name,
                        "line": r.line,
                        "col": r.col,
                        "mesh": r.mesh,
                        "source": str(r.source),
                        "target": str(r.target),
                        "steps": list(r.steps),
                        "bytes_received": r.bytes_received,
                        "lower_bound": r.lower_bound,
                        "problem": r.problem,
                    }
                    for r in f.reshards
                ],
            }
            for f in functions
        ],
    }


def _embedded_json(data: dict) -> str:
    """JSON that cannot end its `<script>` element early."""
    return json.dumps(data, indent=1).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _reshard_table(f: FunctionLayouts) -> list[str]:
    if not f.reshards:
        return ['<p class="note">No reshards: every annotation keeps the layout its value has.</p>']
    out = [
        '<table class="reshards">',
        "<tr><th>value</th><th>at</th><th>from</th><th>to</th><th>collectives</th>"
        "<th>bytes received per device</th><th>lower bound</th></tr>",
    ]
    total = 0
    for r in f.reshards:
        at = f"{r.line}:{r.col}" if r.line else ""
        if r.problem:
            steps, received, bound = f'<span class="problem">{escape(r.problem)}</span>', "", ""
        else:
            steps = "<br>".join(escape(s) for s in r.steps) or "nothing to move"
            received, bound = f"{r.bytes_received:,}", f"{r.lower_bound:,}"
            total += r.bytes_received
        out.append(
            f'<tr class="reshard"><td><code>{escape(r.name)}</code></td><td>{at}</td>'
            f"<td><code>{escape(str(r.source))}</code></td><td><code>{escape(str(r.target))}</code></td>"
            f'<td class="steps">{steps}</td><td class="bytes">{received}</td><td class="bytes">{bound}</td></tr>'
        )
    out.append(f'<tr class="total"><td colspan="5">total</td><td class="bytes">{total:,}</td><td></td></tr>')
    out.append("</table>")
    return out


def to_html(functions: list[FunctionLayouts], source: str = "") -> str:
    """The page for `functions` (read from the file named `source`)."""
    names = ", ".join("@" + f.name for f in functions) or "no function"
    title = f"Layouts of {names}" + (f" in {source}" if source else "")
    body = [f"<h1>{escape(title)}</h1>"]
    for f in functions:
        kind = "per-device program: layouts from its signature" if f.per_device else "annotated program"
        body.append(f'<section class="function" id="function-{escape(f.name)}">')
        body.append(f"<h2>func @{escape(f.name)} <small>({kind})</small></h2>")
        body.append("<h3>Values</h3>")
        if not f.values:
            body.append('<p class="note">No layouts: the function has no annotation and no laid-out argument.</p>')
        body.append(f'<div class="values" data-function="{escape(f.name)}"></div>')
        texts = []
        for v in f.values:
            texts.append(to_text(v.layout, title=v.title) if v.layout is not None else f"{v.title}: {v.problem}")
        if texts:
            body.append(f"<noscript><pre>{escape(chr(10).join(texts))}</pre></noscript>")
        body.append("<h3>Reshards</h3>")
        body += _reshard_table(f)
        body.append("</section>")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + '\n<script type="application/json" id="mesh-viz-data">'
        + _embedded_json(page_data(functions, source))
        + "</script>\n<script>"
        + _SCRIPT
        + "</script>\n</body>\n</html>\n"
    )
