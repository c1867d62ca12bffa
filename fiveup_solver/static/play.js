// The play page: a game against the bots through the JSON API (/api/games...).
import { api, showError, el, sleep, points, download, readJsonFile, winText, pointsText, isPlacement, boardLayout } from "./api.js";
import { tileSvg } from "./tiles.js";

const params = new URLSearchParams(location.search);
const DELAY = params.has("delay") ? Number(params.get("delay")) || 0 : 500;   // ms between the bots' moves
const $ = (id) => document.getElementById(id);

let game = null;        // {id, view}
let bots = [];          // bot names for the selects
let selected = null;    // the hand tile picked, waiting for an open end
let hintFor = null;     // the position key the hint shown belongs to
let hintBoard = null;   // the board with the best move marked
let busy = false;
let hintAbort = null;   // cancels the hint request under way (the server stops its search)
let logRound = null;    // the round of the log's latest entry: a new round gets a heading
let logHead = null;     // that heading: the log is newest first, a round's entries under its heading
const HINTS_KEY = "fiveup.hints";   // the Hints switch, kept in the browser over reloads

function setState(s) { document.body.dataset.state = s; }

// ------------------------------------------------------------------ set-up form
function seatOptions() {
  const n = Number($("players").value);
  const seat = $("seat");
  const keep = Math.min(Number(seat.value || 0), n - 1);
  seat.replaceChildren(...Array.from({ length: n }, (_, s) => el("option", { value: s, text: String(s) })));
  seat.value = keep;
  const box = $("bot-choices");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let s = 0; s < n; s++) {
    if (s === keep) continue;
    const pick = el("select", { "data-seat": s, "aria-label": `bot of seat ${s}` },
      // only the bots that can play this many (alphamu: 2 players)
      ...bots.filter((b) => !b.players || b.players.includes(n)).map((b) => el("option", { value: b.name, text: b.label })));
    pick.value = old.shift() || "level1";
    box.append(el("label", {}, `Seat ${s} `, pick));
  }
}

function gameOptions() {
  const bots = [...$("bot-choices").querySelectorAll("select")].map((s) => s.value);
  const options = { players: Number($("players").value), seat: Number($("seat").value), bots };
  // no seed: the server deals from a secret one (a seed you know deals tiles you can know);
  // sent as the digits typed: a JavaScript number would change a seed above 2^53
  if ($("seed").value !== "") options.seed = $("seed").value.trim();
  return options;
}

async function start(body) {
  showError("");
  busy = true;
  try {
    const r = await api("POST", "/api/games", { ...body, layout: boardLayout() });
    game = { id: r.id, view: null };
    $("log").replaceChildren();
    logRound = logHead = null;
    $("over").hidden = true;
    $("round-end").hidden = $("round-flag").hidden = true;
    $("setup").hidden = true;
    $("table").hidden = false;
    history.replaceState(null, "", `/?game=${r.id}${DELAY !== 500 ? `&delay=${DELAY}` : ""}`);
    if (body.record) {
      // going on from a record: the round's actions so far in the log, as after a reload (a
      // review: the log began at the first move after it)
      relog(r.view, "going on from a record: this round's actions so far");
      await show({ ...r.view, last_moves: [] });
    } else {
      await show(r.view);
    }
  } catch (e) {
    showError(e.message);
    setState("setup");
  } finally {
    busy = false;
  }
}

// ------------------------------------------------------------------ showing a view
function seatName(view, s) { return s === view.seat ? "you" : `seat ${s} (${view.seats[s]})`; }

// a side: with 2 or 3 players it is one seat, named as the seat; with 4 two partners
function sideName(view, side) {
  if (view.players !== 4) return seatName(view, side);
  return side === view.side ? `your side (you and seat ${(view.seat + 2) % 4})` : `side ${side} (seats ${side} and ${side + 2})`;
}

// short names for the score lists: "you", "seat 1"; "side 0 (yours)" with 4 players
function scoreName(view, side) {
  if (view.players === 4) return `side ${side}${side === view.side ? " (yours)" : ""}`;
  return side === view.seat ? "you" : `seat ${side}`;
}

