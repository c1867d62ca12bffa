// The analysis board: a background analysis (/api/analyses), then a move list, a win-% graph and the
// board kept in step; played move against the best, what-if, the per-seat summary.
import { api, showError, el, sleep, points, readRecordFile, winText, pointsText, isPlacement, boardLayout } from "./api.js";

const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
const STRENGTH = {
  quick: { samples: 16, luck_samples: 8, dd_nodes: 200000 },
  standard: { samples: 96, luck_samples: 48, dd_nodes: 2000000 },
  deep: { samples: 256, luck_samples: 96, dd_nodes: 4000000 },
};
const MARK_SIGN = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const SIGN_WORDS = { "?!": "inaccuracies", "?": "mistakes", "??": "blunders" };
const NS = "http://www.w3.org/2000/svg";

let record = null;      // the record analysed
let result = null;      // fiveup analyze --json
let actions = [];       // [{r, i, seat, text, decision}] every action of the record, in order, then
                        // {r, i, final: true}: the position after the last one
let cursor = 0;         // index into actions: the position before that action (the final: after all)
let whatIf = null;      // the move tried at the current position
let positions = new Map();
let values = new Map(); // "r/i" -> [{move, win, points}] from the analysis or an evaluation here
let valuedBy = new Map(); // "r/i" -> how its values were searched (said under the what-if table)
let lead = "";          // said before the next decision stepped to (the analysis's end)

function setState(s) { document.body.dataset.state = s; }

// ------------------------------------------------------------------ focus and announcements
// (an accessibility review: the focus fell to the page at Analyse, after a what-if move and
// Evaluate; nothing said the analysis's end or the move stepped to)
function focusLost() {
  const a = document.activeElement;
  return !a || a === document.body || !a.isConnected || a.disabled || Boolean(a.closest("[hidden]"));
}

// one short sentence in the page's polite live region (#say); the same sentence again is said again
function say(text) {
  const box = $("say");
  if (!box) return;
  box.textContent = box.textContent === text ? `${text}\u00a0` : text;
}
const MARK_WORDS = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" };

// "seat 1 (greedy)": the seat with its name in the record, unless it has none or Game's
// default one ("seat1"); notation.format_seat is the same rule in Python
function seatText(s, rec = record) {
  const name = Array.isArray(rec && rec.seats) ? rec.seats[s] : undefined;
  return name === undefined || name === null || name === `seat${s}` ? `seat ${s}` : `seat ${s} (${name})`;
}

function setRecord(rec, label) {
  record = rec;
  $("source").textContent = label;
  const seat = $("seat");
  const keep = seat.value;
  seat.replaceChildren(el("option", { value: "", text: "every seat" }),
    ...Array.from({ length: rec.players || 0 }, (_, s) => el("option", { value: s, text: seatText(s, rec) })));
  if (typeof rec.view === "number") seat.value = String(rec.view);
  else if (keep !== "" && keep < (rec.players || 0)) seat.value = keep;
  $("run").disabled = false;
}

async function analyse() {
  showError("");
  const body = { record, ...STRENGTH[$("strength").value] };
  if ($("seat").value !== "") body.seat = Number($("seat").value);
  $("run").disabled = true;
  setState("running");
  $("progress").hidden = false;
  // (Analyse is off while it runs: the focus on the progress bar, named "analysis progress")
  if (focusLost()) $("bar").focus();
  say("Analysis started.");
  let quarter = 0;      // the progress said at each quarter, not at every poll
  try {
    const { id } = await api("POST", "/api/analyses", body);
    running = id;
    for (;;) {
      const job = await api("GET", `/api/analyses/${id}`);
      $("bar").value = job.progress;
      $("progress-text").textContent = `${job.status}: ${job.done} / ${job.total} actions`;
      if (job.status === "done") { result = job.result; break; }
      if (job.status !== "error" && Math.floor(4 * job.progress) > quarter && job.progress < 1) {
        quarter = Math.floor(4 * job.progress);
        say(`Analysing: ${25 * quarter} %, ${job.done} of ${job.total} actions.`);
      }
      if (job.status === "error") throw new Error(job.error_message);
      await sleep(250);
    }
    build();
  } catch (e) {
    showError(e.message);
    $("progress").hidden = true;      // a refused or failed analysis leaves no bar behind
    setState("setup");
  } finally {
    running = null;
    $("run").disabled = false;
    if (focusLost() && !$("pick").hidden) $("run").focus();
  }
}

// an analysis left running when its page is left would hold a server slot to its end
let running = null;
window.addEventListener("pagehide", () => {
  if (running) navigator.sendBeacon(`/api/analyses/${running}/cancel`);
});

