// The play page: a game against the bots through the JSON API (/api/games...).
import { api, showError, el, sleep, points, download, readJsonFile } from "./api.js";
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
      ...bots.map((b) => el("option", { value: b.name, text: b.label })));
    pick.value = old.shift() || "level1";
    box.append(el("label", {}, `Seat ${s} `, pick));
  }
}

function gameOptions() {
  const bots = [...$("bot-choices").querySelectorAll("select")].map((s) => s.value);
  const options = { players: Number($("players").value), seat: Number($("seat").value), bots };
  // no seed: the server deals from a secret one (a seed you know deals tiles you can know)
  if ($("seed").value !== "") options.seed = Number($("seed").value);
  return options;
}

async function start(body) {
  showError("");
  busy = true;
  try {
    const r = await api("POST", "/api/games", body);
    game = { id: r.id, view: null };
    $("log").replaceChildren();
    $("over").hidden = true;
    $("round-end").hidden = true;
    $("setup").hidden = true;
    $("table").hidden = false;
    history.replaceState(null, "", `/?game=${r.id}${DELAY !== 500 ? `&delay=${DELAY}` : ""}`);
    await show(r.view);
  } catch (e) {
    showError(e.message);
    setState("setup");
  } finally {
    busy = false;
  }
}

// ------------------------------------------------------------------ showing a view
function seatName(view, s) { return s === view.seat ? "you" : `seat ${s} (${view.seats[s]})`; }

function logStep(view, step) {
  const who = seatName(view, step.seat);
  let text = step.move === "pass" ? `${who}: pass` : step.move.startsWith("draw") ? `${who}: ${step.move}`
    : `${who}: ${step.move}`;
  if (step.forced) text += " (forced)";
  for (const e of step.events) {
    text += `; ${e.kind} ${e.raw > 0 ? "+" : ""}${e.raw} for side ${e.side}${e.accepted ? "" : " (rejected: above 305)"}`;
  }
  const item = el("li", { class: step.seat === view.seat ? "mine" : "" , text,
    "data-round": step.round, "data-action": step.action });
  $("log").prepend(item);
}

function showRoundEnd(view, end) {
  const box = $("round-end");
  const how = end.end.end === "domino" ? `seat ${end.end.seat} emptied their hand`
    : end.end.end === "blocked" ? `blocked (${end.end.winner === null ? "a tie" : `side ${end.end.winner} lowest`})`
    : end.end.end === "won" ? `seat ${end.end.seat} reached exactly 305` : end.end.end;
  const hands = end.hands.map((h, s) => el("li", { text: `${seatName(view, s)}: ${h.join(" ") || "(empty)"}` }));
  const events = end.events.filter((e) => e.kind !== "placement")
    .map((e) => el("li", { text: `${e.kind}: ${e.raw > 0 ? "+" : ""}${e.raw} raw for side ${e.side}${e.accepted ? "" : " (rejected)"}` }));
  box.replaceChildren(
    el("h3", { text: `Round ${end.round} is over: ${how}` }),
    el("p", { text: "Hands left:" }), el("ul", {}, ...hands),
    el("p", { text: "Scoring at the end:" }), el("ul", {}, ...(events.length ? events : [el("li", { text: "none" })])),
    el("p", { text: `Scores: ${end.scores.map(points).join(" / ")} (were ${end.scores_before.map(points).join(" / ")})` }));
  box.hidden = false;
}

// a reloaded page: the log again from this round's actions as the person saw them (the
// scoring of each is not in the view); the last round's summary is shown again after it
// until the person's first decision of this round
function relog(view) {
  view.history.forEach((a, i) => {
    const move = "play" in a ? (a.at ? `${a.play}@${a.at}` : a.play) : "draw" in a ? (a.draw ? `draw ${a.draw}` : "draw") : "pass";
    $("log").prepend(el("li", { class: a.seat === view.seat ? "mine" : "", text: `${seatName(view, a.seat)}: ${move}`,
      "data-round": view.round, "data-action": i }));
  });
  $("log").prepend(el("li", { text: `round ${view.round} (this page was opened again: the log restarts here)` }));
}

