// The play page: a game against the bots through the JSON API (/api/games...).
import { api, showError, el, sleep, points, download, readRecordFile, winText, pointsText, isPlacement, boardLayout } from "./api.js";
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
let setupSeat = 0;      // your seat in the set-up when its bot choices were last drawn
const seatBots = new Map();   // the bot chosen for each seat, kept while the player count changes
const HINTS_KEY = "fiveup.hints";   // the Hints switch, kept in the browser over reloads

function setState(s) { document.body.dataset.state = s; }

// ------------------------------------------------------------------ focus and announcements
// (an accessibility review: the focus fell to the page after nearly every move, and the live
// status line was read again at every step while the result was never said)
let byKeyboard = false;    // the last input was a key: a focus moved by the page scrolls to it
window.addEventListener("keydown", () => { byKeyboard = true; }, true);
window.addEventListener("pointerdown", () => { byKeyboard = false; }, true);

function focusOn(node) {
  if (node) node.focus({ preventScroll: !byKeyboard });
}

// the focus is nowhere (the page), or on a control gone, hidden or turned off
function focusLost() {
  const a = document.activeElement;
  return !a || a === document.body || !a.isConnected || a.disabled || Boolean(a.closest("[hidden]"));
}

// the focus is on the game's own controls, which a move draws again
const PLAY_AREA = "#hand, #hand-title, #moves, #board, #hint-table, #next-box";
function focusInPlay() {
  const a = document.activeElement;
  return Boolean(a && a !== document.body && a.closest(PLAY_AREA));
}

// the playable tile at this place among the playable ones (the last if fewer), else the hand's heading
function focusHand(index = 0) {
  const tiles = [...$("hand").querySelectorAll("button.tile:not(:disabled)")];
  focusOn(tiles.length ? tiles[Math.max(0, Math.min(index, tiles.length - 1))] : $("hand-title"));
}

// after a view is shown: the focus on the game's result, or on your hand, when it was lost or on a
// control the view drew again (a button the person is on elsewhere keeps it: Hints, Undo, Save)
function settleFocus(index) {
  if (!focusLost() && !focusInPlay()) return;
  const over = $("over").querySelector("h2");
  if (!$("over").hidden && over) focusOn(over);
  else focusHand(index);
}

// the place of the focused tile among the playable ones (-1: not on a tile)
function focusedTileIndex() {
  const tiles = [...$("hand").querySelectorAll("button.tile:not(:disabled)")];
  return tiles.indexOf(document.activeElement);
}

// one short sentence in the page's polite live region (#say); the same sentence again is said again
function say(text) {
  const box = $("say");
  if (!box) return;
  box.textContent = box.textContent === text ? `${text}\u00a0` : text;
}

const capital = (t) => t.charAt(0).toUpperCase() + t.slice(1);

// a step in words: "seat 1 (level1) played 4-5, placement +5 for seat 1 (level1)"
function stepWords(view, step, drawn) {
  const who = seatName(view, step.seat);
  const did = drawn > 1 ? `${who} drew ${drawn} tiles`
    : step.move === "pass" ? `${who} passed`
    : step.move.startsWith("draw") ? `${who} ${step.move === "draw" ? "drew a tile" : `drew ${step.move.slice(5)}`}`
    : `${who} played ${step.move}`;
  const events = step.events.map((e) => `${e.kind} ${e.raw > 0 ? "+" : ""}${e.raw} for ${sideName(view, e.side)}${e.accepted ? "" : " (rejected: above 305)"}`);
  return [did + (step.forced ? " (forced)" : ""), ...events].join(", ");
}