// ------------------------------------------------------------------ the board view
function build() {
  const byKey = new Map(result.decisions.map((d) => [`${d.round}/${d.action}`, d]));
  actions = [];
  record.rounds.forEach((rnd, r) => {
    rnd.actions.forEach((a, i) => {
      const text = "play" in a ? (a.at ? `${a.play}@${a.at}` : a.play) : "draw" in a ? (a.draw ? `draw ${a.draw}` : "draw") : "pass";
      actions.push({ r, i, seat: a.seat, text, decision: byKey.get(`${r}/${i}`) || null });
    });
  });
  // the position after the record's last action (a review: End showed the board before the
  // winning move, and nothing showed the board after it)
  if (actions.length) {
    const last = actions[actions.length - 1];
    actions.push({ r: last.r, i: last.i + 1, seat: null, text: null, decision: null, final: true });
  }
  values = new Map(result.decisions.filter((d) => !d.forced).map((d) => [`${d.round}/${d.action}`, d.moves]));
  valuedBy = new Map([...values.keys()].map((k) => [k, `the analysis's ${searchText(result.judge)}`]));
  buildMoveList();
  buildGraph();
  buildSummary();
  $("pick").hidden = true;
  $("board-view").hidden = false;
  if (!actions.length) {
    // a record saved before anything was played: there is no move to show
    $("pos-info").textContent = "This record has no actions yet: nothing to analyse.";
    $("board-view").focus();
    say("Analysis done. This record has no actions yet: nothing to analyse.");
    setState("ready");
    return;
  }
  // the focus on the move list, where the keys step the board (a review: it fell to the page)
  $("movelist").focus();
  const judgedCount = result.decisions.filter((d) => !d.forced).length;
  const marks = Object.keys(MARK_SIGN).map((m) => [m, result.decisions.filter((d) => d.mark === m).length]);
  lead = `Analysis done: ${judgedCount} decisions judged; ${marks.map(([m, n]) => `${n} ${n === 1 ? m : MARK_WORDS[m]}`).join(", ")}.`;
  const first = actions.findIndex((a) => a.decision && !a.decision.forced);
  go(first >= 0 ? first : 0);
}

function buildMoveList() {
  const list = $("movelist");
  list.replaceChildren();
  let round = -1;
  actions.forEach((a, k) => {
    // a listbox (the move list keeps the focus, its current move the active option: a screen
    // reader passes the arrow keys to it); a round's heading is an option that cannot be chosen
    if (a.r !== round) {
      round = a.r;
      list.append(el("li", { class: "round", role: "option", "aria-disabled": "true", "aria-selected": "false",
        text: `Round ${round}` }));
    }
    const option = { id: `move-${k}`, role: "option", "aria-selected": "false", "data-k": k, "data-round": a.r,
      "data-action": a.i, onclick: () => go(k) };
    if (a.final) {
      list.append(el("li", { class: "final", ...option }, "final position"));
      return;
    }
    const d = a.decision;
    const mark = d && d.mark ? d.mark : "";
    // the mark's sign seen, its word heard (a review: "?!" is punctuation to a screen reader)
    list.append(el("li", { class: `act ${mark}`, ...option }, `${seatText(a.seat)}: ${a.text}`,
      ...(mark ? [" ", el("span", { "aria-hidden": "true", text: MARK_SIGN[mark] }), el("span", { class: "sr-only", text: ` ${mark}` })] : [])));
  });
}

function judged() { return actions.map((a, k) => ({ a, k })).filter(({ a }) => a.decision && !a.decision.forced); }