// "you: 20 (4) · seat 1: 15 (3)"
function scoreList(view, scores) { return scores.map((x, s) => `${scoreName(view, s)}: ${points(x)}`).join(" · "); }

function logDivider(round, note) {
  logRound = round;
  logHead = el("li", { class: "round", text: note ? `round ${round} (${note})` : `round ${round}` });
  $("log").prepend(logHead);
}

// a log entry: the newest first, under its round's heading
function logAdd(item) {
  if (logHead && logHead.isConnected) logHead.after(item);
  else $("log").prepend(item);
}

function logStep(view, step) {
  if (step.round !== logRound) logDivider(step.round);
  const who = seatName(view, step.seat);
  let text = `${who}: ${step.move}`;
  if (step.forced) text += " (forced)";
  for (const e of step.events) {
    text += `; ${e.kind} ${e.raw > 0 ? "+" : ""}${e.raw} for ${sideName(view, e.side)}${e.accepted ? "" : " (rejected: above 305)"}`;
  }
  logAdd(el("li", { class: step.seat === view.seat ? "mine" : "" , text,
    "data-round": step.round, "data-action": step.action }));
}

function showRoundEnd(view, end) {
  const box = $("round-end");
  const who = (s) => seatName(view, s);
  const how = end.end.end === "domino" ? `${who(end.end.seat)} emptied ${end.end.seat === view.seat ? "your" : "their"} hand`
    : end.end.end === "blocked" ? `blocked (${end.end.winner === null ? "a tie" : `lowest: ${sideName(view, end.end.winner)}`})`
    : end.end.end === "won" ? `${who(end.end.seat)} reached exactly 305` : end.end.end;
  // each hand's pips too, as `fiveup play` gives them: the end's credits can be checked by hand
  // (RULES §6.3, §6.4: a review could not trace a block's or a partner's -25 to the hands)
  const pips = (h) => h.reduce((sum, t) => sum + t.split("-").reduce((a, b) => a + Number(b), 0), 0);
  const hands = end.hands.map((h, s) => el("li", { text: `${who(s)}: ${h.length ? `${h.join(" ")} (${pips(h)} pips)` : "(empty)"}` }));
  const signed = (x) => `${x > 0 ? "+" : ""}${x}`;
  // a domino's credit with its parts from the hands above (P + O - D, RULES §6.3)
  const events = end.events.filter((e) => e.kind !== "placement")
    .map((e) => el("li", { text: `${e.kind}: ${signed(e.raw)} raw for ${sideName(view, e.side)}${e.accepted ? "" : " (rejected)"}` },
      ...(e.kind === "domino" && end.domino ? [el("div", { class: "small", text: end.domino.text })] : [])));
  // the placements' points of the round, per side: start + placements + end scoring = after
  const placed = end.scores.map(() => 0);
  for (const e of end.events) if (e.kind === "placement" && e.accepted) placed[e.side] += e.raw;
  box.replaceChildren(
    el("h3", { text: `Round ${end.round} is over: ${how}` }),
    el("p", { text: "Hands left:" }), el("ul", {}, ...hands),
    el("p", { text: "Scoring at the end:" }), el("ul", {}, ...(events.length ? events : [el("li", { text: "none" })])),
    el("p", { class: "scores", text: `Scores at the round's start: ${scoreList(view, end.scores_before)}` }),
    el("p", { class: "scores", text: `Placements scored in the round: ${placed.map((x, s) => `${scoreName(view, s)}: ${signed(x)}`).join(" · ")}` }),
    el("p", { class: "scores", text: `Scores after the round: ${scoreList(view, end.scores)}` }));
  box.hidden = false;
  // on a phone the summary is far below the board (a review: 950 px down, off the first
  // screen): a line above the board says the round is over and links to it (style.css shows
  // it on narrow screens only)
  $("round-flag").replaceChildren(`Round ${end.round} is over: ${how}. `,
    el("a", { href: "#round-end", text: "The round's summary" }));
  $("round-flag").hidden = false;
}