// ------------------------------------------------------------------ set-up form
function seatOptions() {
  const n = Number($("players").value);
  const seat = $("seat");
  const keep = Math.min(Number(seat.value || 0), n - 1);
  seat.replaceChildren(...Array.from({ length: n }, (_, s) => el("option", { value: s, text: String(s) })));
  seat.value = keep;
  const box = $("bot-choices");
  // each seat keeps its bot (a review: they were kept by their place in the list, so a new
  // seat of yours moved them, your partner's too), a seat left out with fewer players too; the
  // seat you leave takes the bot of the seat you take (4 players, seat 0 to 2: your partner
  // keeps its bot)
  for (const pick of box.querySelectorAll("select")) seatBots.set(Number(pick.dataset.seat), pick.value);
  if (keep !== setupSeat && seatBots.has(keep)) seatBots.set(setupSeat, seatBots.get(keep));
  setupSeat = keep;
  box.replaceChildren();
  for (let s = 0; s < n; s++) {
    if (s === keep) continue;
    const pick = el("select", { "data-seat": s, "aria-label": `bot of seat ${s}` },
      // only the bots that can play this many (alphamu: 2 players)
      ...bots.filter((b) => !b.players || b.players.includes(n)).map((b) => el("option", { value: b.name, text: b.label })));
    // a bot this many players cannot have falls back to level1 (a review: the select was
    // left blank, and Start then failed naming a bot '')
    const want = seatBots.get(s);
    pick.value = [...pick.options].some((o) => o.value === want) ? want : "level1";
    // with 4 players the seat opposite yours is your partner (RULES §1.3)
    const partner = n === 4 && s === (keep + 2) % 4;
    box.append(el("label", {}, `Seat ${s}${partner ? " (your partner)" : ""} `, pick));
  }
}

// a select set to `value` if it offers it (a value it does not offer would leave it blank)
function choose(select, value) {
  if ([...select.options].some((o) => o.value === value)) select.value = value;
}

// the set-up as the address gives it (?players=4&seat=1&bots=level8,level2,level3: "New game"
// keeps the last game's settings so)
function presetFromAddress() {
  if (params.has("players")) choose($("players"), params.get("players"));
  seatOptions();
  if (params.has("seat")) {
    choose($("seat"), params.get("seat"));
    seatOptions();
  }
  if (params.has("bots")) {
    const names = params.get("bots").split(",");
    [...$("bot-choices").querySelectorAll("select")].forEach((pick, i) => { if (i < names.length) choose(pick, names[i]); });
  }
}

// "New game": the set-up again with this game's players, seat and bots, and ?delay (a review:
// it went to "/", every setting lost); not the seed: a new game is a new deal
function newGameAddress() {
  const q = new URLSearchParams();
  const view = game && game.view;
  if (view) {
    q.set("players", view.players);
    q.set("seat", view.seat);
    q.set("bots", view.seats.filter((_, s) => s !== view.seat).join(","));
  }
  if (DELAY !== 500) q.set("delay", DELAY);
  return `/${q.toString() ? `?${q}` : ""}`;
}

function gameOptions() {
  const bots = [...$("bot-choices").querySelectorAll("select")].map((s) => s.value);
  const options = { players: Number($("players").value), seat: Number($("seat").value), bots };
  // no seed: the server deals from a secret one (a seed you know deals tiles you can know);
  // sent as the digits typed: a JavaScript number would change a seed above 2^53
  if ($("seed").value !== "") options.seed = $("seed").value.trim();
  return options;
}

