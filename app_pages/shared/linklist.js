// A list of linked entries, drawn as one element (app_pages/shared/linklist.py).
// Everything shown is set as text (textContent), never parsed as HTML: titles, snippets and
// rulings come from rules files and judges. A plain tap on a link asks the server to open the
// page inside the app (the trigger "go"); a tap with a modifier, a middle click or "open in a new
// tab" follow the link's own address, so every link can still be copied and shared.

function spans(parent, list) {
  for (const [text, bold] of list) {
    if (bold) {
      const strong = document.createElement("strong");
      strong.textContent = text;
      parent.appendChild(strong);
    } else {
      parent.appendChild(document.createTextNode(text));
    }
  }
}

function icon(name) {
  const el = document.createElement("span");
  el.className = "icon";
  el.setAttribute("aria-hidden", "true");
  el.dataset.icon = name; // drawn by the style sheet: neither the link's text nor its name

  return el;
}

function link(l, cls) {
  const a = document.createElement("a");
  a.className = cls;
  a.href = l.href;
  a.dataset.go = JSON.stringify(l.go);
  if (l.icon) a.appendChild(icon(l.icon));
  const label = document.createElement("span");
  spans(label, l.label);
  a.appendChild(label);
  return a;
}

function entry(e) {
  const box = document.createElement("div");
  box.className = "entry";
  if (e.head) box.appendChild(link(e.head, "head"));
  for (const p of e.paras) {
    const para = document.createElement("p");
    if (p.muted) para.className = "muted";
    if (p.icon) para.appendChild(icon(p.icon));
    const text = document.createElement("span");
    spans(text, p.spans);
    para.appendChild(text);
    box.appendChild(para);
  }
  if (e.links.length) {
    const row = document.createElement("div");
    row.className = "links";
    for (const l of e.links) row.appendChild(link(l, "chip"));
    box.appendChild(row);
  }
  return box;
}

export default function ({ parentElement, data: raw, setTriggerValue }) {
  let root = parentElement.querySelector(".linklist");
  if (!root) {
    root = document.createElement("div");
    root.className = "linklist";
    root.addEventListener("click", (event) => {
      const a = event.target.closest("a[data-go]");
      if (!a || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      root.go("go", JSON.parse(a.dataset.go));
    });
    parentElement.appendChild(root);
  }
  root.go = setTriggerValue;
  const drawn = textOf(raw); // a rerun that sends the same list redraws nothing
  if (root.drawn === drawn) return;
  root.drawn = drawn;
  const data = read(drawn);
  root.classList.toggle("compact", Boolean(data && data.compact));
  root.replaceChildren(...((data && data.entries) || []).map(entry));
}