// the last round's summary is up until the person's first move of this round (again after an
// undo of that move), and at the end of a round or the game
function summaryDue(view) {
  const end = view.round_end;
  if (!end) return false;
  if (view.round_over || view.game_over) return end.round === view.round;
  return end.round === view.round - 1 && !view.history.some((a) => a.seat === view.seat && "play" in a);
}

// a reloaded page: the log again from this round's actions as the person saw them (the
// scoring of each is not in the view); the last round's summary is shown again after it
// until the person's first decision of this round
function relog(view, note = "this page was opened again: the log restarts here") {
  logDivider(view.round, note);
  view.history.forEach((a, i) => {
    const move = "play" in a ? (a.at ? `${a.play}@${a.at}` : a.play) : "draw" in a ? (a.draw ? `draw ${a.draw}` : "draw") : "pass";
    logAdd(el("li", { class: a.seat === view.seat ? "mine" : "", text: `${seatName(view, a.seat)}: ${move}`,
      "data-round": view.round, "data-action": i }));
  });
}

async function show(view) {
  // the actions since the person's last decision, one at a time (the bots' with a pause);
  // a round's summary stays up until the person's first decision of the next round is made
  cancelHint();
  const ends = view.last_moves.some((step) => step.round_end);
  if (!ends) {
    if (summaryDue(view)) showRoundEnd(view, view.round_end);
    else $("round-end").hidden = $("round-flag").hidden = true;
  }
  for (const step of view.last_moves) {
    $("board").innerHTML = step.board;
    logStep(view, step);
    if (step.round_end) showRoundEnd(view, step.round_end);
    if (DELAY > 0 && step.seat !== view.seat) {
      $("note").textContent = `${seatName(view, step.seat)} plays ${step.move}`;
      // (a review: the status kept the scores of before the replies while they were shown)
      showStatus(view, step.round, step.scores, [`${seatName(view, step.seat)} played `,
        el("span", { class: "move", text: step.move })], step.boneyard_size, step.hand_sizes);
      await sleep(DELAY);
    }
  }
  game.view = view;
  selected = null;
  hintBoard = null;
  render();
  // not awaited: the person may move while the hint is computed (a hint that arrives for a
  // position already left is dropped in loadHint); clicks were ignored until it came
  if ($("hints").checked) loadHint();
}

function positionKey(view) { return `${view.round}/${view.history.length}`; }

function cancelHint() {
  if (hintAbort) hintAbort.abort();
  hintAbort = null;
}

// `what`: text, or a list of text and nodes (a move in its own span: one token, not broken)
function showStatus(view, round, scores, what, boneyard, hands) {
  $("status").replaceChildren(
    el("span", {}, `Round ${round} · ${scoreList(view, scores)} · target 305 (61) · `, ...[what].flat()),
    el("span", { class: "small", text: ` · boneyard ${boneyard} · hands ${hands.join("/")}` }));
}