function buildGraph() {
  const pts = judged();
  const sides = result.players === 4 ? 2 : result.players;
  const W = 640, H = 202, L = 34, R = 8, T = 10, B = 34;
  const x = (j) => L + (pts.length <= 1 ? 0 : (j * (W - L - R)) / (pts.length - 1));
  const y = (p) => T + (1 - p) * (H - T - B);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("id", "win-graph");
  svg.setAttribute("role", "img");
  // 2 sides: the analysed side's chance where every analysed seat is on one side (a person on
  // side 1 saw their good moves as drops, a review), else side 0's; 3 players: each seat's own
  const analysedSides = [...new Set(Object.values(result.seats).map((s) => s.side))];
  const shown = sides === 2 && analysedSides.length === 1 ? analysedSides[0] : 0;
  svg.setAttribute("aria-label", sides === 2 ? `side ${shown}'s win probability over the game`
    : "each seat's own win probability over the game");
  const add = (parent, tag, attrs, text) => {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text) n.textContent = text;
    parent.append(n);
    return n;
  };
  add(svg, "rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "plot" });
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    add(svg, "line", { x1: L, x2: W - R, y1: y(p), y2: y(p), class: p === 0.5 ? "mid" : "grid" });
    add(svg, "text", { x: L - 4, y: y(p) + 4, class: "axis", "text-anchor": "end" }, `${100 * p}`);
  }
  let prevRound = null;
  pts.forEach(({ a }, j) => {
    if (prevRound !== null && a.r !== prevRound) add(svg, "line", { x1: x(j) - 0.5 * (x(1) - x(0)), x2: x(j) - 0.5 * (x(1) - x(0)), y1: T, y2: H - B, class: "round-line" });
    prevRound = a.r;
  });
  // each round's number under its stretch, as the move list and the point titles number it (a
  // review: "round 7" could be found only by clicking); a number too near the last one is left out
  const spans = [];
  pts.forEach(({ a }, j) => {
    if (spans.length && spans[spans.length - 1].r === a.r) spans[spans.length - 1].last = j;
    else spans.push({ r: a.r, first: j, last: j });
  });
  let lastLabel = -Infinity;
  for (const { r, first, last } of spans) {
    const cx = (x(first) + x(last)) / 2;
    if (cx - lastLabel < 16) continue;
    add(svg, "text", { x: cx, y: H - B + 12, class: "axis round-number", "text-anchor": "middle", "data-round": r }, `${r}`);
    lastLabel = cx;
  }
  const value = ({ a }) => {
    const side = sides === 2 ? a.seat % 2 : a.seat;
    return sides === 2 && side !== shown ? 1 - a.decision.win : a.decision.win;
  };
  if (sides === 2) {
    add(svg, "polyline", { points: pts.map((p, j) => `${x(j)},${y(value(p))}`).join(" "), class: "curve" });
  }
  add(svg, "line", { id: "graph-cursor", x1: -10, x2: -10, y1: T, y2: H - B, class: "cursor" });
  const titleOf = ({ a }) => `round ${a.r} action ${a.i}: ${seatText(a.seat)} ${a.text}${a.decision.mark ? " (" + a.decision.mark + ")" : ""}`;
  // each decision's pointer target: its column of the plot, halfway to its neighbours (the first and the
  // last reach into the margins), under the points, which keep their own clicks and titles (an
  // accessibility review: the points were targets of 6 to 12 px; WCAG 2.5.8 asks 24)
  const step = pts.length > 1 ? x(1) - x(0) : W - L - R;
  pts.forEach((p, j) => {
    const left = j === 0 ? Math.max(0, x(j) - step / 2) : x(j) - step / 2;
    const right = j === pts.length - 1 ? Math.min(W, x(j) + step / 2) : x(j) + step / 2;
    const hit = add(svg, "rect", { x: left, y: T, width: right - left, height: H - T - B, class: "hit", "data-hit": p.k,
      "aria-hidden": "true" });
    add(hit, "title", {}, titleOf(p));
    hit.addEventListener("click", () => go(p.k));
  });
  pts.forEach((p, j) => {
    const d = p.a.decision;
    // a marked decision keeps its seat's colour: the mark is a ring around it, coloured by its
    // severity (a review: filled yellow, orange or red, a 3-player graph's blunder was nobody's)
    if (d.mark) add(svg, "circle", { cx: x(j), cy: y(value(p)), r: 8.5, class: `ring ${d.mark}`, "data-ring": p.k })
      .addEventListener("click", () => go(p.k));
    const r = d.mark ? 5 : 3.5;
    const c = add(svg, "circle", { cx: x(j), cy: y(value(p)), r, class: `pt ${d.mark || ""} seat${p.a.seat}`,
      "data-k": p.k, "data-round": p.a.r, "data-action": p.a.i, tabindex: -1 });
    const title = titleOf(p);
    add(c, "title", {}, title);
    c.addEventListener("click", () => go(p.k));
    // each seat's shape over its point (seat 0 a circle, 1 a square, 2 a triangle, 3 a diamond):
    // the seats told apart without their colours too (a review: blue and violet read alike)
    const shape = markerPath(p.a.seat, x(j), y(value(p)), r);
    if (shape) {
      const m = add(svg, "path", { d: shape, class: `marker seat${p.a.seat}`, "data-marker": p.k, "aria-hidden": "true" });
      add(m, "title", {}, title);
      m.addEventListener("click", () => go(p.k));
    }
  });
  add(svg, "text", { x: L, y: H - 6, class: "axis" },
    sides === 2 ? `side ${shown}'s win % at each judged decision, by round (grey lines: new round)`
      : "each seat's own win % at its judged decisions, by round");
  svg.setAttribute("aria-describedby", "graph-summary");
  svg.setAttribute("aria-details", "graph-table");
  $("graph-summary").textContent = graphSummary(pts, sides, shown, value);
  graphTable(pts, sides, shown, value);
  $("graph").replaceChildren(svg);
  graphLegend(pts);
}

