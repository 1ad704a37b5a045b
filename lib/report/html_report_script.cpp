// The HTML report's script: draws the data document (html_report_data.cpp) into the page's
// sections. Scenario text only ever reaches the page as textContent or an attribute value, never
// as markup. Long lists are paged and the search box filters them, so that a replay of thousands
// of nodes and tens of thousands of pods draws only what is on screen. When done it writes what it
// drew into #render-status (data-* counts, data-errors), which the browser test reads. A pod's
// ResourceClaims are listed where the pod is shown (its bars' tooltips, its card when pending)
// and all of them in their own table.

#include "report/html_report_page.hpp"

namespace gpusched::report {

std::string_view html_report_script() {
  return R"JS("use strict";
(function () {
  const status = document.getElementById("render-status");
  let errors = 0;
  function fail(message) {
    errors += 1;
    status.dataset.errors = String(errors);
    status.hidden = false;
    status.textContent = "The report could not be drawn: " + message;
  }
  window.addEventListener("error", (e) => fail(e.message));

  const SVG = "http://www.w3.org/2000/svg";
  const LABEL = 230, PLOT = 1000, LANE = 16, GAP = 2, AXIS = 18;
  const counts = {};
  let data, view, query = "";

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    for (const c of children) node.append(c instanceof Node ? c : String(c));
    return node;
  }
  function sv(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function tip(node, text) { node.append(sv("title", {}, text)); return node; }
  function byId(id) { return document.getElementById(id); }

  // Go-like durations, as gpusched prints them: 1h2m3.5s, 250ms.
  function dur(ms) {
    if (ms === 0) return "0s";
    let out = ms < 0 ? "-" : "";
    ms = Math.abs(ms);
    const h = Math.floor(ms / 3600000), m = Math.floor(ms / 60000) % 60, rest = ms % 60000;
    if (h) out += h + "h";
    if (m) out += m + "m";
    if (rest === 0) return out;
    if (rest < 1000) return out + rest + "ms";
    return out + String(rest / 1000) + "s";
  }
  function plural(n, noun) { return n + " " + noun + (n === 1 ? "" : "s"); }
  function x(t) {
    const c = Math.min(Math.max(t, view.from), view.to);
    return LABEL + ((c - view.from) / (view.to - view.from)) * PLOT;
  }
  function visible(from, to) { return to >= view.from && from <= view.to; }
  function hue(text) {
    let h = 0;
    for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) % 360;
    return h;
  }
  function matches(text) { return query !== "" && text.toLowerCase().includes(query); }

  // A ResourceClaim row: [name, owner, node, [[request, driver, pool, device]], [reserved for],
  // [named by]]; a pod's claims are those its spec names.
  function devicesText(c) {
    return c[3].map(([request, driver, pool, device]) =>
      request + "=" + driver + "/" + pool + "/" + device).join(", ");
  }
  function claimText(c) {
    return c[0] + ": " + (c[3].length ? devicesText(c) + (c[2] ? " on " + c[2] : "")
                                      : "not allocated");
  }
  function claimsOf(pod) { return state.claimsOf.get(pod) || []; }

  function axis(g, y) {
    const steps = [1e3, 2e3, 5e3, 1e4, 15e3, 3e4, 6e4, 12e4, 3e5, 6e5, 9e5, 18e5, 36e5, 72e5,
                   108e5, 216e5, 432e5, 864e5, 1728e5, 6048e5];
    const span = view.to - view.from;
    const step = steps.find((s) => span / s <= 10) || Math.ceil(span / 10);
    for (let t = Math.ceil(view.from / step) * step; t <= view.to; t += step) {
      g.append(sv("line", {x1: x(t), x2: x(t), y1: y, y2: y + 4, class: "tick"}));
      g.append(sv("text", {x: x(t), y: y + 14, class: "tick-label"}, dur(t)));
    }
  }
  function chart(svgHeight) {
    const s = sv("svg", {width: LABEL + PLOT + 30, height: svgHeight, class: "timeline"});
    return s;
  }

  // Greedy interval partitioning: each bar takes the first lane free at its start.
  function lanes(bars) {
    bars.sort((a, b) => a.from - b.from || a.to - b.to);
    const ends = [];
    for (const bar of bars) {
      let lane = ends.findIndex((end) => end <= bar.from);
      if (lane < 0) { lane = ends.length; ends.push(0); }
      ends[lane] = Math.max(bar.to, bar.from + 1);
      bar.lane = lane;
    }
    return Math.max(ends.length, 1);
  }
  function drawBars(g, bars, y0, kind, node) {
    for (const bar of bars) {
      const x0 = x(bar.from), w = Math.max(2, x(bar.to) - x0);
      const y = y0 + bar.lane * (LANE + GAP);
      const name = data.pods[bar.span[0]];
      const rect = sv("rect", {x: x0, y: y, width: w, height: LANE, rx: 2,
                               class: "bar " + kind + (matches(name) ? " match" : ""),
                               fill: "hsl(" + hue(name) + ",55%,62%)", "data-pod": name});
      const until = bar.span[3] === null ? "the end (" + dur(data.end) + ")" : dur(bar.span[3]);
      tip(rect, name + " on " + node + (bar.gpu ? " " + bar.gpu : "") + "\nfrom " +
                dur(bar.span[2]) + " to " + until +
                claimsOf(bar.span[0]).map((c) => "\nclaim " + claimText(c)).join(""));
      g.append(rect);
      if (w > 70) {
        g.append(sv("text", {x: x0 + 4, y: y + LANE - 4, class: "bar-label"},
                    name.slice(name.indexOf("/") + 1).slice(0, Math.floor(w / 7))));
      }
      counts[kind === "pod-bar" ? "bars" : "gpuBars"] += 1;
    }
  }

  function nodeBlock(n, index) {
    const [name, pool, gpus] = data.nodes[n];
    const held = index.held[n].filter((s) => visible(s[2], s[3] === null ? data.end : s[3]));
    const podBars = held.map((s) => ({span: s, from: s[2], to: s[3] === null ? data.end : s[3]}));
    const podLanes = lanes(podBars);
    const gpuRows = gpus.map(([gpuIndex, uuid], row) => {
      const label = gpuIndex >= 0 ? "GPU " + gpuIndex : uuid;
      const bars = held.filter((s) => s[5].includes(row))
        .map((s) => ({span: s, from: s[2], to: s[3] === null ? data.end : s[3], gpu: label}));
      return {label: label, uuid: uuid, bars: bars, lanes: lanes(bars)};
    });
    let height = AXIS + podLanes * (LANE + GAP) + 6;
    for (const r of gpuRows) height += r.lanes * (LANE + GAP) + 6;
    const s = chart(height + 4);
    s.dataset.node = name;
    const g = sv("g");
    s.append(g);
    axis(g, 0);
    let y = AXIS;
    g.append(sv("text", {x: 4, y: y + LANE - 4, class: "row-label"}, "pods"));
    drawBars(g, podBars, y, "pod-bar", name);
    y += podLanes * (LANE + GAP) + 6;
    for (const r of gpuRows) {
      g.append(sv("line", {x1: 0, x2: LABEL + PLOT, y1: y - 3, y2: y - 3, class: "row-rule"}));
      g.append(tip(sv("text", {x: 16, y: y + LANE - 4, class: "row-label gpu-label"}, r.label),
                   r.uuid));
      drawBars(g, r.bars, y, "gpu-bar", name);
      y += r.lanes * (LANE + GAP) + 6;
    }
    for (const p of index.preempted[n]) {
      if (!visible(p[0], p[0])) continue;
      const victims = p[3].map((v) => data.pods[v]).join(", ");
      const mark = sv("g", {class: "preemption"});
      mark.append(sv("line", {x1: x(p[0]), x2: x(p[0]), y1: AXIS - 6, y2: height}));
      mark.append(sv("path", {d: "M" + (x(p[0]) - 5) + "," + (AXIS - 10) + "h10l-5,8z"}));
      tip(mark, "preemption at " + dur(p[0]) + ": " + victims + " -> " + data.pods[p[1]]);
      g.append(mark);
      counts.preemptionMarkers += 1;
    }
    const head = el("div", {class: "node-head"}, el("strong", {}, name),
                    pool ? el("span", {class: "pool"}, "pool " + pool) : "",
                    el("span", {class: "muted"}, plural(index.held[n].length, "pod") +
                                                 (gpus.length ? ", " + plural(gpus.length, "GPU") : "")));
    counts.nodeBlocks += 1;
    return el("div", {class: "node"}, head, s);
  }

  function pager(container, total, size, page, onPage) {
    const pages = Math.max(1, Math.ceil(total / size));
    if (total === 0) container.append(el("p", {class: "muted"}, "none"));
    if (pages === 1) return;
    const bar = el("div", {class: "pager"});
    const prev = el("button", {type: "button"}, "\u2190 previous");
    const next = el("button", {type: "button"}, "next \u2192");
    prev.disabled = page <= 0;
    next.disabled = page >= pages - 1;
    prev.addEventListener("click", () => onPage(page - 1));
    next.addEventListener("click", () => onPage(page + 1));
    bar.append(prev, el("span", {}, " page " + (page + 1) + " of " + pages + " (" + total + ") "),
               next);
    container.append(bar);
  }

  const pages = {nodes: 0, pending: 0, preemptions: 0, stuck: 0, claims: 0, events: 0};
  function paged(id, key, items, size, draw) {
    const box = byId(id);
    box.replaceChildren();
    const page = Math.min(pages[key], Math.max(0, Math.ceil(items.length / size) - 1));
    pages[key] = page;
    pager(box, items.length, size, page, (p) => { pages[key] = p; renderAll(); });
    draw(box, items.slice(page * size, page * size + size));
  }

  function renderNodes(index) {
    const nodes = data.nodes.map((_, n) => n).filter((n) => query === "" ||
      matches(data.nodes[n][0]) || index.held[n].some((s) => matches(data.pods[s[0]])));
    paged("node-list", "nodes", nodes, 20, (box, page) => {
      for (const n of page) box.append(nodeBlock(n, index));
    });
  }

  function renderPending() {
    // Every pod that waited, and every pod still waiting at the end (even one just created).
    const waits = data.spans.filter((s) => {
      const to = s[2] !== null ? s[2] : s[3] !== null ? s[3] : data.end;
      const open = s[2] === null && s[3] === null;
      return (to > s[1] || open) && visible(s[1], to) && (query === "" || matches(data.pods[s[0]]));
    });
    paged("pending-list", "pending", waits, 100, (box, page) => {
      const s = chart(AXIS + page.length * (LANE + GAP) + 4);
      axis(s, 0);
      page.forEach((span, i) => {
        const name = data.pods[span[0]];
        const open = span[2] === null && span[3] === null;
        const to = span[2] !== null ? span[2] : span[3] !== null ? span[3] : data.end;
        const y = AXIS + i * (LANE + GAP);
        s.append(sv("text", {x: 4, y: y + LANE - 4, class: "row-label"}, name.slice(0, 34)));
        const x0 = x(span[1]);
        const rect = sv("rect", {x: x0, y: y, width: Math.max(2, x(to) - x0), height: LANE, rx: 2,
                                 class: "wait" + (open ? " open" : "") +
                                        (matches(name) ? " match" : "")});
        tip(rect, name + " pending from " + dur(span[1]) + " for " + dur(to - span[1]) +
                  (open ? " (still pending at the end)" : span[2] === null ? " (deleted)" : ""));
        s.append(rect);
        counts.pendingBars += 1;
      });
      box.append(s);
    });
  }

  function table(headers, rows) {
    const t = el("table", {}, el("thead", {}, el("tr", {}, ...headers.map((h) => el("th", {}, h)))));
    const body = el("tbody");
    for (const r of rows) body.append(el("tr", {}, ...r.map((c) => el("td", {}, c))));
    t.append(body);
    return t;
  }

  function renderPreemptions() {
    const rows = data.preemptions.filter((p) => query === "" || matches(data.pods[p[1]]) ||
      p[3].some((v) => matches(data.pods[v])) || (p[2] >= 0 && matches(data.nodes[p[2]][0])));
    paged("preemption-list", "preemptions", rows, 50, (box, page) => {
      box.append(table(["time", "node", "preemptor", "victims"], page.map((p) => [
        dur(p[0]), p[2] >= 0 ? data.nodes[p[2]][0] : "", data.pods[p[1]],
        p[3].map((v) => data.pods[v]).join(", ")])));
    });
  }

  function renderStuck() {
    const rows = data.pending.filter((p) => query === "" || matches(data.pods[p[0]]));
    paged("stuck-list", "stuck", rows, 20, (box, page) => {
      for (const [pod, created, message, nominated, layer, diagnosis, remedies] of page) {
        const card = el("div", {class: "stuck"}, el("h3", {}, data.pods[pod]),
          el("p", {}, "waiting " + dur(data.end - created) + " (since " + dur(created) + ")" +
                      (nominated ? ", nominated to " + nominated : "")));
        card.append(el("p", {class: "message"}, message || "no FailedScheduling event"));
        for (const c of claimsOf(pod)) {
          card.append(el("p", {class: "claim"}, "claim " + claimText(c)));
        }
        if (layer || diagnosis) {
          card.append(el("p", {}, el("span", {class: "layer"}, layer), " ", diagnosis));
        }
        if (remedies.length) card.append(el("ul", {}, ...remedies.map((r) => el("li", {}, r))));
        box.append(card);
        counts.pendingPods += 1;
      }
    });
  }

  function renderClaims() {
    const rows = data.claims.filter((c) => query === "" || matches(c[0]) || matches(c[1]) ||
      matches(c[2]) || matches(devicesText(c)) || c[4].some((p) => matches(data.pods[p])));
    paged("claim-list", "claims", rows, 100, (box, page) => {
      box.append(table(["claim", "owner", "node", "devices", "reserved for"], page.map((c) => [
        c[0], c[1], c[2], devicesText(c) || "not allocated",
        c[4].map((p) => data.pods[p]).join(", ")])));
      counts.claims += page.length;
    });
  }

  function renderEvents() {
    const rows = data.events.filter((e) => query === "" || matches(e[5]) || matches(e[6]) ||
                                           matches(e[4]));
    paged("event-list", "events", rows, 100, (box, page) => {
      box.append(table(["first", "last", "count", "type", "reason", "object", "message"],
                       page.map((e) => [dur(e[0]), dur(e[1]), e[2], e[3], e[4], e[5], e[6]])));
      counts.events += page.length;
    });
  }

  // Step series against the view's time axis: a line, or an area down to zero.
  function series(s, points, top, height, max, cls, title, area) {
    const base = top + height;
    let d = "";
    for (const [t, v] of points) {
      const y = base - (max > 0 ? (v / max) * height : 0);
      d += (d ? "L" : "M") + x(t).toFixed(1) + "," + y.toFixed(1);
    }
    if (area && points.length) {
      d += "L" + x(points[points.length - 1][0]).toFixed(1) + "," + base + "L" +
           x(points[0][0]).toFixed(1) + "," + base + "z";
    }
    s.append(tip(sv("path", {d: d, class: "series " + cls + (area ? " area" : "")}), title));
  }
  function steps(values, width) {
    const out = [];
    values.forEach((v, i) => { out.push([i * width, v]); out.push([Math.min((i + 1) * width, data.end), v]); });
    return out;
  }
  function plot(id, title, lines) {
    const box = byId(id);
    box.replaceChildren(el("h3", {}, title));
    const height = 120;
    const s = chart(height + AXIS + 10);
    let max = 0;
    for (const l of lines) for (const [, v] of l.points) max = Math.max(max, v);
    s.append(sv("text", {x: 4, y: 14, class: "row-label"}, "max " + l10(max)));
    s.append(sv("line", {x1: LABEL, x2: LABEL + PLOT, y1: height + 4, y2: height + 4, class: "tick"}));
    lines.forEach((l, i) => series(s, l.points, 4, height, max, l.cls, l.name, i === 0));
    axis(s, height + 6);
    const legend = el("div", {class: "legend"});
    for (const l of lines) legend.append(el("span", {class: "key " + l.cls}, l.name));
    box.append(s, legend);
  }
  // Byte-hours read better as GiB-hours.
  function hours(resource, value) {
    const bytes = resource === "memory" || resource.endsWith("ephemeral-storage") ||
                  resource.startsWith("hugepages-");
    return bytes ? l10(value / 1073741824) + " GiB" : l10(value);
  }
  function l10(v) { return Number.isInteger(v) ? String(v) : v.toFixed(2); }

  // Pods pending and pods holding a node over time, from the spans.
  function podCurves() {
    const changes = [];
    for (const s of data.spans) {
      const waitEnd = s[2] !== null ? s[2] : s[3] !== null ? s[3] : data.end;
      if (waitEnd > s[1]) changes.push([Math.max(0, s[1]), 1, 0], [waitEnd, -1, 0]);
      if (s[2] !== null) changes.push([Math.max(0, s[2]), 0, 1], [s[3] === null ? data.end : s[3], 0, -1]);
    }
    changes.sort((a, b) => a[0] - b[0]);
    const pending = [[0, 0]], running = [[0, 0]];
    let p = 0, r = 0;
    for (let i = 0; i < changes.length;) {
      const t = changes[i][0];
      for (; i < changes.length && changes[i][0] === t; i++) { p += changes[i][1]; r += changes[i][2]; }
      pending.push([t, pending[pending.length - 1][1]], [t, p]);
      running.push([t, running[running.length - 1][1]], [t, r]);
    }
    pending.push([data.end, p]);
    running.push([data.end, r]);
    return {pending: pending, running: running};
  }

  function renderCharts(curves) {
    const w = data.gpu.bucketMs;
    plot("gpu-chart", "GPUs (average over each " + dur(w) + ")", [
      {name: "schedulable", cls: "schedulable", points: steps(data.gpu.schedulable.map((v) => v / 1000), w)},
      {name: "allocated", cls: "allocated", points: steps(data.gpu.allocated.map((v) => v / 1000), w)}]);
    plot("pods-chart", "Pods", [
      {name: "holding a node", cls: "running", points: curves.running},
      {name: "pending", cls: "pending", points: curves.pending}]);
  }

  function renderStatic() {
    byId("title").textContent = "gpusched replay: " + data.scenario;
    byId("subtitle").textContent = (data.source ? data.source + " \u2014 " : "") + "ended at " +
      dur(data.end) + ", expectations " + (data.passed ? "held" : "FAILED");
    byId("metrics").append(table(["metric", "value"], data.metrics));
    // A run without Dynamic Resource Allocation has no claims to show.
    byId("claims").hidden = data.claims.length === 0;
    byId("claims-link").hidden = data.claims.length === 0;
    byId("resources").append(table(["resource", "allocatable hours", "requested hours", "allocation"],
      data.resources.map(([r, a, q]) => [r, hours(r, a), hours(r, q),
                                           a > 0 ? (100 * q / a).toFixed(1) + "%" : "\u2013"])));
  }

  function renderAll() {
    for (const k of ["nodeBlocks", "bars", "gpuBars", "preemptionMarkers", "pendingBars",
                     "pendingPods", "claims", "events"]) counts[k] = 0;
    byId("view").textContent = dur(view.from) + " \u2013 " + dur(view.to);
    renderCharts(state.curves);
    renderNodes(state.index);
    renderPending();
    renderPreemptions();
    renderStuck();
    renderClaims();
    renderEvents();
    status.dataset.nodes = String(data.nodes.length);
    for (const [k, v] of Object.entries(counts)) {
      status.dataset[k] = String(v);
    }
  }

  const state = {};
  function zoom(factor, shift) {
    const span = Math.max(1, Math.round((view.to - view.from) * factor));
    const full = Math.max(1, data.end);
    let from = Math.round(view.from + (view.to - view.from - span) / 2 + shift * span);
    from = Math.min(Math.max(0, from), Math.max(0, full - span));
    view = {from: from, to: Math.min(full, from + span)};
    renderAll();
  }

  try {
    const started = performance.now();
    data = JSON.parse(byId("report-data").textContent);
    view = {from: 0, to: Math.max(1, data.end)};
    const held = data.nodes.map(() => []), preempted = data.nodes.map(() => []);
    for (const s of data.spans) if (s[4] >= 0 && s[2] !== null) held[s[4]].push(s);
    for (const p of data.preemptions) if (p[2] >= 0) preempted[p[2]].push(p);
    state.index = {held: held, preempted: preempted};
    state.claimsOf = new Map();
    for (const c of data.claims) {
      for (const p of c[5]) {
        if (!state.claimsOf.has(p)) state.claimsOf.set(p, []);
        state.claimsOf.get(p).push(c);
      }
    }
    state.curves = podCurves();
    renderStatic();
    let timer = 0;
    byId("search").addEventListener("input", (e) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        query = e.target.value.trim().toLowerCase();
        for (const k of Object.keys(pages)) pages[k] = 0;
        renderAll();
      }, 150);
    });
    byId("zoom-in").addEventListener("click", () => zoom(0.5, 0));
    byId("zoom-out").addEventListener("click", () => zoom(2, 0));
    byId("pan-left").addEventListener("click", () => zoom(1, -0.5));
    byId("pan-right").addEventListener("click", () => zoom(1, 0.5));
    byId("zoom-reset").addEventListener("click", () => { view = {from: 0, to: Math.max(1, data.end)}; renderAll(); });
    renderAll();
    status.dataset.renderMs = String(Math.round(performance.now() - started));
  } catch (e) {
    fail(e && e.message ? e.message : String(e));
  }
  status.dataset.done = "1";
})();
)JS";
}

}  // namespace gpusched::report