// The bots of a game going on from a record: each other seat's bot the record names (the app
// saves the bots' names as the seats' names) when it is one this many players can have, else
// the set-up's choice (a review: a game saved against level5 went on against the form's level1)
function recordBots(record, options) {
  const n = options.players;
  const names = Array.isArray(record.seats) ? record.seats : [];
  const form = options.bots.length ? options.bots : ["level1"];
  const others = Array.from({ length: n }, (_, s) => s).filter((s) => s !== options.seat);
  return others.map((s, k) => {
    const named = bots.find((b) => b.name === names[s] && (!b.players || b.players.includes(n)));
    return named ? named.name : form[k % form.length];
  });
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
    $("round-end").hidden = $("round-flag").hidden = $("next-box").hidden = true;
    $("setup").hidden = true;
    $("table").hidden = false;
    if (focusLost()) focusOn($("hand-title"));       // (Start, or the file field, is hidden now)
    history.replaceState(null, "", `/?game=${r.id}${DELAY !== 500 ? `&delay=${DELAY}` : ""}`);
    // the bots before the person move first: the dealt hand is shown dimmed (not playable) and
    // the page busy meanwhile, Undo off (a review: an empty hand, a live-looking Undo, the
    // state still "setup" while they played)
    waitForOthers(r.view);
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

// the tiles each seat holds, named (a review: "hands 5/5/4/4" said not whose):
// "you 5, seat 1 5, seat 2 (partner) 4, seat 3 4"
function handsText(view, hands) {
  return hands.map((h, s) => `${s === view.seat ? "you" : `seat ${s}`}${view.players === 4 && s === (view.seat + 2) % 4 ? " (partner)" : ""} ${h}`).join(", ");
}

// one wording for a credit the exact target refused, in the log and the round's summary
const REJECTED = " (rejected: above 305)";

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
    const whose = e.kind === "block" ? ` (${e.seat === view.seat ? "you" : `seat ${e.seat}`})` : "";
    text += `; ${e.kind}${whose} ${e.raw > 0 ? "+" : ""}${e.raw} for ${sideName(view, e.side)}${e.accepted ? "" : REJECTED}`;
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
  // a blocked round's credits seat by seat from the hands above (RULES §6.5: the seat's
  // heavier opponents' hands less its own, added up and rounded once to the nearest 5; the
  // server's end.block, lightest seat first): a review could not tell whose credit was whose
  const short = (s) => (s === view.seat ? "you" : `seat ${s}`);
  const blockText = (p) => {
    if (!p.above.length) return `${short(p.seat)}: ${p.pips} pips; no opponent holds more`;
    const diffs = p.above.map(([o, x]) => `${short(o)} (${x} - ${p.pips} = ${x - p.pips})`);
    const sum = p.above.length > 1 ? `${p.above.map(([, x]) => x - p.pips).join(" + ")} = ${p.total}` : `${p.total}`;
    return `${short(p.seat)}: ${p.pips} pips; heavier opponents: ${diffs.join(", ")}; ${sum}`
      + (p.credit !== p.total ? `, rounded to ${p.credit}` : "");
  };
  const block = new Map((end.block || []).map((p) => [p.seat, p]));
  // a domino's credit with its parts from the hands above (P + O - D, RULES §6.3)
  const events = end.events.filter((e) => e.kind !== "placement")
    .map((e) => el("li", { text: `${e.kind}${e.kind === "block" ? ` (${short(e.seat)})` : ""}: ${signed(e.raw)} raw for ${sideName(view, e.side)}${e.accepted ? "" : REJECTED}` },
      ...(e.kind === "domino" && end.domino ? [el("div", { class: "small", text: end.domino.text })] : []),
      ...(e.kind === "block" && block.has(e.seat) ? [el("div", { class: "small", text: blockText(block.get(e.seat)) })] : [])));
  // the seats a block credits nothing (their credit 0), or that were not scored (the game won before them)
  const credited = new Set(end.events.filter((e) => e.kind === "block").map((e) => e.seat));
  for (const p of end.block || []) {
    if (credited.has(p.seat)) continue;
    events.push(el("li", { text: `block (${short(p.seat)}): ${p.credit ? "not scored, the game was won before it" : "no credit"}` },
      el("div", { class: "small", text: blockText(p) })));
  }
  // who starts the next round (RULES §2.5; a review: nothing said it)
  const nextRound = end.round + 1;
  let starts = "";
  if (!end.game_over && !(view.unfinished && view.round === end.round)) {
    if (end.end.end === "domino") {
      starts = `Round ${nextRound}: ${who(end.end.seat)} ${end.end.seat === view.seat ? "start" : "starts"}, as the seat that emptied its hand.`;
    } else if (end.end.end === "blocked") {
      const drawn = view.round === nextRound ? `: ${who(view.starter)} ${view.starter === view.seat ? "start" : "starts"}` : "";
      starts = `Round ${nextRound}'s starter is drawn afresh, as after every blocked round${drawn}.`;
    }
  }
  // the placements' points of the round, per side: start + placements + end scoring = after
  const placed = end.scores.map(() => 0);
  for (const e of end.events) if (e.kind === "placement" && e.accepted) placed[e.side] += e.raw;
  box.replaceChildren(
    el("h3", { text: `Round ${end.round} is over: ${how}` }),
    el("p", { text: "Hands left:" }), el("ul", {}, ...hands),
    el("p", { text: "Scoring at the end:" }), el("ul", {}, ...(events.length ? events : [el("li", { text: "none" })])),
    el("p", { class: "scores", text: `Scores at the round's start: ${scoreList(view, end.scores_before)}` }),
    el("p", { class: "scores", text: `Placements scored in the round: ${placed.map((x, s) => `${scoreName(view, s)}: ${signed(x)}`).join(" · ")}` }),
    el("p", { class: "scores", text: `Scores after the round: ${scoreList(view, end.scores)}` }),
    ...(starts ? [el("p", { class: "starts", text: starts })] : []));
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

const isBotDraw = (view, step) => step.seat !== view.seat && step.move.startsWith("draw");

// the game's result in words: "You win!", "Seat 1 (level1) wins."
function resultWords(view) {
  if (!view.game_over) return "Unfinished (round limit)";
  const won = view.winner === view.side;
  return capital(won ? (view.players === 4 ? "Your side wins!" : "You win!") : `${sideName(view, view.winner)} wins.`);
}

// sentences for the live region: each capitalised, ended with a full stop
function sentences(parts) {
  return parts.filter(Boolean).map((t) => capital(t.trim())).map((t) => (/[.!?]$/.test(t) ? t : `${t}.`)).join(" ");
}

// `index`: the place of the tile played among the playable ones (the focus goes back there);
// `lead`: what the person did, said before the others' moves (an undo)
async function show(view, index = 0, lead = "") {
  // the actions since the person's last decision, one at a time (the bots' with a pause);
  // a round's summary stays up until the person's first decision of the next round is made
  cancelHint();
  const said = lead ? [lead] : [];      // what happened, said once at the end (or at a round's end)
  const steps = view.last_moves;
  const ends = steps.some((step) => step.round_end);
  if (!ends) {
    if (summaryDue(view)) showRoundEnd(view, view.round_end);
    else $("round-end").hidden = $("round-flag").hidden = true;
  }
  let drawn = 0;        // one bot's draws in a row so far
  for (const [i, step] of steps.entries()) {
    $("board").innerHTML = step.board;
    logStep(view, step);
    // the person's tile played leaves the hand shown meanwhile
    if (step.seat === view.seat && "play" in step.act) {
      const gone = $("hand").querySelector(`button[data-tile="${step.act.play}"]`);
      if (gone) gone.remove();
    }
    if (step.round_end) showRoundEnd(view, step.round_end);
    const who = seatName(view, step.seat);
    // one bot's draws in a row are shown as one step (a review: 7 draws took 3.5 s)
    drawn = isBotDraw(view, step) ? drawn + 1 : 0;
    const next = steps[i + 1];
    const moreDraws = drawn && next && next.seat === step.seat && next.round === step.round && isBotDraw(view, next);
    const did = drawn > 1 ? [`${who} drew ${drawn} tiles`] : [`${who} played `, el("span", { class: "move", text: step.move })];
    if (!moreDraws) said.push(stepWords(view, step, drawn));
    if (step.round_end) {
      const heading = $("round-end").querySelector("h3");
      said.push(heading ? heading.textContent : `round ${step.round} is over`);
      // (at the game's end the final scores are said with the result)
      if (view.round > step.round) said.push(`scores after the round: ${scoreList(view, step.round_end.scores)}`);
    }
    if (step.round_end && view.round > step.round) {
      say(sentences(said));
      said.length = 0;
      // a round's end: its last board stays, with the summary, until the person goes on
      // (a review: the next round's board covered it at once, the person's own last tile unseen)
      showStatus(view, step.round, step.scores, [...did, ` · round ${step.round} is over`], step.boneyard_size, step.hand_sizes);
      await roundPause(view, step);
    } else if (DELAY > 0 && step.seat !== view.seat && !moreDraws) {
      $("note").textContent = drawn > 1 ? `${who} draws ${drawn} tiles` : `${who} plays ${step.move}`;
      // (a review: the status kept the scores of before the replies while they were shown)
      showStatus(view, step.round, step.scores, [...did, " · ", el("span", { class: "waiting", text: "the others are playing…" })],
        step.boneyard_size, step.hand_sizes);
      await sleep(DELAY);
    }
  }
  game.view = view;
  selected = null;
  hintBoard = null;
  render();
  if (view.game_over || view.unfinished) said.push(`${resultWords(view)} Final scores: ${scoreList(view, view.scores)}`);
  else if (view.to_move === view.seat) said.push("your move");
  if (said.length) say(sentences(said));
  settleFocus(index);
  // not awaited: the person may move while the hint is computed (a hint that arrives for a
  // position already left is dropped in loadHint); clicks were ignored until it came
  if ($("hints").checked) loadHint();
}

// After the step that ended a round (the next round dealt after it): the round's last board,
// the summary and the tiles left in the person's hand stay until "Next round" is clicked (or
// Enter or Space on it: it takes the focus). The hand, the moves, Undo and the hint belong to
// no position meanwhile.
async function roundPause(view, step) {
  const end = step.round_end;
  const left = end.hands[view.seat];
  $("note").textContent = `Round ${step.round} is over: the board as it ended. `
    + `${left.length ? "Your hand holds the tiles left." : "You emptied your hand."}`;
  showTiles(left, "left in your hand");
  $("moves-box").hidden = $("hint-box").hidden = true;
  $("undo").disabled = true;
  const button = $("next-round");
  button.textContent = `Next round (round ${step.round + 1})`;
  $("next-box").hidden = false;
  setState("roundover");
  button.focus({ preventScroll: true });
  await new Promise((resolve) => button.addEventListener("click", resolve, { once: true }));
  $("next-box").hidden = true;
  focusOn($("hand-title"));          // (the button is hidden: the focus on the hand while the others move)
  $("note").textContent = "";
  showTiles(view.hand, "your hand in the next round");     // while the bots before you move
  setState("busy");
}

// while the seats before the person move (a game's start): the dealt hand, dimmed and not
// playable; no legal moves yet; Undo off; the page busy
function waitForOthers(view) {
  if (view.last_moves.every((step) => step.seat === view.seat)) return;
  setState("busy");
  showTiles(view.hand, "your hand: the others move first");
  $("moves").replaceChildren();
  $("moves-box").hidden = true;
  $("undo").disabled = true;
  $("note").textContent = "The others move first: your move comes after them.";
}

// tiles shown in the hand's place, none of them playable
function showTiles(tiles, what) {
  $("hand").replaceChildren(...tiles.map((t) => el("button", { type: "button", class: "tile", "data-tile": t,
    "aria-label": `tile ${t} (${what})`, disabled: true }, tileSvg(t))));
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
    el("span", { class: "small", text: ` · boneyard ${boneyard} · tiles in hand: ${handsText(view, hands)}` }));
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
      "data-tile": t, "aria-label": `tile ${t}${can ? "" : " (does not fit)"}`, disabled: !can || view.game_over,
      // the tile picked is a pressed button (a review: only its colour said so)
      "aria-pressed": can && !view.game_over ? String(selected === t) : undefined },
      tileSvg(t));
    // (a click from the keyboard, Enter or Space on the tile, has no mouse clicks: detail 0)
    b.addEventListener("click", (e) => pickTile(t, playable.get(t), e.detail === 0));
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
      // (focusable from the script: the focus goes to the result at the game's end)
      el("h2", { tabindex: "-1", text: view.game_over ? winner.charAt(0).toUpperCase() + winner.slice(1) : "Unfinished (round limit)" }),
      el("p", { text: `Final scores: ${scoreList(view, view.scores)}` }),
      el("a", { href: `/analysis?game=${game.id}`, id: "analyse", class: "button" }, "Analyse this game"));
    $("over").hidden = false;
    // on a phone the result is far below the board: the flag above it says it too (a review)
    const flag = $("round-flag");
    if (view.game_over && !flag.hidden && !flag.querySelector(".result")) {
      flag.prepend(el("strong", { class: "result", text: `${winner.charAt(0).toUpperCase() + winner.slice(1)} ` }));
    }
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
    target.setAttribute("aria-label", moveWords(move));
    if (target.tagName === "circle") target.setAttribute("r", "13");
    target.addEventListener("click", () => play(move));
    // Enter or Space plays it, as a button (a review: Space did nothing); Escape puts the tile back
    target.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        play(move);
      } else if (e.key === "Escape" && selected) {
        e.preventDefault();
        putBack();
      }
    });
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
  // an image's parts are not controls to assistive technology: while its ends are buttons the
  // board is a group (its caption kept as its name)
  const svg = board.querySelector("svg");
  if (targets.length && svg) svg.setAttribute("role", "group");
}

