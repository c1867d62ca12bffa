// The JSON API and small page helpers shared by the play page and the analysis board.

export class ApiError extends Error {}

/** Call the API; resolves to the answer's JSON, or throws ApiError with the server's one-line error
 * (its `status` is the HTTP status). `signal`: an AbortSignal that cancels the request (the server
 * then stops its search); a cancelled request throws the browser's AbortError, not an ApiError. */
export async function api(method, path, body, signal) {
  const options = { method, headers: {}, signal };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new ApiError(`the server does not answer (${e.message})`);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new ApiError(`${response.status}: the answer is not JSON`);
  }
  if (!response.ok) {
    const error = new ApiError(data && data.error ? data.error : `error ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

/** The board layout the server draws for this screen: "narrow" on a phone-sized one (lines bent
 * sooner, into a square shown at a readable size; a long round's board shrank to 7 px numbers). */
export function boardLayout() {
  return window.matchMedia("(max-width: 600px)").matches ? "narrow" : "wide";
}

/** A placement (an opening or a move at an open end), drawn on a board; a draw or a pass is not. */
export const isPlacement = (move) => Boolean(move) && move !== "pass" && !move.startsWith("draw");

/** A win probability with its standard error, as `fiveup play` shows it: "49.3 % ±1.9". */
export function winText(win, stderr) {
  return `${(100 * win).toFixed(1)} % ±${(100 * (stderr || 0)).toFixed(1)}`;
}

/** Points (raw, of the round) with their standard error: "-3.8 ±4.8". */
export function pointsText(value, stderr) {
  return `${value.toFixed(1)} ±${(stderr || 0).toFixed(1)}`;
}

/** Show a one-line message in the page's #error bar (empty text hides it). */
export function showError(text) {
  const bar = document.getElementById("error");
  if (!bar) return;
  bar.textContent = text || "";
  bar.hidden = !text;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) node.append(c);
  return node;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Raw points with the display points (raw / 5) after them: "35 (7)". */
export function points(raw) {
  return `${raw} (${Math.trunc(raw / 5)})`;
}

/** Offer a JSON object as a file download. */
export function download(obj, name) {
  const blob = new Blob([JSON.stringify(obj, null, 1) + "\n"], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** Read a chosen file as JSON (throws ApiError with one line when it is not). */
export async function readJsonFile(file) {
  const text = await file.text();
  try {
    return JSON.parse(text);
  } catch (e) {
    // a binary file (a picture chosen by mistake): its bytes are no words to show (a review
    // saw them as boxes in the error line)
    if (/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text.slice(0, 4096))) {
      throw new ApiError(`${file.name}: not a JSON text file (a record is JSON text, as fiveup-record/1 writes it)`);
    }
    throw new ApiError(`${file.name}: not valid JSON (${e.message})`);
  }
}

// A record file as both pages read it: JSON, and an object (JSON's words for anything else, as
// the command line's errors.json_kind), every fault one line naming the file
export async function readRecordFile(file) {
  const rec = await readJsonFile(file);
  const kind = rec === null ? "null" : Array.isArray(rec) ? "an array" : typeof rec === "boolean" ? "true/false"
    : typeof rec !== "object" ? `a ${typeof rec}` : null;
  if (kind) throw new ApiError(`${file.name}: a record is a JSON object, not ${kind}`);
  return rec;
}