function render() {
  const view = game.view;
  const turn = view.game_over ? "game over" : view.to_move === view.seat ? "your move" : `seat ${view.to_move} to move`;
  showStatus(view, view.round, view.scores, turn, view.boneyard_size, view.hand_sizes);
  $("board").innerHTML = hintBoard || view.board;
  const notes = view.last_moves.filter((s) => s.forced).map((s) => `you ${s.move.startsWith("draw") ? "had to " + s.move : "had to pass"}`);
  $("note").textContent = notes.join("; ");
  // the hand: playable tiles are buttons
  const playable = new Map();
  for (const m of view.legal_moves) {
    const [tile, port] = m.split("@");
    if (!playable.has(tile)) playable.set(tile, []);
    playable.get(tile).push({ move: m, port: port || null });
  }
  $("hand").replaceChildren(...view.hand.map((t) => {
    const can = playable.has(t);
    const b = el("button", { type: "button", class: `tile${can ? " playable" : ""}${selected === t ? " selected" : ""}`,
      "data-tile": t, "aria-label": `tile ${t}${can ? "" : " (does not fit)"}`, disabled: !can || view.game_over },
      tileSvg(t));
    b.addEventListener("click", () => pickTile(t, playable.get(t)));
    return b;
  }));
  // a second port of one placement (RULES §3.4) is said to be one, as fiveup play says it
  const same = view.legal_same_as || [];
  $("moves").replaceChildren(...view.legal_moves.map((m, i) => el("li", {},
    el("button", { type: "button", class: "move", "data-move": m, onclick: () => play(m) }, m),
    ...(same[i] === null || same[i] === undefined ? [] : [el("span", { class: "same", text: ` (the same as ${same[i] + 1})` })]))));
  $("moves-box").hidden = view.game_over;
  if (selected && playable.has(selected)) markPorts(playable.get(selected));
  // (a review: Undo was on with nothing to undo, and answered with an error; it takes back the
  // person's last placement of this round, as `fiveup play`'s undo does)
  $("undo").disabled = view.game_over || !view.history.some((a) => a.seat === view.seat && "play" in a);
  if (view.game_over || view.unfinished) {
    const won = view.winner === view.side;
    const winner = won ? (view.players === 4 ? "Your side wins!" : "You win!") : `${sideName(view, view.winner)} wins.`;
    $("over").replaceChildren(
      el("h2", { text: view.game_over ? winner.charAt(0).toUpperCase() + winner.slice(1) : "Unfinished (round limit)" }),
      el("p", { text: `Final scores: ${scoreList(view, view.scores)}` }),
      el("a", { href: `/analysis?game=${game.id}`, id: "analyse", class: "button" }, "Analyse this game"));
    $("over").hidden = false;
    setState("over");
  } else {
    setState(view.to_move === view.seat ? "ready" : "waiting");
  }
}

// a finger's target around each open end a move may take: a transparent circle of this radius
// (board units; about 40 px across on a phone's narrow board, which is at least svg.MIN_EXTENT wide)
// behind the end's dot or badge, whose 13 units made a target of 20 to 25 px
const HIT_RADIUS = 26;

function markPorts(options) {
  const board = $("board");
  const targets = [];
  for (const { move, port } of options) {
    const target = board.querySelector(`[data-port="${port}"]`);
    if (!target) continue;
    target.classList.add("target");
    target.setAttribute("data-move", move);
    target.setAttribute("tabindex", "0");
    target.setAttribute("role", "button");
    target.setAttribute("aria-label", `play ${move}`);
    if (target.tagName === "circle") target.setAttribute("r", "13");
    target.addEventListener("click", () => play(move));
    target.addEventListener("keydown", (e) => { if (e.key === "Enter") play(move); });
    const dot = target.tagName === "circle" ? target : target.querySelector("circle");
    if (dot) {
      const hit = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      for (const [k, v] of [["class", "hit"], ["cx", dot.getAttribute("cx")], ["cy", dot.getAttribute("cy")],
        ["r", HIT_RADIUS], ["data-hit", port]]) hit.setAttribute(k, v);
      hit.addEventListener("click", () => play(move));
      board.querySelector("svg").append(hit);
    }
    targets.push(target);
  }
  // the ends themselves over every finger's circle: a click on an end's own dot plays that end
  for (const target of targets) target.parentNode.append(target);
}

function pickTile(tile, options) {
  if (busy || !options) return;
  if (options.length === 1 && options[0].port === null) { play(options[0].move); return; }   // the opening
  selected = selected === tile ? null : tile;
  render();
}

// the position a move or an undo is asked on (the view's round and history length): a game
// that has moved on meanwhile (another tab) refuses the request (409)
function positionOf(view) { return { round: view.round, action: view.history.length, layout: boardLayout() }; }