// a seat's marker around a point of radius r, over its circle (none for seat 0: the circle)
function markerPath(seat, cx, cy, r) {
  const f = (v) => v.toFixed(2);
  const poly = (pts) => `M${pts.map(([u, v]) => `${f(cx + u)},${f(cy + v)}`).join("L")}Z`;
  const k = seat % 4;
  if (k === 1) return poly([[-r, -r], [r, -r], [r, r], [-r, r]]);
  if (k === 2) return poly([[0, -2 * r], [1.732 * r, r], [-1.732 * r, r]]);
  if (k === 3) return poly([[0, -1.45 * r], [1.45 * r, 0], [0, 1.45 * r], [-1.45 * r, 0]]);
  return null;
}

// the graph in words, for a screen reader (its aria-describedby): each line's first, last, lowest
// and highest win %, and the marks (a review: only "each seat's own win probability" was said)
function graphSummary(pts, sides, shown, value) {
  if (!pts.length) return "No judged decisions.";
  const at = ({ a }) => `round ${a.r} action ${a.i}`;
  const pc = (v) => `${(100 * v).toFixed(0)} %`;
  const line = (name, list) => {
    if (!list.length) return "";
    const lo = list.reduce((m, q) => (value(q) < value(m) ? q : m));
    const hi = list.reduce((m, q) => (value(q) > value(m) ? q : m));
    return `${name.charAt(0).toUpperCase() + name.slice(1)}: ${pc(value(list[0]))} at the first judged decision, ${pc(value(list[list.length - 1]))} at the last; `
      + `lowest ${pc(value(lo))} (${at(lo)}), highest ${pc(value(hi))} (${at(hi)}).`;
  };
  const seats = [...new Set(pts.map(({ a }) => a.seat))].sort((p, q) => p - q);
  const lines = sides === 2 ? [line(`side ${shown}'s win probability`, pts)]
    : seats.map((s) => line(`${seatText(s)}'s win probability`, pts.filter(({ a }) => a.seat === s)));
  const marked = Object.keys(MARK_SIGN).map((m) => [m, pts.filter(({ a }) => a.decision.mark === m).length]);
  return `${pts.length} judged decisions over ${new Set(pts.map(({ a }) => a.r)).size} rounds. ${lines.join(" ")} `
    + `Marked: ${marked.map(([m, n]) => `${n} ${n === 1 ? m : MARK_WORDS[m]}`).join(", ")} (N and P on the move list step to them). `
    + `The table after the graph gives ${result.players === 4 ? "each side's" : "each seat's"} win % round by round.`;
}

// the graph's data round by round, a table for a screen reader (visually hidden; the graph's aria-details):
// 3 players, each seat's own win % at its first and last judged decision of the round; 2 sides (2 and 4
// players), each side's at the round's first and last judged decision (an accessibility review: the
// 3-player graph had no per-seat description)
function graphTable(pts, sides, shown, value) {
  const pc = (v) => `${(100 * v).toFixed(0)} %`;
  const sideName = (side) => result.players === 4 ? `side ${side} (${seatText(side)} and ${seatText(side + 2)})` : seatText(side);
  const lines = sides === 2
    ? [0, 1].map((side) => ({ name: sideName(side), of: () => true, v: (q) => (side === shown ? value(q) : 1 - value(q)) }))
    : [...new Set(pts.map(({ a }) => a.seat))].sort((p, q) => p - q)
      .map((s) => ({ name: seatText(s), of: ({ a }) => a.seat === s, v: value }));
  const cell = (list, v) => (!list.length ? "none" : list.length === 1 ? pc(v(list[0]))
    : `${pc(v(list[0]))} to ${pc(v(list[list.length - 1]))}`);
  const rounds = [...new Set(pts.map(({ a }) => a.r))];
  $("graph-table").replaceChildren(
    el("caption", { text: sides === 2
      ? `Win % by round: ${result.players === 4 ? "each side's" : "each seat's"} chance to win the game at the round's first and last judged decision`
      : "Win % by round: each seat's own chance to win the game at its first and last judged decision of the round "
        + "(none: no judged decision of that seat in the round)" }),
    el("tr", {}, el("th", { scope: "col", text: "round" }), ...lines.map((l) => el("th", { scope: "col", text: l.name }))),
    ...rounds.map((r) => {
      const inRound = pts.filter(({ a }) => a.r === r);
      return el("tr", {}, el("th", { scope: "row", text: `round ${r}` }),
        ...lines.map((l) => el("td", { text: cell(inRound.filter(l.of), l.v) })));
    }));
}

