// @ts-check
// Modal dialogs as a stack, the last opened on top. While one is open it holds the focus (its primary control),
// everything else on the page is inert but the given exceptions, and Tab stays inside; when it closes the focus
// goes back to where it was. Nothing here knows the page: where the focus is, whether it was lost and how to put
// it back are the page's callbacks.

// Whether a node can hold the focus.
export function shown(node) {
  return Boolean(node && node.isConnected && !node.closest("[hidden], [inert]") && (!node.checkVisibility || node.checkVisibility()));
}

export function firstFocusable(node, sel) {
  return (sel && node.querySelector(sel)) || node.querySelector("button:not([disabled]), [href], input:not([disabled]), select") || node;
}

// except: selectors of what stays usable under a dialog; remember(): where the focus is, in terms the page can
// restore; lost(): whether the focus has nowhere sensible left; giveBack(where): put it back.
/**
 * @param {{ except?: string[], remember?: () => unknown, lost?: () => boolean, giveBack?: (where: unknown) => void }} [options]
 */
export function dialogStack({ except = [], remember = () => null, lost = () => false, giveBack = () => {} } = {}) {
  let stack = []; // {node, back: where the focus was}
  let inert = new Set();

  const top = () => stack[stack.length - 1]?.node || null;

  // Inert every sibling of the top dialog and of its ancestors, except the exceptions and what holds them.
  function updateInert() {
    const dialog = top();
    const kept = dialog ? [dialog, ...except.flatMap((sel) => [...document.querySelectorAll(sel)])] : [];
    const next = new Set();
    const walk = (parent) => {
      for (const node of parent.children) {
        if (kept.includes(node)) continue;
        if (kept.some((k) => node.contains(k))) walk(node);
        else next.add(node);
      }
    };
    if (dialog) walk(document.body);
    for (const node of inert) if (!next.has(node)) node.inert = false;
    for (const node of next) node.inert = true;
    inert = next;
  }

  function set(node, open, focusSel) {
    if (open === !node.hidden && (!open || stack.some((d) => d.node === node))) return;
    if (open) {
      const back = remember();
      node.hidden = false;
      stack = stack.filter((d) => d.node !== node);
      stack.push({ node, back });
      updateInert();
      firstFocusable(node, focusSel).focus();
    } else {
      const had = node.contains(document.activeElement);
      node.hidden = true;
      const entry = stack.find((d) => d.node === node);
      stack = stack.filter((d) => d.node !== node);
      updateInert();
      if (had || lost()) giveBack(entry?.back);
    }
  }

  // A dialog the page's HTML opens from the start: on the stack, with no focus to give back.
  function adopt(node) {
    stack.push({ node, back: null });
    updateInert();
  }

  // With a dialog open the focus belongs in it: true if one is (the focus put back inside if it had left).
  function hold() {
    const dialog = top();
    if (!dialog) return false;
    if (!dialog.contains(document.activeElement)) firstFocusable(dialog).focus();
    return true;
  }

  function trapTab(e) {
    const dialog = top();
    if (!dialog) return;
    const items = [...dialog.querySelectorAll("button, [href], input, select, textarea, [tabindex]")]
      .filter((n) => !n.disabled && n.tabIndex >= 0 && shown(n));
    if (!items.length) { e.preventDefault(); return; }
    const i = items.indexOf(document.activeElement);
    const next = e.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : (i < 0 || i === items.length - 1 ? 0 : i + 1);
    e.preventDefault();
    items[next].focus();
  }
  document.addEventListener("keydown", (e) => { if (e.key === "Tab") trapTab(e); });

  return { set, open: (node, focusSel) => set(node, true, focusSel), close: (node) => set(node, false), adopt, top, hold };
}
