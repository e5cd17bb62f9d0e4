// raidsim playground: reads the controls, calls the WebAssembly
// simulator (raidsimRun), and draws the result as SVG. No framework.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
let result = null;
let runs = 0;

function el(name, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// controls are the page's controls, as raidsimControls() describes them.
let controls = [];

function settings() {
  const out = {};
  for (const c of controls) {
    const e = input(c);
    out[c.path] = c.kind === "switch" ? (e.checked ? "on" : "off") : e.value;
  }
  return out;
}

function input(c) {
  return document.querySelector(`[data-path="${c.path}"]`);
}

// buildControls adds one labelled input per control, in fieldsets.
function buildControls() {
  const form = $("controls"), before = $("run");
  const sets = {};
  for (const c of controls) {
    if (!sets[c.group]) {
      sets[c.group] = document.createElement("fieldset");
      const legend = document.createElement("legend");
      legend.textContent = c.group;
      sets[c.group].appendChild(legend);
      form.insertBefore(sets[c.group], before);
    }
    const label = document.createElement("label");
    label.title = c.doc + " (" + c.path + ", raidsim run --" + c.flag + ")";
    let e;
    if (c.kind === "select") {
      e = document.createElement("select");
      for (const o of c.options) {
        const opt = document.createElement("option");
        opt.value = o.value;
        opt.textContent = o.text;
        e.appendChild(opt);
      }
      e.value = c.start;
    } else {
      e = document.createElement("input");
      e.type = { number: "number", range: "range", switch: "checkbox" }[c.kind];
      if (c.kind === "switch") e.checked = c.start === "on" || c.start === "true";
      else Object.assign(e, { min: c.min, max: c.max, value: c.start });
    }
    e.dataset.path = c.path;
    if (c.kind === "switch") label.append(e, " " + c.label);
    else label.append(c.label + " ", e);
    if (c.kind === "range") {
      const out = document.createElement("output");
      out.textContent = c.start;
      label.append(" ", out);
      e.addEventListener("input", () => {
        out.textContent = e.value;
        clearTimeout(pending);
        pending = setTimeout(run, 200); // the slider reruns as it moves
      });
    }
    sets[c.group].appendChild(label);
  }
}

function run() {
  $("status").textContent = "running…";
  // Let the status paint before the (synchronous) simulation runs.
  setTimeout(() => {
    try {
      const out = JSON.parse(raidsimRun(JSON.stringify(settings())));
      if (out.error) {
        $("status").textContent = "error: " + out.error;
        return;
      }
      result = out;
      runs++;
      draw();
      $("status").textContent = "done: run " + runs;
      $("status").dataset.runs = String(runs);
    } catch (e) {
      $("status").textContent = "error: " + e;
    }
  }, 10);
}

function draw() {
  const r = result;
  $("iops").textContent = r.iops.toFixed(1);
  $("mbps").textContent = r.mbps.toFixed(2);
  $("mean").textContent = r.mean_ms.toPrecision(4);
  $("p99").textContent = r.p99_ms.toPrecision(4);
  $("command").textContent = r.command;
  $("report").textContent = r.report;
  lineChart($("throughput"), r.throughput, { xLabel: "time (s)", yLabel: "IOPS", yFromZero: true });
  lineChart($("cdf"), r.cdf, { xLabel: "latency (ms)", yLabel: "fraction", logX: true, yMax: 1 });
  stripeMap($("stripemap"), r);
  explain(0);
}

// niceTicks returns about n round values spanning [lo, hi].
function niceTicks(lo, hi, n) {
  const span = hi - lo || 1;
  const step0 = span / n;
  const mag = Math.pow(10, Math.floor(Math.log10(step0)));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= step0);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(+v.toPrecision(6));
  return out;
}