// "2-5@0-5:high" in words: "play 2-5 on the high end of 0-5"
function moveWords(move) {
  const [tile, at] = move.split("@");
  if (!at) return `play ${tile}`;
  const [on, port] = at.split(":");
  return port ? `play ${tile} on the ${port} end of ${on}` : `play ${tile} on ${on}`;
}

function pickTile(tile, options, byKey = false) {
  if (busy || !options) return;
  if (options.length === 1 && options[0].port === null) { play(options[0].move); return; }   // the opening
  selected = selected === tile ? null : tile;
  render();
  // the keyboard goes on from the tile (a review: the hand was drawn again and the focus fell to
  // the page, the highlighted ends before the hand in tab order): Enter or Space on a tile goes
  // to its first highlighted end; a click, or the tile put back, keeps the tile focused
  const target = selected && $("board").querySelector(".target");
  if (byKey && target) target.focus();
  else {
    const again = $("hand").querySelector(`button[data-tile="${tile}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

// the tile picked put back (Escape on a highlighted end), the focus on it again
function putBack() {
  const tile = selected;
  selected = null;
  render();
  const again = $("hand").querySelector(`button[data-tile="${tile}"]`);
  if (again) again.focus();
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
  // the place of the tile played (picked, or focused) among the playable ones: the focus goes back there
  const tiles = [...$("hand").querySelectorAll("button.tile:not(:disabled)")];
  const tile = selected || move.split("@")[0];
  const index = Math.max(0, tiles.findIndex((b) => b.dataset.tile === tile));
  setState("busy");       // the hand and the moves dimmed until the replies are shown (style.css)
  const status = $("status").firstChild;
  if (status) status.textContent = status.textContent.replace(/your move$/, `you play ${move}; the others reply…`);
  showError("");
  cancelHint();         // the hint of this position is no longer wanted: its search stops
  try {
    const r = await api("POST", `/api/games/${game.id}/moves`, { move, ...positionOf(game.view) });
    await show(r.view, index);
  } catch (e) {
    showError(e.message);
    if (await showIfMovedOn()) return;
    render();
    settleFocus(index);
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
    const top = h.moves.find((m) => m.rank === 1) || h.moves[0];
    if (top) say(h.samples && top.win !== null ? `Hint ready: best ${top.move}, win ${winText(top.win, top.win_stderr)}.`
      : `Hint ready: ${top.move} is the only legal move.`);
    // the best move on the board: an arrow and a ghost tile at its open end, or the
    // opening's ghost on the empty table
    if (isPlacement(h.best)) {
      // (the game's own board: its caption says what the last placement credited)
      const b = await api("POST", `/api/games/${game.id}/board`, { arrows: [[h.best, "#1864ab"]], ...positionOf(view) },
        signal);
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
        li.append(el("span", { class: "sr-only", text: " (undone)" }));
        delete li.dataset.round;
      }
    }
    logAdd(el("li", { class: "mine", text: "undo (the tiles you have not seen are dealt again)" }));
    await show(r.view, 0, "your last move is taken back, the tiles you have not seen dealt again");
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

// On a phone-sized screen the buttons and the hint come right after the hand, before the long
// list of legal moves (a review: the hint table began about 900 px down, below the first screen);
// the nodes are moved, not reordered by CSS, so that the keyboard's order is the order seen
const PHONE = window.matchMedia("(max-width: 600px)");
function placeHintBox() {
  const buttons = document.querySelector("#table .buttons");
  const box = $("hint-box");
  if (PHONE.matches) $("moves-box").before(buttons, box);
  else document.querySelector("#table aside").prepend(buttons, box);
}

async function init() {
  placeHintBox();
  PHONE.addEventListener("change", placeHintBox);
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
  presetFromAddress();
  $("new-game").addEventListener("submit", (e) => { e.preventDefault(); start(gameOptions()); });
  $("load").addEventListener("change", async () => {
    const file = $("load").files[0];
    if (!file) return;
    try {
      const record = await readRecordFile(file);
      const options = gameOptions();
      if (record && typeof record.players === "number") options.players = record.players;
      if (record && typeof record.view === "number") options.seat = record.view;
      options.bots = recordBots(record, options);
      await start({ ...options, record });
    } catch (e) {
      // the file named first, as the analysis board says it (a review: "record: ..." here)
      showError(e.message.startsWith(`${file.name}: `) ? e.message : `${file.name}: ${e.message}`);
    }
    $("load").value = "";
  });
  // the Hints switch is kept in the browser (localStorage): a reload, or the next game, keeps it
  try { $("hints").checked = localStorage.getItem(HINTS_KEY) === "on"; } catch (_) { /* no storage: off */ }
  $("hints").addEventListener("change", () => {
    try { localStorage.setItem(HINTS_KEY, $("hints").checked ? "on" : "off"); } catch (_) { /* not kept */ }
    hintBoard = null;
    if (!$("hints").checked) {
      cancelHint();
      $("hint-box").hidden = true;
    }
    // not while a move's replies are shown (busy): game.view is still the position before the
    // move, which render() drew again as "your move" (a review); show() loads the hint at its end
    if (game && game.view && !busy) { render(); loadHint(); }
  });
  $("undo").addEventListener("click", undo);
  $("save").addEventListener("click", save);
  $("again").addEventListener("click", () => { location.href = newGameAddress(); });
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