// the graph's key, in the page above it (a review: drawn in the graph's bottom right, it was off
// a phone's screen, the graph scrolling sideways there): each seat's colour, and the marks' rings
function graphLegend(pts) {
  const seats = [...new Set(pts.map(({ a }) => a.seat))].sort((p, q) => p - q);
  const marks = Object.keys(MARK_SIGN).filter((m) => pts.some(({ a }) => a.decision.mark === m));
  const item = (cls, text, attrs = {}) => el("span", { class: "key", ...attrs }, el("span", { class: cls, "aria-hidden": "true" }), text);
  $("graph-legend").replaceChildren(
    ...seats.map((s) => item(`swatch seat${s}`, seatText(s), { "data-seat": s })),
    ...(marks.length ? [el("span", { class: "key-sep", text: "ring:" })] : []),
    ...marks.map((m) => item(`ring-swatch ${m}`, `${MARK_SIGN[m]} ${m}`, { "data-mark": m })));
  $("graph-legend").hidden = !seats.length;
}

// net luck signed and with its standard error, as the text report shows it (a bare number
// read as a verdict: with the quick strength's 8 luck samples its error is near 50 win-% points)
function netLuck(s) {
  if (s.luck_win_net === null) return "-";
  const v = s.luck_win_net;
  return `${v >= 0 ? "+" : ""}${v.toFixed(1)} \u00b1${s.luck_win_net_stderr.toFixed(1)}`;
}

function buildSummary() {
  const rows = Object.values(result.seats).map((s) => el("tr", {},
    // net luck is null in a seat's view (the other seats' luck is not known there)
    ...[seatText(s.seat), s.side, s.decisions, s.accuracy === null ? "-" : s.accuracy.toFixed(1), s.loss_win.toFixed(1),
      s.marks.inaccuracy, s.marks.mistake, s.marks.blunder, netLuck(s),
      resultText(s.result)].map((v) => el("td", { text: String(v) }))));
  $("summary").replaceChildren(
    el("tr", {}, ...["seat", "side", "judged", "accuracy", "loss win-%", "?!", "?", "??", "net luck", "result"].map((h) => el("th", {
      text: h, ...(h === "result" ? { title: "the game's result for the seat's side: won, lost, or unfinished (no side has won yet)" } : {}),
      // the marks' signs in words (a screen reader reads "?!" as punctuation)
      ...(SIGN_WORDS[h] ? { "aria-label": SIGN_WORDS[h], title: SIGN_WORDS[h] } : {}) }))),
    ...rows);
}

// the side's result in words (the JSON's result: 100 won, 0 lost, null unfinished; a review read a
// bare 0 beside the net luck as a score)
function resultText(r) {
  if (r === null || r === undefined) return "unfinished";
  if (r === 100) return "won";
  if (r === 0) return "lost";
  return `${r.toFixed(0)} % won`;
}

async function position(r, i, arrows) {
  const layout = boardLayout();
  const key = JSON.stringify([r, i, arrows, layout]);
  if (!positions.has(key)) positions.set(key, api("POST", "/api/position", { record, round: r, action: i, arrows, layout }));
  try {
    return await positions.get(key);
  } catch (e) {
    positions.delete(key);
    throw e;
  }
}

async function go(k) {
  if (!actions.length) return;
  cursor = Math.max(0, Math.min(actions.length - 1, k));
  whatIf = null;
  await draw();
}

