// The desk's field as one element (app_pages/desk/board.py, issue 24): the two halves' tiles, the
// cards outside the field, and, after a tap, the answer brought into view. Everything shown is set
// with textContent (card names are typed by judges): no HTML is built from data. Each tile is a
// <button> whose text is its accessible name; a tap (a click, Enter or Space) sends the tile's cell
// or the card's id as the "tap" trigger. The elements are built once and updated in place on every
// run, so a focused tile keeps its focus and a press held across a run still lands on its button.

const make = (tag, className, parent) => {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (parent) parent.appendChild(el);
  return el;
};

const setText = (el, text) => {
  const value = text || "";
  if (el.textContent !== value) el.textContent = value;
  el.hidden = value === "";
};

const setAttr = (el, name, value) => {
  if (value === null || value === undefined || value === "" || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== String(value)) {
    el.setAttribute(name, String(value));
  }
};

// A tile: the cell with the mark and its clause, the card's name, its state, the symbiote on it,
// each a line (a span) made only while it has text: an empty cell's tile holds its head alone
// (issue 24: an empty desk's thirty tiles were three hidden spans each).
const PARTS = ["head", "name", "facts", "sym"];

function tileButton() {
  const button = make("button", "desk-tile");
  button.type = "button";
  button.__parts = {};
  return button;
}

function setPart(button, part, text) {
  const parts = button.__parts;
  let span = parts[part];
  if (!text) {
    if (span) span.remove();
    delete parts[part];
    return;
  }
  if (!span) {
    span = parts[part] = make("span", `desk-tile-${part}`);
    const next = PARTS.slice(PARTS.indexOf(part) + 1).map((p) => parts[p]).find(Boolean);
    button.insertBefore(span, next || null);
  }
  if (span.textContent !== text) span.textContent = text;
}

// A tooltip shared by tiles that differ only by their cell comes as its number (board.py).
function tipOf(field, tile) {
  if (typeof tile.tip !== "number") return tile.tip || "";
  return ((field.tips || [])[tile.tip] || "").split("{cell}").join(tile.cell);
}

function updateTile(button, tile, field) {
  for (const part of PARTS) setPart(button, part, tile[part]);
  button.dataset.cell = tile.cell;
  setAttr(button, "data-owner", tile.owner);
  setAttr(button, "data-mark", tile.mark);
  setAttr(button, "data-selected", tile.selected ? "true" : "");
  setAttr(button, "title", tipOf(field, tile));
}

function updateHalf(section, half, field) {
  const caption = section.__caption;
  setText(caption, half.caption);
  setAttr(section.__grid, "aria-label", half.caption);
  const buttons = section.__buttons;
  while (buttons.length < half.tiles.length) buttons.push(section.__grid.appendChild(tileButton()));
  while (buttons.length > half.tiles.length) buttons.pop().remove();
  half.tiles.forEach((tile, i) => updateTile(buttons[i], tile, field));
}

function halfSection(root) {
  const section = make("div", "desk-half", root);
  section.__caption = make("div", "desk-caption", section);
  section.__grid = make("div", "desk-grid", section);
  section.__grid.setAttribute("role", "group");
  section.__buttons = [];
  return section;
}

// The cards outside the field: per player a heading, then per zone its name and count and a button
// per card. Every node is kept by what it shows (a card by its id) and reused, so a run that changes
// a card's text moves nothing and a focused button keeps its focus.
function updateZones(box, zones) {
  const keep = box.__nodes || new Map();
  const used = new Map();
  const nodes = [];
  const node = (key, tag, className, text) => {
    const el = keep.get(key) || make(tag, className);
    if (tag === "button") el.type = "button";
    setText(el, text);
    used.set(key, el);
    nodes.push(el);
    return el;
  };
  if (zones.empty) node("empty", "div", "desk-caption", zones.empty);
  for (const side of zones.sides || []) {
    node(`side ${side.player}`, "div", "desk-zone-head", side.title);
    if (side.empty) node(`empty ${side.player}`, "div", "desk-caption", side.empty);
    for (const zone of side.zones || []) {
      node(`zone ${side.player} ${zone.zone}`, "div", "desk-caption", zone.label);
      for (const card of zone.cards || []) {
        const button = node(`card ${card.id}`, "button", "desk-zone-card", card.text);
        button.dataset.card = card.id;
        setAttr(button, "data-selected", card.selected ? "true" : "");
      }
    }
  }
  box.__nodes = used;
  for (const [key, el] of keep) if (!used.has(key)) el.remove();
  // only a node out of its place moves (a new one, or one after a removed one: none of those is
  // the one being pressed)
  nodes.forEach((el, i) => {
    if (box.children[i] !== el) box.insertBefore(el, box.children[i] || null);
  });
}