// after a refused move or undo: the game may have moved on elsewhere (another tab); if so it is
// shown as the server has it (true), its log going on from there
async function showIfMovedOn() {
  try {
    const r = await api("GET", `/api/games/${game.id}?layout=${boardLayout()}`);
    if (positionKey(r.view) !== positionKey(game.view) || r.view.round !== game.view.round) {
      relog(r.view, "the game moved on elsewhere, in another tab: the log goes on from here");
      await show({ ...r.view, last_moves: [] });
      return true;
    }
  } catch (_) { /* the error shown is the request's */ }
  return false;
}

async function play(move) {
  if (busy || !game) return;
  busy = true;
  setState("busy");       // the hand and the moves dimmed until the replies are shown (style.css)
  const status = $("status").firstChild;
  if (status) status.textContent = status.textContent.replace(/your move$/, `you play ${move}; the others reply…`);
  showError("");
  cancelHint();         // the hint of this position is no longer wanted: its search stops
  try {
    const r = await api("POST", `/api/games/${game.id}/moves`, { move, ...positionOf(game.view) });
    await show(r.view);
  } catch (e) {
    showError(e.message);
    if (await showIfMovedOn()) return;
    render();
    if ($("hints").checked) loadHint();
  } finally {
    busy = false;
  }
}

// ------------------------------------------------------------------ hints
async function loadHint() {
  cancelHint();
  const view = game.view;
  const box = $("hint-box");
  box.hidden = !$("hints").checked || view.game_over;    // (at the game's end: an empty table, a review)
  if (!$("hints").checked || view.to_move !== view.seat || view.game_over) {
    $("hint-table").tBodies[0].replaceChildren();
    $("hint-state").textContent = view.game_over ? "" : "(when it is your move)";
    return;
  }
  const key = positionKey(view);
  hintFor = key;
  $("hint-table").tBodies[0].replaceChildren();     // the last position's hint is not this one's
  $("hint-state").textContent = "(thinking...)";
  box.dataset.state = "thinking";
  // a request left for a position the person has left is cancelled (cancelHint): the server
  // notices the closed connection and stops the search, giving its worker back
  const abort = new AbortController();
  hintAbort = abort;
  const signal = abort.signal;
  try {
    const record = await api("GET", `/api/games/${game.id}/record`, undefined, signal);
    const h = await api("POST", "/api/hint", { record, seat: view.seat }, signal);
    if (hintFor !== key || game.view !== view) return;        // the position moved on meanwhile
    // a second port of one placement (RULES §3.4) keeps its button, its values said once
    const values = (m) => m.same_as !== null && m.same_as !== undefined
      ? [el("td", { colspan: "2", class: "same", text: `the same as ${m.same_as}` })]
      : [el("td", { class: "num", text: m.win === null ? "forced" : winText(m.win, m.win_stderr) }),
        el("td", { class: "num", text: m.points === null ? "" : pointsText(m.points, m.points_stderr) })];
    $("hint-table").tBodies[0].replaceChildren(...h.moves.map((m) => el("tr", { class: m.rank === 1 ? "best" : "" },
      el("td", { text: String(m.rank) }),
      el("td", {}, el("button", { type: "button", class: "link", "data-move": m.move, onclick: () => play(m.move) }, m.move)),
      ...values(m))));
    $("hint-state").textContent = h.samples ? `(${h.samples} sampled worlds, ${(1000 * h.seconds).toFixed(0)} ms)`
      : "(the only legal move)";
    // the best move on the board: an arrow and a ghost tile at its open end, or the
    // opening's ghost on the empty table
    if (isPlacement(h.best)) {
      const b = await api("POST", "/api/board", { placements: view.placements, arrows: [[h.best, "#1864ab"]],
        layout: boardLayout(), lastmove: view.placements.length ? view.placements[view.placements.length - 1] : null }, signal);
      if (hintFor !== key || game.view !== view) return;
      hintBoard = b.svg;
      render();
    }
    if (hintAbort === abort) hintAbort = null;
    box.dataset.state = "ready";
  } catch (e) {
    if (e.name === "AbortError") return;                      // cancelled: a newer position's hint is wanted
    if (hintAbort === abort) hintAbort = null;
    $("hint-state").textContent = "";
    box.dataset.state = "error";
    showError(e.message);
  }
}