// `focusWhatIf`: the what-if button to focus once the table is drawn again (a move's name, or
// true: the first; a review: Enter on one, or Evaluate, left the focus on the page)
async function draw({ focusWhatIf = null } = {}) {
  const a = actions[cursor];
  const d = a.decision;
  // move list and graph follow the cursor
  for (const li of $("movelist").querySelectorAll("li.current")) {
    li.classList.remove("current"); li.removeAttribute("aria-current"); li.setAttribute("aria-selected", "false");
  }
  const li = $("movelist").querySelector(`li[data-k="${cursor}"]`);
  if (li) {
    li.classList.add("current"); li.setAttribute("aria-current", "step"); li.setAttribute("aria-selected", "true");
    $("movelist").setAttribute("aria-activedescendant", li.id);
    li.scrollIntoView({ block: "nearest" });
  }
  if (!focusWhatIf) {
    say(`${lead ? `${lead} ` : ""}${stepWords(a, d)}`);
    lead = "";
  }
  for (const c of $("graph").querySelectorAll("circle.current")) c.classList.remove("current");
  // the cursor line stands at the last judged decision up to here; the point itself is ringed when judged
  const pt = $("graph").querySelector(`circle[data-k="${cursor}"]`);
  if (pt) pt.classList.add("current");
  const before = [...$("graph").querySelectorAll("circle.pt")].filter((c) => Number(c.dataset.k) <= cursor).pop();
  const line = $("graph-cursor");
  const cx = before ? before.getAttribute("cx") : -10;
  line.setAttribute("x1", cx);
  line.setAttribute("x2", cx);
  // the decision: played against best
  // red: the move played; blue: the best; dark grey: the move tried (what if), when it is neither
  // (three a colour-blind eye tells apart: red and green read alike to a deuteranope, a review)
  const arrows = [];
  // (an opening is drawn as a ghost tile on the empty table, in its colour)
  if (!a.final && isPlacement(a.text)) arrows.push([a.text, "#cc0000"]);
  if (d && d.best && d.best !== a.text && isPlacement(d.best)) arrows.push([d.best, "#1864ab"]);
  if (whatIf && !arrows.some(([m]) => m === whatIf)) arrows.push([whatIf, "#343a40"]);
  $("decision").replaceChildren(...decisionText(a, d));
  setState("loading");
  try {
    const p = await position(a.r, a.i, arrows);
    if (actions[cursor] !== a) return;
    // arrows on one end come as a board each (the server's arrow_groups), side by side
    $("aboard").innerHTML = p.boards.join("");
    $("aboard").classList.toggle("pair", p.boards.length > 1);
    $("aboard").dataset.round = a.r;
    $("aboard").dataset.action = a.i;
    const toMove = p.to_move === null ? "round over" : `${seatText(p.to_move)} to move`;
    $("pos-info").textContent = `Round ${a.r}, ${a.final ? "after the last action" : `action ${a.i}`}: ${toMove} · scores ${p.scores.map(points).join(" / ")} · boneyard ${p.boneyard_size}`;
    $("hands").replaceChildren(...p.hands.map((h, s) => el("div", { text: `${seatText(s)}: ${h === null ? `${p.hand_sizes[s]} hidden tiles` : h.join(" ")}` })));
    whatIfPanel(a, p);
    if (focusWhatIf) {
      const buttons = [...$("whatif").querySelectorAll("button.link")];
      const again = buttons.find((b) => b.dataset.move === focusWhatIf) || buttons[0];
      if (again && focusLost()) again.focus({ preventScroll: true });
      if (typeof focusWhatIf === "string") say($("whatif-value").textContent);
    }
    setState("ready");
  } catch (e) {
    showError(e.message);
    setState("ready");
  }
}

// the decision stepped to, said: "Round 0, action 13: seat 2 (random#2) played 2-4@2-5:low, an
// inaccuracy, loses 8.3 win-%; best 2-5@0-5:high"
function stepWords(a, d) {
  if (a.final) return `Round ${a.r}: the final position, after the record's last action.`;
  let text = `Round ${a.r}, action ${a.i}: ${seatText(a.seat)} played ${a.text}`;
  if (d && d.forced) text += ", forced";
  else if (d) {
    if (d.mark) text += `, ${d.mark === "inaccuracy" ? "an" : "a"} ${d.mark}`;
    text += `, loses ${d.loss_win.toFixed(1)} win-%`;
    if (d.best && d.best !== a.text) text += `; best ${d.best}`;
  }
  return `${text}.`;
}

function decisionText(a, d) {
  if (a.final) {
    const last = actions[actions.length - 2];
    return [el("h3", { text: `Round ${a.r}: the final position` }),
      el("p", { class: "small", text: `after the record's last action, ${seatText(last.seat)}'s ${last.text} (outlined when a tile)` })];
  }
  const out = [el("h3", { text: `Round ${a.r}, action ${a.i}: ${seatText(a.seat)} played ${a.text}` })];
  if (!d) { out.push(el("p", { class: "small", text: "not analysed (another seat's action)" })); return out; }
  if (d.forced) { out.push(el("p", { class: "small", text: "forced: the only legal action" })); return out; }
  out.push(el("p", {}, d.mark ? el("span", { class: `badge ${d.mark}`, text: d.mark }) : "",
    // every value with its standard error, as the report and the command line give them (a review)
    ` best ${d.best}; played loses ${d.loss_win.toFixed(1)} ± ${d.stderr_win.toFixed(1)} win-% and ${d.loss_points.toFixed(1)}`
    + (d.stderr_points != null ? ` ± ${d.stderr_points.toFixed(1)}` : "") + " points"
    + `; with best play the side wins ${(100 * d.win).toFixed(1)}`
    + (d.win_stderr != null ? ` ± ${(100 * d.win_stderr).toFixed(1)}` : "") + " %"));
  if (d.dd_best) out.push(el("p", { class: "small", text: `double dummy (every hand known): best ${d.dd_best.join(", ")}; played loses ${d.dd_loss_win.toFixed(1)} win-%` }));
  // a review: where the played move is the best, only its red arrow is drawn
  out.push(el("p", { class: "small", text: d.best === a.text ? "red arrow: played, the best move" : "red arrow: played; blue: best" }));
  return out;
}