function lineChart(svg, pts, o) {
  svg.replaceChildren();
  const W = 420, H = 240, L = 52, R = 12, T = 10, B = 36;
  if (!pts || pts.length === 0) return;
  const xs = pts.map((p) => (o.logX ? Math.log10(Math.max(p.x, 1e-3)) : p.x));
  let x0 = Math.min(...xs), x1 = Math.max(...xs);
  if (x0 === x1) x1 = x0 + 1;
  const ys = pts.map((p) => p.y);
  const y0 = o.yFromZero || o.yMax ? 0 : Math.min(...ys);
  let y1 = o.yMax || Math.max(...ys) * 1.05;
  if (y1 === y0) y1 = y0 + 1;
  const sx = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R);
  const sy = (y) => H - B - ((y - y0) / (y1 - y0)) * (H - T - B);
  const xt = o.logX ? niceTicks(Math.floor(x0), Math.ceil(x1), 5).filter((v) => Number.isInteger(v) && v >= x0 && v <= x1) : niceTicks(x0, x1, 5);
  for (const v of xt) {
    el("line", { x1: sx(v), x2: sx(v), y1: T, y2: H - B, class: "grid" }, svg);
    el("text", { x: sx(v), y: H - B + 14, "text-anchor": "middle" }, svg, o.logX ? String(+Math.pow(10, v).toPrecision(3)) : String(v));
  }
  for (const v of niceTicks(y0, y1, 4)) {
    el("line", { x1: L, x2: W - R, y1: sy(v), y2: sy(v), class: "grid" }, svg);
    el("text", { x: L - 4, y: sy(v) + 4, "text-anchor": "end" }, svg, String(v));
  }
  el("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, class: "axis" }, svg);
  el("line", { x1: L, x2: L, y1: T, y2: H - B, class: "axis" }, svg);
  el("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle" }, svg, o.xLabel);
  el("text", { x: 12, y: (T + H - B) / 2, transform: `rotate(-90 12 ${(T + H - B) / 2})`, "text-anchor": "middle" }, svg, o.yLabel);
  const d = pts.map((p, i) => (i ? "L" : "M") + sx(xs[i]).toFixed(1) + "," + sy(p.y).toFixed(1)).join("");
  el("path", { d: d, class: "curve" }, svg);
}

function stripeMap(svg, r) {
  svg.replaceChildren();
  const n = r.requests.length, m = r.members;
  const L = 60, T = 18, cw = Math.min(90, (420 - L - 8) / m), rh = 10;
  svg.setAttribute("viewBox", `0 0 420 ${T + n * rh + 6}`);
  for (let j = 0; j < m; j++) el("text", { x: L + j * cw + cw / 2, y: 12, "text-anchor": "middle" }, svg, "d" + j);
  r.requests.forEach((q, i) => {
    const g = el("g", { class: "row", "data-i": i }, svg);
    el("rect", { class: "bg", x: 0, y: T + i * rh, width: 420, height: rh, fill: "transparent" }, g);
    if (rh >= 9) el("text", { x: 4, y: T + i * rh + rh - 2 }, g, "#" + q.id + " " + q.op[0]);
    const seen = {};
    for (const t of q.touches || []) {
      const key = t.member + (t.later ? "L" : "") + t.op;
      if (seen[key]) continue;
      seen[key] = true;
      const color = t.op === "read" ? "#3b75af" : "#ef8a2b";
      const half = t.op === "read" ? 0 : cw / 2;
      el("rect", { x: L + t.member * cw + half + 1, y: T + i * rh + 1, width: cw / 2 - 2, height: rh - 2,
        fill: color, "fill-opacity": t.later ? 0.4 : 1 }, g);
    }
    g.addEventListener("click", () => explain(i));
  });
}

function explain(i) {
  const q = result && result.requests[i];
  if (!q) return;
  $("explain_id").textContent = "#" + q.id;
  $("explain").textContent = q.explain;
  for (const g of $("stripemap").querySelectorAll(".row")) g.classList.toggle("sel", g.dataset.i === String(i));
}

function raidsimReady() {
  controls = JSON.parse(raidsimControls());
  buildControls();
  $("run").disabled = false;
  $("status").textContent = "ready";
  run();
}

let pending = 0;
$("run").addEventListener("click", run);

const go = new Go();
WebAssembly.instantiateStreaming(fetch("playground.wasm"), go.importObject)
  .then((r) => go.run(r.instance))
  .catch((e) => { $("status").textContent = "could not load the simulator: " + e; });
