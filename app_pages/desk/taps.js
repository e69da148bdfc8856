// Rows of buttons as one element (app_pages/desk/taps.py, issue 24): the desk's undo and redo,
// what a tap on an empty cell does, each action's targets, the turn's actions. Everything shown is
// set with textContent (card names are typed by judges): no HTML is built from data. Each button is
// a <button> whose text is its accessible name (an icon beside it is hidden from it); a press (a
// click, Enter or Space) sends the button's id as the "tap" trigger. Rows and buttons are kept by
// id and updated in place on every run, so a focused button keeps its focus, an open «почему»
// stays open, and a press held across a run still lands on its button.

const make = (tag, className) => {
  const el = document.createElement(tag);
  if (className) el.className = className;
  return el;
};

const setText = (el, text) => {
  const value = text || "";
  if (el.textContent !== value) el.textContent = value;
};

const setAttr = (el, name, value) => {
  if (value === null || value === undefined || value === "" || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== String(value)) {
    el.setAttribute(name, String(value));
  }
};

// `box`'s children become `specs` in order: a node kept from the last run for the same key is
// updated in place, a new one made, the rest removed; only a node out of its place moves.
function reconcile(box, specs, keyOf, create, update) {
  const kept = box.__kept || new Map();
  const used = new Map();
  const nodes = specs.map((spec) => {
    const key = keyOf(spec);
    const node = kept.get(key) || create(spec);
    update(node, spec);
    used.set(key, node);
    return node;
  });
  for (const [key, node] of kept) if (!used.has(key)) node.remove();
  box.__kept = used;
  nodes.forEach((node, i) => {
    if (box.children[i] !== node) box.insertBefore(node, box.children[i] || null);
  });
}

function makeButton() {
  const button = make("button", "desk-tap");
  button.type = "button";
  const icon = make("span", "desk-tap-icon");
  icon.setAttribute("aria-hidden", "true");
  button.append(icon, make("span", "desk-tap-text"));
  return button;
}

function updateButton(button, item) {
  const [icon, text] = button.children;
  setText(icon, item.icon);
  icon.hidden = !item.icon;
  setText(text, item.text);
  button.dataset.id = item.id;
  button.className = `desk-tap desk-tap-${item.kind || "plain"}`;
  button.disabled = !!item.disabled;
  setAttr(button, "title", item.tip);
  setAttr(button, "aria-pressed", item.pressed === undefined ? "" : item.pressed ? "true" : "false");
}

function makeRow() {
  const row = make("div", "desk-row");
  row.__label = make("div", "desk-row-label");
  row.__head = make("strong");
  row.__note = make("span", "desk-row-note");
  row.__label.append(row.__head, row.__note);
  row.__items = make("div", "desk-row-items");
  row.__items.setAttribute("role", "group");
  row.__why = make("details", "desk-row-why");
  row.__whySummary = make("summary");
  row.__whyText = make("div", "desk-row-why-text");
  row.__why.append(row.__whySummary, row.__whyText);
  row.append(row.__label, row.__items, row.__why);
  return row;
}

function updateRow(row, spec) {
  row.dataset.row = spec.id;
  row.classList.toggle("desk-row-inline", !!spec.inline);
  row.classList.toggle("desk-row-plain", !!spec.plain);
  row.classList.toggle("desk-row-tight", !!spec.tight);
  setText(row.__head, spec.label);
  setText(row.__note, spec.note);
  row.__label.hidden = !spec.label && !spec.note;
  setAttr(row.__items, "aria-label", spec.label);
  const items = spec.items || [];
  row.__items.hidden = items.length === 0;
  row.classList.toggle("desk-row-heading", items.length === 0);
  reconcile(row.__items, items, (item) => item.id, makeButton, updateButton);
  const why = spec.why || [];
  row.__why.hidden = why.length === 0;
  setText(row.__whySummary, spec.why_label || "почему");
  // a paragraph a line: what each target or action gives and why
  const lines = why.map((line, i) => ({ i, line }));
  reconcile(row.__whyText, lines, (w) => w.i, () => make("p"), (p, w) => setText(p, w.line));
}

// A folded part: its summary, and its rows while open. Opening or closing it sends the "tap"
// trigger {fold, open} (what is folded is drawn by the run that follows); setting it from the data
// sends nothing.
// Its summary as Streamlit draws an expander's: an icon (its own, or the arrow that says whether it
// is open), then the words.
function makeFold(spec) {
  const fold = make("details", "desk-fold");
  const summary = make("summary");
  fold.__icon = make("span", "desk-tap-icon");
  fold.__icon.setAttribute("aria-hidden", "true");
  fold.__label = make("span", "desk-fold-label");
  summary.append(fold.__icon, fold.__label);
  fold.__rows = make("div", "desk-fold-rows");
  fold.append(summary, fold.__rows);
  fold.addEventListener("toggle", () => {
    if (fold.open !== fold.__open) fold.closest(".desk-taps").__send("tap", { fold: fold.dataset.row, open: fold.open });
  });
  return fold;
}

function updateFold(fold, spec) {
  fold.dataset.row = spec.id;
  // named by its id as Streamlit names a keyed element (st-key-…): a part for authors is known so
  fold.className = `desk-fold desk-fold-${spec.id}`;
  setText(fold.__label, spec.fold);
  fold.__open = !!spec.open;
  setText(fold.__icon, spec.icon || (fold.__open ? "keyboard_arrow_down" : "keyboard_arrow_right"));
  if (fold.open !== fold.__open) fold.open = fold.__open;
  updateRows(fold.__rows, spec.rows || []);
}

function updateRows(box, rows) {
  reconcile(
    box,
    rows,
    (row) => (row.fold ? "fold " : "row ") + row.id,
    (row) => (row.fold ? makeFold(row) : makeRow()),
    (node, row) => (row.fold ? updateFold(node, row) : updateRow(node, row)),
  );
}

export default function ({ parentElement, data, setTriggerValue }) {
  let root = parentElement.querySelector(":scope > .desk-taps");
  if (!root) {
    root = make("div", "desk-taps");
    parentElement.appendChild(root);
    root.addEventListener("click", (e) => {
      const button = e.target.closest("button[data-id]");
      if (button && root.contains(button) && !button.disabled) root.__send("tap", button.dataset.id);
    });
  }
  root.__send = setTriggerValue;  // the latest run's
  updateRows(root, read(data).rows || []);
}