async function show(view) {
  // the actions since the person's last decision, one at a time (the bots' with a pause);
  // a round's summary stays up until the person's first decision of the next round is made
  if (!view.last_moves.some((step) => step.round_end)) $("round-end").hidden = true;
  for (const step of view.last_moves) {
    $("board").innerHTML = step.board;
    logStep(view, step);
    if (step.round_end) showRoundEnd(view, step.round_end);
    if (DELAY > 0 && step.seat !== view.seat) {
      $("note").textContent = `${seatName(view, step.seat)} plays ${step.move}`;
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

function render() {
  const view = game.view;
  const sides = view.scores.length;
  const scoreText = view.scores.map((x, s) => `side ${s}${s === view.side ? " (you)" : ""}: ${points(x)}`).join(" · ");
  const turn = view.game_over ? "game over" : view.to_move === view.seat ? "your move" : `seat ${view.to_move} to move`;
  $("status").replaceChildren(
    el("span", { text: `Round ${view.round} · ${scoreText} · target 305 (61) · ${turn}` }),
    el("span", { class: "small", text: ` · boneyard ${view.boneyard_size} · hands ${view.hand_sizes.join("/")}` }));
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
  $("moves").replaceChildren(...view.legal_moves.map((m) => el("li", {},
    el("button", { type: "button", class: "move", "data-move": m, onclick: () => play(m) }, m))));
  if (selected && playable.has(selected)) markPorts(playable.get(selected));
  $("undo").disabled = view.game_over;
  if (view.game_over || view.unfinished) {
    const won = view.winner === view.side;
    $("over").replaceChildren(
      el("h2", { text: view.game_over ? (won ? "You win!" : `Side ${view.winner} wins.`) : "Unfinished (round limit)" }),
      el("p", { text: `Final scores: ${view.scores.map(points).join(" / ")}` }),
      el("a", { href: `/analysis?game=${game.id}`, id: "analyse", class: "button" }, "Analyse this game"));
    $("over").hidden = false;
    setState("over");
  } else {
    setState(view.to_move === view.seat ? "ready" : "waiting");
  }
}

function markPorts(options) {
  const board = $("board");
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
  }
}

function pickTile(tile, options) {
  if (busy || !options) return;
  if (options.length === 1 && options[0].port === null) { play(options[0].move); return; }   // the opening
  selected = selected === tile ? null : tile;
  render();
}

async function play(move) {
  if (busy || !game) return;
  busy = true;
  setState("busy");
  showError("");
  try {
    const r = await api("POST", `/api/games/${game.id}/moves`, { move });
    await show(r.view);
  } catch (e) {
    showError(e.message);
    // the game may have moved on elsewhere (another tab): show it as the server has it
    try {
      const r = await api("GET", `/api/games/${game.id}`);
      if (positionKey(r.view) !== positionKey(game.view) || r.view.round !== game.view.round) {
        relog(r.view);
        await show({ ...r.view, last_moves: [] });
        return;
      }
    } catch (_) { /* the error shown is the move's */ }
    render();
  } finally {
    busy = false;
  }
}

// ------------------------------------------------------------------ hints
async function loadHint() {
  const view = game.view;
  const box = $("hint-box");
  box.hidden = !$("hints").checked;
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
  try {
    const record = await api("GET", `/api/games/${game.id}/record`);
    const h = await api("POST", "/api/hint", { record, seat: view.seat });
    if (hintFor !== key || game.view !== view) return;        // the position moved on meanwhile
    $("hint-table").tBodies[0].replaceChildren(...h.moves.map((m) => el("tr", { class: m.rank === 1 ? "best" : "" },
      el("td", { text: String(m.rank) }),
      el("td", {}, el("button", { type: "button", class: "link", "data-move": m.move, onclick: () => play(m.move) }, m.move)),
      el("td", { text: m.win === null ? "forced" : (100 * m.win).toFixed(1) }),
      el("td", { text: m.points === null ? "" : m.points.toFixed(1) }))));
    $("hint-state").textContent = h.samples ? `(${h.samples} sampled worlds, ${(1000 * h.seconds).toFixed(0)} ms)`
      : "(the only legal move)";
    if (view.placements.length && h.best.includes("@")) {
      const b = await api("POST", "/api/board", { placements: view.placements, arrows: [[h.best, "#1a7f37"]],
        lastmove: view.placements[view.placements.length - 1] });
      if (hintFor !== key || game.view !== view) return;
      hintBoard = b.svg;
      render();
    }
    box.dataset.state = "ready";
  } catch (e) {
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
  try {
    const r = await api("POST", `/api/games/${game.id}/undo`);
    // the undone actions are struck out in the log: they no longer happened
    for (const li of $("log").querySelectorAll("li[data-round]")) {
      if (Number(li.dataset.round) === r.view.round && Number(li.dataset.action) >= r.view.history.length) {
        li.classList.add("undone");
        delete li.dataset.round;
      }
    }
    $("log").prepend(el("li", { class: "mine", text: "undo (the tiles you have not seen are dealt again)" }));
    await show(r.view);
  } catch (e) {
    showError(e.message);
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

async function init() {
  try {
    const b = await api("GET", "/api/bots");
    bots = [...b.levels.map((l) => ({ name: l.name, label: `${l.name}: ${l.summary}` })),
      ...b.bots.map((n) => ({ name: n, label: n }))];
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
  $("hints").addEventListener("change", () => { hintBoard = null; if (game && game.view) { render(); loadHint(); } });
  $("undo").addEventListener("click", undo);
  $("save").addEventListener("click", save);
  $("again").addEventListener("click", () => { location.href = "/"; });
  const resume = params.get("game");
  if (resume) {
    try {
      const r = await api("GET", `/api/games/${encodeURIComponent(resume)}`);
      game = { id: resume, view: null };
      $("setup").hidden = true;
      $("table").hidden = false;
      relog(r.view);
      await show({ ...r.view, last_moves: [] });
      const view = r.view;
      if (view.round_end && !view.history.some((a) => a.seat === view.seat && "play" in a)) showRoundEnd(view, view.round_end);
      return;
    } catch (e) {
      showError(e.message);
    }
  }
  setState("setup");
}

init();