// After a tap, the element that answers it (the verdict, the selected card, a message) is brought
// into view if the page left it outside (a phone shows the field, the answer is under it). The
// token changes with every answer, and it scrolls only for a token it has not scrolled for: a run
// that answers nothing new must not move the page, or a click the judge is making at that moment
// lands beside its button. Nor does it scroll while a finger or a mouse button is down: it waits
// until it is lifted. "nearest" scrolls as little as it can, and not at all when the answer is
// already on the screen; an answer taller than the screen shows its beginning.
// Each tile's story (its tooltip) in words under the field, for a screen without hover (a phone):
// folded, and its paragraphs made only while it is open.
function updateStories(box, field) {
  const tiles = (field.halves || []).flatMap((half) => half.tiles || []).filter((tile) => tile.tip !== undefined);
  box.hidden = tiles.length === 0;
  if (!box.open) {
    box.__text.replaceChildren();
    return;
  }
  const lines = tiles.map((tile) => tipOf(field, tile));
  const shown = [...box.__text.children].map((p) => p.textContent);
  if (shown.join("\n") === lines.join("\n")) return;
  box.__text.replaceChildren(...lines.map((line) => { const p = make("p"); p.textContent = line; return p; }));
}

function keepInView(token) {
  const w = window;
  if (!token || w.__deskKeptFor === token) return;
  w.__deskKeptFor = token;
  if (!w.__deskPressWatch) {
    w.__deskPressWatch = true;
    w.__deskPressed = false;
    w.addEventListener("pointerdown", () => { w.__deskPressed = true; }, true);
    const lifted = (e) => { if (e.type !== "blur" || e.target === w) w.__deskPressed = false; };
    for (const kind of ["pointerup", "pointercancel", "blur"]) w.addEventListener(kind, lifted, true);
  }
  let held = 0;
  const go = () => {
    if (w.__deskPressed && held < 5000) { held += 50; setTimeout(go, 50); return; }
    const el = document.querySelector(".st-key-desk_answer");
    if (!el) return;
    const box = el.getBoundingClientRect(), below = 72, room = window.innerHeight - below;
    if (box.height === 0) return;
    if (box.height <= room) {
      el.scrollIntoView({ block: "nearest" });
    } else if (box.top < below || box.top > below + room / 2) {
      el.scrollIntoView({ block: "start" });
    }
  };
  // once drawn, and again when the run is over (what it removes or adds may move the answer)
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(go, 60)));
  const app = document.querySelector('[data-testid="stApp"]');
  let waited = 0;
  const whenOver = () => {
    waited += 50;
    if (app && app.getAttribute("data-test-script-state") === "notRunning") {
      requestAnimationFrame(go);
    } else if (waited < 5000) {
      setTimeout(whenOver, 50);
    }
  };
  setTimeout(whenOver, 50);
}

export default function ({ parentElement, data, setTriggerValue }) {
  let root = parentElement.querySelector(":scope > .desk-field");
  if (!root) {
    root = make("div", "desk-field", parentElement);
    root.__halves = [halfSection(root), halfSection(root)];
    root.__stories = make("details", "desk-stories", root);
    make("summary", "", root.__stories).textContent = "Клетки подробно: что на них и что даст щелчок";
    root.__stories.__text = make("div", "", root.__stories);
    root.__stories.addEventListener("toggle", () => updateStories(root.__stories, root.__field || {}));
    root.__zones = make("div", "desk-zones", root);
    root.addEventListener("click", (e) => {
      const button = e.target.closest("button");
      if (!button || !root.contains(button)) return;
      if (button.dataset.cell) root.__send("tap", { cell: button.dataset.cell });
      else if (button.dataset.card) root.__send("tap", { card: button.dataset.card });
    });
  }
  root.__send = setTriggerValue;  // the latest run's
  const field = read(data);
  (field.halves || []).slice(0, 2).forEach((half, i) => updateHalf(root.__halves[i], half, field));
  root.__field = field;
  updateStories(root.__stories, field);
  updateZones(root.__zones, field.zones || {});
  keepInView(field.token);
}
