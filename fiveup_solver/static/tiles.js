// Hand tiles as small SVG dominoes (the board itself comes from the server's fiveup_solver/svg.py).

const PIPS = {
  0: [], 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [-1, 1], [1, -1], [1, 1]], 5: [[-1, -1], [-1, 1], [1, -1], [1, 1], [0, 0]],
  6: [[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]],
};
const NS = "http://www.w3.org/2000/svg";

/** An upright domino "a-b" (a on top) as an SVG element, 36 x 70 pixels. */
export function tileSvg(tile) {
  const [a, b] = tile.split("-").map(Number);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 36 70");
  svg.setAttribute("width", "36");
  svg.setAttribute("height", "70");
  svg.setAttribute("aria-hidden", "true");
  const add = (tag, attrs) => {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    svg.append(n);
  };
  add("rect", { x: 1.5, y: 1.5, width: 33, height: 67, rx: 5, class: "face" });
  add("line", { x1: 6, y1: 35, x2: 30, y2: 35, class: "bar" });
  [[a, 18], [b, 52]].forEach(([value, cy]) => {
    for (const [u, v] of PIPS[value]) add("circle", { cx: 18 + u * 9, cy: cy + v * 9, r: 3.4, class: "pip" });
  });
  return svg;
}
