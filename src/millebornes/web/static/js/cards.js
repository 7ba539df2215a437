// @ts-check
// The cards, drawn as SVG by this project: a coloured frame per group (distance blue, hazards red,
// remedies green, safeties gold on blue), a simple original pictogram, and the card's name in the chosen
// language. The pictograms are constant markup written here; the names go in with textContent.

import { cardName, getLang, t } from "./lib/words.js";
import { el, svgEl } from "./lib/dom.js";
import { CARDS } from "./lib/cards.js";


const FRAME = {
  distance: { edge: "#1d4f91", fill: "#f4f8fd", ink: "#1d4f91" },
  hazard: { edge: "#c62828", fill: "#fff7f5", ink: "#b71c1c" },
  remedy: { edge: "#2e7d32", fill: "#f5fbf3", ink: "#1b5e20" },
  safety: { edge: "#c9a227", fill: "#1f3a7a", ink: "#ffe082" },
};
const DISTANCE_TINT = { 25: "#4fa3d9", 50: "#3a86c8", 75: "#2d6db5", 100: "#22559b", 200: "#7a3fa0" };

// Pictograms in a 100 x 140 card, in the box x 12..88, y 16..104 (centre 50, 60).
const TIRE = (cx, cy, r) => `
  <circle cx="${cx}" cy="${cy}" r="${r}" fill="#2b2b2b"/>
  <circle cx="${cx}" cy="${cy}" r="${r * 0.62}" fill="#9aa3ad"/>
  <circle cx="${cx}" cy="${cy}" r="${r * 0.22}" fill="#5b636b"/>
  ${[0, 60, 120, 180, 240, 300].map((a) => {
    const x = cx + Math.cos(a * Math.PI / 180) * r * 0.42, y = cy + Math.sin(a * Math.PI / 180) * r * 0.42;
    return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${(r * 0.07).toFixed(1)}" fill="#5b636b"/>`;
  }).join("")}
  <circle cx="${cx}" cy="${cy}" r="${r - 2}" fill="none" stroke="#444" stroke-width="1.5" stroke-dasharray="3 3"/>`;

const PUMP = (body, extra = "") => `
  <rect x="28" y="26" width="34" height="62" rx="5" fill="${body}"/>
  <rect x="33" y="32" width="24" height="16" rx="2" fill="#e8f1f8"/>
  <rect x="24" y="86" width="42" height="8" rx="2" fill="#555"/>
  <path d="M62 40 h8 a5 5 0 0 1 5 5 v30 a4 4 0 0 0 8 0 v-26 l-6 -8" fill="none" stroke="#333" stroke-width="3.5"
        stroke-linecap="round" stroke-linejoin="round"/>
  ${extra}`;

const CAR = (x, y, color, flip = false) => `
  <g transform="translate(${x} ${y}) ${flip ? "scale(-1 1)" : ""}">
    <path d="M-20 4 v-8 l6 -2 l6 -8 h14 l8 8 l8 2 v8 z" fill="${color}" stroke="#222" stroke-width="1.5"
          stroke-linejoin="round"/>
    <path d="M-6 -12 h8 l5 6 h-15 z" fill="#cfe6f5"/>
    <circle cx="-11" cy="5" r="4.5" fill="#222"/><circle cx="11" cy="5" r="4.5" fill="#222"/>
  </g>`;

const PICTOGRAMS = {
  stop: `
    <polygon points="38,22 62,22 79,39 79,63 62,80 38,80 21,63 21,39" fill="#d32f2f" stroke="#fff" stroke-width="3"/>
    <polygon points="38,22 62,22 79,39 79,63 62,80 38,80 21,63 21,39" fill="none" stroke="#b71c1c"
             stroke-width="1" transform="translate(50 51) scale(1.07) translate(-50 -51)"/>
    <g fill="#fff">
      <rect x="38" y="46" width="25" height="22" rx="6"/>
      <rect x="38.5" y="32" width="5" height="20" rx="2.5"/>
      <rect x="44.5" y="29" width="5" height="22" rx="2.5"/>
      <rect x="50.5" y="30" width="5" height="21" rx="2.5"/>
      <rect x="56.5" y="33" width="5" height="18" rx="2.5"/>
      <rect x="30" y="50" width="5" height="15" rx="2.5" transform="rotate(-35 32 57)"/>
    </g>
    <rect x="46" y="86" width="8" height="16" fill="#777"/>`,
  "speed-limit": `
    <circle cx="50" cy="58" r="32" fill="#fff" stroke="#d32f2f" stroke-width="9"/>
    <text x="50" y="70" text-anchor="middle" font-size="32" font-weight="800" fill="#222"
          font-family="Arial, Helvetica, sans-serif">50</text>`,
  "end-of-limit": `
    <circle cx="50" cy="58" r="32" fill="#fff" stroke="#333" stroke-width="2.5"/>
    <text x="50" y="70" text-anchor="middle" font-size="32" font-weight="800" fill="#9e9e9e"
          font-family="Arial, Helvetica, sans-serif">50</text>
    <line x1="29" y1="81" x2="71" y2="35" stroke="#222" stroke-width="5"/>
    <line x1="25" y1="76" x2="66" y2="31" stroke="#222" stroke-width="1.5"/>
    <line x1="34" y1="86" x2="75" y2="41" stroke="#222" stroke-width="1.5"/>`,
  "out-of-gas": PUMP("#c62828", `
    <path d="M45 36 l-6 8 a6 6 0 1 0 12 0 z" fill="#c62828" opacity="0.35"/>
    <line x1="36" y1="34" x2="54" y2="46" stroke="#c62828" stroke-width="3"/>
    <line x1="54" y1="34" x2="36" y2="46" stroke="#c62828" stroke-width="3"/>
    <text x="45" y="72" text-anchor="middle" font-size="14" font-weight="800" fill="#fff"
          font-family="Arial, Helvetica, sans-serif">E</text>`),
  gasoline: PUMP("#2e7d32", `
    <path d="M45 33 l-6 8 a6 6 0 1 0 12 0 z" fill="#f9a825"/>
    <text x="45" y="72" text-anchor="middle" font-size="14" font-weight="800" fill="#fff"
          font-family="Arial, Helvetica, sans-serif">F</text>`),
  "extra-tank": `
    <rect x="14" y="40" width="58" height="30" rx="15" fill="#ffe082" stroke="#fff" stroke-width="2"/>
    <line x1="30" y1="42" x2="30" y2="68" stroke="#c9a227" stroke-width="2"/>
    <line x1="56" y1="42" x2="56" y2="68" stroke="#c9a227" stroke-width="2"/>
    <path d="M72 50 h8 l6 9 v12 h-14 z" fill="#fff"/>
    <rect x="75" y="52" width="6" height="6" fill="#1f3a7a"/>
    <rect x="12" y="70" width="76" height="5" fill="#fff"/>
    <circle cx="26" cy="78" r="6" fill="#111" stroke="#fff" stroke-width="2"/>
    <circle cx="44" cy="78" r="6" fill="#111" stroke="#fff" stroke-width="2"/>
    <circle cx="76" cy="78" r="6" fill="#111" stroke="#fff" stroke-width="2"/>
    <path d="M43 28 l-6 8 a6 6 0 1 0 12 0 z" fill="#ffe082"/>`,
  "flat-tire": `
    <ellipse cx="50" cy="66" rx="30" ry="26" fill="#2b2b2b"/>
    <ellipse cx="50" cy="64" rx="18" ry="16" fill="#9aa3ad"/>
    <circle cx="50" cy="64" r="5" fill="#5b636b"/>
    <rect x="18" y="86" width="64" height="6" rx="3" fill="#2b2b2b"/>
    <polygon points="76,26 80,36 90,34 83,42 90,50 79,48 76,58 72,48 62,50 69,42 62,34 72,36" fill="#ffca28"
             stroke="#c62828" stroke-width="1.5"/>
    <line x1="70" y1="54" x2="78" y2="70" stroke="#555" stroke-width="3" stroke-linecap="round"/>`,
  "spare-tire": TIRE(46, 62, 28) + `
    <circle cx="74" cy="32" r="11" fill="#2e7d32"/>
    <rect x="72" y="25" width="4" height="14" fill="#fff"/><rect x="67" y="30" width="14" height="4" fill="#fff"/>`,
  "puncture-proof": TIRE(44, 62, 27) + `
    <path d="M72 24 l13 5 v10 c0 9 -6 14 -13 17 c-7 -3 -13 -8 -13 -17 v-10 z" fill="#ffe082" stroke="#fff"
          stroke-width="2"/>
    <path d="M66 39 l5 5 l8 -10" fill="none" stroke="#1f3a7a" stroke-width="3" stroke-linecap="round"
          stroke-linejoin="round"/>`,
  accident: `
    ${CAR(30, 70, "#1e88e5")}
    <g transform="rotate(-25 70 62)">${CAR(70, 62, "#fbc02d", true)}</g>
    <polygon points="50,30 54,42 66,38 58,48 68,56 55,55 52,67 47,56 35,58 43,48 34,38 46,42" fill="#ffca28"
             stroke="#c62828" stroke-width="1.5"/>`,
  repairs: `
    <g transform="rotate(45 50 60)">
      <rect x="45" y="32" width="10" height="52" rx="3" fill="#607d8b"/>
      <path d="M38 22 a14 14 0 1 0 24 0 v10 h-8 v-12 h-8 v12 h-8 z" fill="#607d8b"/>
    </g>
    <g transform="rotate(-45 50 60)">
      <rect x="46.5" y="24" width="7" height="36" rx="2" fill="#b0bec5"/>
      <rect x="44" y="58" width="12" height="28" rx="5" fill="#2e7d32"/>
    </g>`,
  roll: `
    <rect x="34" y="18" width="32" height="76" rx="9" fill="#263238"/>
    <circle cx="50" cy="33" r="9" fill="#4e342e"/>
    <circle cx="50" cy="56" r="9" fill="#5d4037"/>
    <circle cx="50" cy="79" r="10" fill="#43e04b"/>
    <circle cx="50" cy="79" r="14" fill="#43e04b" opacity="0.25"/>
    <rect x="46" y="94" width="8" height="10" fill="#555"/>`,
  "right-of-way": `
    <rect x="28" y="36" width="44" height="44" transform="rotate(45 50 58)" fill="#fff"/>
    <rect x="34" y="42" width="32" height="32" transform="rotate(45 50 58)" fill="#ffc107"/>
    <path d="M30 24 l6 -6 M50 17 v-6 M70 24 l-6 -6" stroke="#ffe082" stroke-width="3" stroke-linecap="round"/>`,
  "driving-ace": `
    <circle cx="50" cy="60" r="30" fill="none" stroke="#ffe082" stroke-width="7"/>
    <circle cx="50" cy="60" r="9" fill="#ffe082"/>
    <path d="M22 56 h19 M59 56 h19 M50 69 v20" stroke="#ffe082" stroke-width="6" stroke-linecap="round"/>
    <polygon points="50,16 53,25 62,25 55,30 58,39 50,34 42,39 45,30 38,25 47,25" fill="#fff"/>`,
};

function road(color) {
  return `
    <path d="M36 106 L47 56 h6 L64 106 z" fill="#50575e"/>
    <path d="M50 103 v-8 M50 89 v-7 M50 77 v-6 M50 66 v-4" stroke="#fff" stroke-width="1.6"/>
    <rect x="68" y="62" width="13" height="16" rx="2" fill="${color}"/>
    <rect x="73.3" y="78" width="2.4" height="16" fill="#777"/>
    <path d="M12 106 q12 -26 32 -50 M88 106 q-12 -26 -32 -50" fill="none" stroke="#9ccc65" stroke-width="3"/>`;
}

// Break a name into at most two lines of about `width` characters.
function lines(name, width) {
  if (name.length <= width) return [name];
  const words = name.split(" ");
  let best = [name];
  for (let i = 1; i < words.length; i++) {
    const a = words.slice(0, i).join(" "), b = words.slice(i).join(" ");
    if (best.length === 1 || Math.max(a.length, b.length) < Math.max(best[0].length, best[1].length)) best = [a, b];
  }
  return best;
}

// The SVG of one card (a face, or the back when id is null). A picture only: the card element around it
// carries the name a screen reader reads, so the drawing and its printed words are hidden from it.
export function cardSVG(id, lang = getLang()) {
  const root = svgEl("svg", { viewBox: "0 0 100 140", class: "card-svg", "aria-hidden": "true", focusable: "false" });
  if (!id) {
    root.append(svgEl("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, fill: "#fff", stroke: "#999" }));
    root.append(svgEl("rect", { x: 6, y: 6, width: 88, height: 128, rx: 6, fill: "#1e5aa8" }));
    const g = svgEl("g", {});
    g.innerHTML = `
      <rect x="11" y="11" width="78" height="118" rx="4" fill="none" stroke="#ffd54f" stroke-width="1.5"/>
      <path d="M26 120 L46 30 h8 L74 120 z" fill="#163f78"/>
      <path d="M50 116 v-10 M50 98 v-9 M50 82 v-8 M50 67 v-6 M50 55 v-5 M50 45 v-4" stroke="#ffd54f" stroke-width="2"/>
      <circle cx="50" cy="70" r="22" fill="#fff"/>
      <circle cx="50" cy="70" r="19" fill="#d32f2f"/>`;
    root.append(g);
    const t1 = svgEl("text", { x: 50, y: 68, "text-anchor": "middle", "font-size": 13, "font-weight": 800, fill: "#fff",
      "font-family": "Arial, Helvetica, sans-serif" });
    t1.textContent = "1000";
    const t2 = svgEl("text", { x: 50, y: 80, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: "#fff",
      "font-family": "Arial, Helvetica, sans-serif", "letter-spacing": 0.5 });
    t2.textContent = "BORNES";
    root.append(t1, t2);
    return root;
  }
  const card = CARDS[id] || { group: "distance", value: 0 };
  const f = FRAME[card.group] || FRAME.distance;
  root.append(svgEl("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, fill: "#fff", stroke: "#9e9e9e" }));
  root.append(svgEl("rect", { x: 5, y: 5, width: 90, height: 130, rx: 6, fill: f.fill, stroke: f.edge, "stroke-width": 4 }));
  const art = svgEl("g", {});
  if (card.group === "distance") {
    const tint = DISTANCE_TINT[id] || f.edge;
    art.innerHTML = road(tint);
    root.append(art);
    const num = svgEl("text", { x: 50, y: 48, "text-anchor": "middle", "font-size": id.length > 2 ? 30 : 34,
      "font-weight": 800, fill: tint, "font-family": "Arial, Helvetica, sans-serif" });
    num.textContent = id;
    root.append(num);
    for (const [x, anchor] of [[11, "start"], [89, "end"]]) {
      const corner = svgEl("text", { x, y: 19, "text-anchor": anchor, "font-size": 10, "font-weight": 700, fill: tint,
        "font-family": "Arial, Helvetica, sans-serif" });
      corner.textContent = id;
      root.append(corner);
    }
  } else {
    if (card.group === "safety") {
      root.append(svgEl("rect", { x: 9, y: 9, width: 82, height: 100, rx: 4, fill: "none", stroke: "#c9a227",
        "stroke-width": 1 }));
    }
    art.innerHTML = PICTOGRAMS[id] || "";
    root.append(art);
  }
  // the name, on a band at the bottom
  root.append(svgEl("rect", { x: 5, y: 108, width: 90, height: 27, fill: f.edge, rx: 0 }));
  root.append(svgEl("rect", { x: 5, y: 129, width: 90, height: 6, rx: 6, fill: f.edge }));
  const name = card.group === "distance" ? (lang === "fr" ? "bornes" : "miles") : cardName(id, lang);
  const rows = lines(name, 13);
  const size = rows.length === 1 ? (name.length > 11 ? 11 : 13) : 10.5;
  rows.forEach((row, i) => {
    const y = rows.length === 1 ? 126 : 119.5 + i * 11;
    const attrs = { x: 50, y, "text-anchor": "middle", "font-size": size, "font-weight": 700,
      fill: card.group === "safety" ? "#1f3a7a" : "#fff", "font-family": "Arial, Helvetica, sans-serif" };
    if (row.length * size * 0.56 > 86) Object.assign(attrs, { textLength: 86, lengthAdjust: "spacingAndGlyphs" });
    const text = svgEl("text", attrs);
    text.textContent = row;
    root.append(text);
  });
  return root;
}

// What a card is, in words: "Flat Tire, hazard".
export function cardLabel(id) {
  const group = CARDS[id]?.group || "distance";
  return t("a11y.card", { card: cardName(id), group: t(`a11y.group.${group}`) });
}

// A card element: <div class="card" data-card=ID> with its SVG, its name as tooltip and what it is as its
// accessible name (opts.label replaces it). A picture (role img) is named by aria-label; a control (opts.role,
// e.g. "button" in the hand) by visually hidden text, so that its name is made of what it shows (WCAG 2.5.3:
// someone who says "click 100 miles" to a speech-input tool is understood). A card back has no name of its
// own: the pile that shows it says what it is.
export function cardElement(id, opts = {}) {
  const lang = opts.lang || getLang();
  const label = opts.label ?? (id ? cardLabel(id) : null);
  const control = Boolean(label && opts.role);
  const node = el("div", {
    class: `card ${id ? `group-${CARDS[id]?.group || "distance"}` : "back"} ${opts.class || ""}`.trim(),
    title: id ? cardName(id, lang) : null,
    role: label ? opts.role || "img" : null,
    "aria-label": control ? null : label,
    "aria-hidden": label ? null : "true",
  });
  if (id) node.dataset.card = id;
  if (opts.index !== undefined) node.dataset.index = String(opts.index);
  node.append(cardSVG(id, lang));
  if (control) node.append(el("span", { class: "sr card-name" }, label));
  return node;
}

// An empty place for a card (its label is a help for the eye; what a place holds is said by its pile).
export function emptySlot(label, cls = "") {
  return el("div", { class: `card slot ${cls}`.trim(), "aria-hidden": "true" }, el("span", {}, label));
}
