// @ts-check
// Safe element building, shared by every page. Nothing from the server or from a player is ever put into
// innerHTML: el() and text nodes use textContent, and a player's name stands in its own <bdi>.

// A player's own name: shown in a <bdi>, so that a name written right to left (or made to look so)
// cannot reorder the sentence around it. As a string it is just the name.
export class Name {
  constructor(text) { this.text = text; }
  toString() { return this.text; }
}

// Names joined with words between them ("Ann and Bob"), kept apart so that each name keeps its <bdi>.
export class Names {
  constructor(items) { this.items = items; }
  toString() { return this.items.map(String).join(""); }
}

// A value as nodes: a node as it is, a name in its <bdi>, anything else as text.
export function nodesOf(value) {
  if (value instanceof Node) return [value];
  if (value instanceof Name) return [el("bdi", {}, value.text)];
  if (value instanceof Names) return value.items.flatMap(nodesOf);
  if (Array.isArray(value)) return value.flatMap(nodesOf);
  return [String(value)];
}

// An SVG element with its attributes (the cards' pictures, the review's graph).
export function svgEl(tag, attrs = {}) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    if (child instanceof Name || child instanceof Names) node.append(...nodesOf(child));
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// The page's element for a selector: an element of the page's own HTML (its ids are there), so typed as one; the few
// callers that may find none test it (`$(sel)?.`). $$: every element that matches.
/**
 * @param {string} sel
 * @param {ParentNode} [root]
 * @returns {HTMLElement}
 */
export function $(sel, root = document) { return /** @type {HTMLElement} */ (root.querySelector(sel)); }
/**
 * $ for an element whose kind the page's HTML fixes (an input, a select, a dialog...): `$as("#nickname",
 * HTMLInputElement).value`. The kind only types it: nothing is checked at run time.
 * @template {Element} T
 * @param {string} sel
 * @param {{ new (): T, prototype: T }} kind
 * @param {ParentNode} [root]
 * @returns {T}
 */
export function $as(sel, kind, root = document) { return /** @type {T} */ (root.querySelector(sel)); }
/**
 * @param {string} sel
 * @param {ParentNode} [root]
 * @returns {HTMLElement[]}
 */
export function $$(sel, root = document) {
  return [.../** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(sel))];
}

// The element an event happened on: the page's events happen on its HTML elements (a handler that may get
// another target says so: `targetOf(e).closest?.(sel)`).
/**
 * @param {Event} e
 * @returns {HTMLElement}
 */
export function targetOf(e) { return /** @type {HTMLElement} */ (e.target); }

// The element that has the focus, if any (the page's are HTML elements).
/** @returns {HTMLElement | null} */
export function focusedElement() { return /** @type {HTMLElement | null} */ (document.activeElement); }