// ------------------------------------------------------------------ buttons
async function undo() {
  if (busy || !game) return;
  busy = true;
  showError("");
  cancelHint();
  try {
    const r = await api("POST", `/api/games/${game.id}/undo`, positionOf(game.view));
    // the undone actions are struck out in the log: they no longer happened
    for (const li of $("log").querySelectorAll("li[data-round]")) {
      if (Number(li.dataset.round) === r.view.round && Number(li.dataset.action) >= r.view.history.length) {
        li.classList.add("undone");
        delete li.dataset.round;
      }
    }
    logAdd(el("li", { class: "mine", text: "undo (the tiles you have not seen are dealt again)" }));
    await show(r.view);
  } catch (e) {
    showError(e.message);
    await showIfMovedOn();
  } finally {
    busy = false;
  }
}

async function save() {
  try {
    const record = await api("GET", `/api/games/${game.id}/record`);
    download(record, `fiveup-game-${game.id}.json`);
  } catch (e) {
    showError(e.message);
  }
}

// a game opened again (a reload): while the server still finishes the bots' replies to the last
// move it answers 409 (busy); the page waits for them, saying so, instead of showing the New game
// form as if the game were lost (a review)
async function reopen(id) {
  for (let tries = 0; ; tries++) {
    try {
      const r = await api("GET", `/api/games/${encodeURIComponent(id)}?layout=${boardLayout()}`);
      showError("");
      return r;
    } catch (e) {
      if (e.status !== 409 || tries >= 120) throw e;
      showError("the other seats are still moving: the game opens when they are done…");
      await new Promise((done) => setTimeout(done, 500));
    }
  }
}

async function init() {
  try {
    const b = await api("GET", "/api/bots");
    const counts = b.players || {};
    bots = [...b.levels.map((l) => ({ name: l.name, label: `${l.name}: ${l.summary}`, players: counts[l.name] })),
      ...b.bots.map((n) => ({ name: n, label: n, players: counts[n] }))];
  } catch (e) {
    showError(e.message);
  }
  $("seed").value = params.get("seed") || "";
  $("players").addEventListener("change", seatOptions);
  $("seat").addEventListener("change", seatOptions);
  seatOptions();
  $("new-game").addEventListener("submit", (e) => { e.preventDefault(); start(gameOptions()); });
  $("load").addEventListener("change", async () => {
    const file = $("load").files[0];
    if (!file) return;
    try {
      const record = await readJsonFile(file);
      const options = gameOptions();
      if (record && typeof record.players === "number") options.players = record.players;
      if (record && typeof record.view === "number") options.seat = record.view;
      options.bots = options.bots.slice(0, Math.max(1, options.players - 1));
      await start({ ...options, record });
    } catch (e) {
      showError(e.message);
    }
    $("load").value = "";
  });
  // the Hints switch is kept in the browser (localStorage): a reload, or the next game, keeps it
  try { $("hints").checked = localStorage.getItem(HINTS_KEY) === "on"; } catch (_) { /* no storage: off */ }
  $("hints").addEventListener("change", () => {
    try { localStorage.setItem(HINTS_KEY, $("hints").checked ? "on" : "off"); } catch (_) { /* not kept */ }
    hintBoard = null;
    if (!$("hints").checked) cancelHint();
    if (game && game.view) { render(); loadHint(); }
  });
  $("undo").addEventListener("click", undo);
  $("save").addEventListener("click", save);
  $("again").addEventListener("click", () => { location.href = "/"; });
  const resume = params.get("game");
  if (resume) {
    $("setup").hidden = true;         // (while it waits: the New game form made the game look lost)
    try {
      const r = await reopen(resume);
      game = { id: resume, view: null };
      $("setup").hidden = true;
      $("table").hidden = false;
      relog(r.view);
      await show({ ...r.view, last_moves: [] });        // with the last round's summary while it is due
      return;
    } catch (e) {
      showError(e.message);
      $("setup").hidden = false;
    }
  }
  setState("setup");
}

init();