function whatIfPanel(a, p) {
  const key = `${a.r}/${a.i}`;
  const known = values.get(key);
  const box = $("whatif");
  const legal = p.legal_moves;
  if (!legal.length) { box.replaceChildren(); return; }
  const byMove = new Map((known || []).map((m) => [m.move, m]));
  const same = p.legal_same_as || [];
  const best = a.decision && a.decision.best;
  // the played and the best move said in words too, not by the row's colour alone (a review: a
  // played move that was also the best showed only as played)
  const says = (m) => [m === a.text ? "played" : "", m === best ? "best" : ""].filter(Boolean).join(", ");
  const winOf = (m) => { const v = byMove.get(m); return v && v.win !== null ? v.win : -1; };
  // a second port of one placement (RULES §3.4) is the same move: it follows its twin, its values
  // said once, as the play page's hint table says it (a review: two rows of equal values)
  const order = legal.map((m, i) => ({ m, i, twin: same[i] === null || same[i] === undefined ? i : same[i] }));
  order.sort((x, y) => winOf(legal[y.twin]) - winOf(legal[x.twin]) || x.twin - y.twin || x.i - y.i);
  const rows = order.map(({ m, i, twin }) => {
    const v = byMove.get(m);
    const note = says(m);
    return el("tr", { class: [m === a.text ? "played" : "", m === best ? "best" : "", whatIf === m ? "tried" : ""].filter(Boolean).join(" ") },
      el("td", {}, el("button", { type: "button", class: "link", "data-move": m, onclick: () => { whatIf = m; draw({ focusWhatIf: m }); } }, m),
        ...(note ? [el("span", { class: "same", text: ` (${note})` })] : [])),
      ...(twin !== i ? [el("td", { colspan: "2", class: "same", text: `the same as ${legal[twin]}` })] : [
        el("td", { class: "num", text: v ? (v.win !== null ? winText(v.win, v.win_stderr) : "forced") : "" }),
        el("td", { class: "num", text: v && v.points !== null ? pointsText(v.points, v.points_stderr) : "" })]));
  });
  const tried = whatIf && byMove.get(whatIf);
  box.replaceChildren(
    el("h3", { text: "What if" }),
    el("p", { class: "small", id: "whatif-value", text: whatIf ? (tried ? `${whatIf}: ${valueText(tried)}${arrowNote(whatIf, a, a.decision)}` : `${whatIf}: evaluate the position to see its value`) : "click a legal move to see it on the board and its value" }),
    el("table", { class: "hint-table" }, el("tr", {}, el("th", { text: "move" }),
      el("th", { text: "win", title: "the chance of the side to move to win the game, ± its standard error" }),
      el("th", { text: "points", title: "raw points of this round, the side to move less the others; a world won or lost counts ±1000" })), ...rows),
    el("p", { class: "small legend", id: "whatif-legend", text: "win: the chance of the side to move to win the game; "
      + `points: raw points of this round, ${pointsOf(result.players, result.judge.search)}; ±: standard errors`
      + (known ? `; values: ${valuedBy.get(key)}` : "") }),
    known ? "" : el("button", { type: "button", id: "evaluate", onclick: () => evaluate(a, p) }, `Evaluate for ${seatText(p.to_move)}`));
}

// how a search judge's (or a hint's) worlds were searched: "max^n search, 96 worlds (pimc)"
function searchText(j) {
  if (!j || j.name === "rollout") return `rollout judge (${j ? j.rollouts : "?"} playouts)`;
  const search = j.search ? `${j.search === "maxn" ? "max^n" : j.search} search, ` : "";
  return `${search}${j.samples} worlds (${j.method})`;
}

// what a points value counts (analysis.points_note's words, short): the side's points less the
// others'; with 3 players the two others' mean (max^n) or sum (paranoid)
function pointsOf(players, search) {
  if (players !== 3) return "that side less the other (5 raw = 1 display point; a world won or lost counts ±1000)";
  return search === "paranoid"
    ? "the seat's gains less the sum of the two others' (paranoid search; 5 raw = 1 display point; a world won counts +1000, lost -1000)"
    : "the seat's gains less the mean of the two others' (max^n; 5 raw = 1 display point; a world won counts +1000, lost -500)";
}

// an evaluation here searches as the analysis beside it did (its judge's search, worlds, method,
// beliefs, and the win objective): a review saw a 3-player position evaluated paranoid with 32
// worlds beside the analysis's max^n rows of 96, on other win-% and points scales
function evaluateBody(a, p) {
  const j = result.judge;
  const body = { record, seat: p.to_move, round: a.r, action: a.i, objective: "win" };
  if (j && j.name === "search") {
    Object.assign(body, { samples: j.samples, method: j.method, world_nodes: j.world_nodes });
    if (j.beliefs) body.beliefs = j.beliefs;
    if (j.search) body.search = j.search;
  } else body.samples = 32;
  return body;
}

function valueText(m) {
  // the only legal move is not valued (the hint answers null): it is forced
  if (m.win === null || m.points === null) return "forced (the only legal move)";
  return `win ${winText(m.win, m.win_stderr)}, ${pointsText(m.points, m.points_stderr)} points`;
}

function arrowNote(move, a, d) {
  if (!isPlacement(move)) return "";
  if (move === a.text) return " (the move played: red arrow)";
  if (d && move === d.best) return " (the best: blue arrow)";
  return " (dark grey arrow)";
}

async function evaluate(a, p) {
  showError("");
  try {
    const h = await api("POST", "/api/hint", evaluateBody(a, p));
    values.set(`${a.r}/${a.i}`, h.moves.map((m) => ({ move: m.move, win: m.win, points: m.points,
      win_stderr: m.win_stderr, points_stderr: m.points_stderr })));
    valuedBy.set(`${a.r}/${a.i}`, `evaluated here, as the analysis: ${searchText({ name: "search", search: h.search, samples: h.samples || h.budget.samples, method: h.method })}`);
    say("Evaluated: the what-if table has its values.");
    draw({ focusWhatIf: true });
  } catch (e) {
    showError(e.message);
  }
}

// the keys step the board only with the focus on the board view itself (the move list, the board,
// the graph), never on a control (a button, a field, a link), and never with Alt, Ctrl or Meta: the
// browser's own shortcuts (Alt+← back, Ctrl+P print) and the page's scrolling work elsewhere
// (an accessibility review: N on a what-if button jumped the board, Ctrl+P and Alt+← were taken)
const CONTROL = "button, input, select, textarea, a[href], summary, [role=button]";
function keys(e) {
  if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
  if (!actions.length || $("board-view").hidden) return;
  const t = e.target;
  if (!(t instanceof Element) || !t.closest("#board-view") || t.closest(CONTROL)) return;
  const onList = t === $("movelist");
  const marked = (k) => actions[k].decision && actions[k].decision.mark;
  let k = null;
  if (e.key === "ArrowRight" || (onList && e.key === "ArrowDown")) k = cursor + 1;
  else if (e.key === "ArrowLeft" || (onList && e.key === "ArrowUp")) k = cursor - 1;
  else if (e.key === "Home") k = 0;
  // End: the final position, after the last action (as a chess board's End)
  else if (e.key === "End") k = actions.length - 1;
  else if (e.key === "n" || e.key === "N" || e.key === "p" || e.key === "P") {
    const step = e.key.toLowerCase() === "n" ? 1 : -1;
    for (let j = cursor + step; j >= 0 && j < actions.length; j += step) if (marked(j)) { k = j; break; }
    if (k === null) return;
  } else return;
  e.preventDefault();
  go(k);
}

// "2 players, 11 rounds, won 305 : 270" (a view: "seat 1's view, ...")
function recordText(info) {
  const rounds = `${info.rounds} round${info.rounds === 1 ? "" : "s"}`;
  const state = info.finished ? `won, ${info.scores.join(" : ")}` : `not finished, ${info.scores.join(" : ")}`;
  const whose = typeof info.view === "number" ? `seat ${info.view}'s view, ` : "";
  return `${whose}${info.players} players, ${rounds}, ${state}`;
}

const SOURCE_HINT = "Choose a record file (fiveup-record/1), or finish a game on the play page.";

async function init() {
  document.addEventListener("keydown", keys);
  $("analyse-form").addEventListener("submit", (e) => { e.preventDefault(); if (record) analyse(); });
  // a new choice clears the last one's error; a bad file leaves nothing to analyse (a review: Run
  // stayed on with the file before, under its name, and an old error stayed over a good file)
  $("file").addEventListener("change", async () => {
    const file = $("file").files[0];
    showError("");
    record = null;
    $("run").disabled = true;
    $("source").textContent = file ? `Reading ${file.name}…` : SOURCE_HINT;
    if (!file) return;
    try {
      const rec = await readRecordFile(file);
      // replayed through the rules now: an illegal record is said as it is chosen, not at Analyse
      const info = await api("POST", "/api/records/check", { record: rec });
      if ($("file").files[0] !== file) return;          // another file was chosen meanwhile
      setRecord(rec, `Record file ${file.name}: ${recordText(info)}`);
    } catch (e) {
      if ($("file").files[0] !== file) return;
      $("source").textContent = SOURCE_HINT;
      showError(e.message.startsWith(`${file.name}: `) ? e.message : `${file.name}: ${e.message}`);
    }
  });
  const gameId = params.get("game");
  if (gameId) {
    try {
      const rec = await api("GET", `/api/games/${encodeURIComponent(gameId)}/record`);
      const g = await api("GET", `/api/games/${encodeURIComponent(gameId)}`);
      setRecord(rec, `The game just played (${rec.view === undefined ? "finished: every hand known" : "your view: not finished"})`);
      $("seat").value = String(g.view.seat);
    } catch (e) {
      showError(e.message);
    }
  }
  setState("setup");
}

init();
