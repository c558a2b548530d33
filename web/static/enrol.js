// The enrolment page: name the deck, then batch after batch confirm or rename each card the
// camera reads on the outlines, and finish. It asks the device where things stand every second.
import { $, el, request, toast } from "./helpers.js";

const POLL_MS = 1000;
const page = { paired: false, status: null, edits: {}, busy: false, timer: null };

const TABLE_WORDS = {
  waiting: "Waiting for the camera…",
  learning: "Learning the empty mat: keep it clear a moment.",
  lost: "The camera cannot see the mat.",
  dark: "The camera sees nothing: is the light on?",
  held: "The mat's corners are covered.",
};

function show(status, paired) {
  page.status = status;
  page.paired = paired;
  $("enrol-locked").hidden = paired;
  $("enrol-start").hidden = !paired || status.active;
  $("enrol-run").hidden = !status.active;
  document.body.dataset.state = status.active ? "running" : "idle";
  if (status.last) {
    $("enrol-last").hidden = false;
    $("enrol-last").textContent = `“${status.last}” is saved: pegpi reads it from now on.`;
  }
  if (!status.active) return;
  $("enrol-deck").textContent = status.deck;
  const total = status.total;
  $("enrol-progress").textContent = total ? `${status.enrolled}/${total} cards enrolled` : `${status.enrolled} cards enrolled`;
  document.body.dataset.enrolled = String(status.enrolled);
  $("enrol-bar").max = total || Math.max(1, status.enrolled);
  $("enrol-bar").value = status.enrolled;
  $("enrol-table").textContent = status.covered ? "Something lies over the mat." :
    (TABLE_WORDS[status.table] || "Lay the cards on outlines 1 to 12; each appears below once read.");
  $("enrol-expected").textContent = status.expected.length ?
    `Lay these, in order: ${status.expected.map((n) => n === "back" ? "back (one card face down)" : n).join(", ")}` : "";
  const list = $("enrol-names");
  if (list.childElementCount !== status.names.length) {
    list.replaceChildren(...status.names.map((n) => { const o = el("option"); o.value = n; return o; }));
  }
  renderOutlines(status);
}

function renderOutlines(status) {
  const box = $("enrol-outlines");
  while (box.childElementCount < status.outlines.length) box.append(el("li"));
  status.outlines.forEach((o, i) => {
    const row = box.children[i];
    const key = `${o.state}:${o.look}`;
    if (row.dataset.key === key) return; // unchanged: keep what the player is typing
    row.dataset.key = key;
    row.dataset.outline = String(o.outline);
    row.className = `outline ${o.state}`;
    row.replaceChildren();
    if (o.state === "card" || o.state === "enrolled") {
      const img = el("img");
      img.src = `/api/enrol/crop/${o.outline}.jpg?look=${o.look}`;
      img.alt = `the card on outline ${o.outline}`;
      row.append(img);
    } else {
      row.append(el("div", "slot", String(o.outline)));
    }
    const side = el("div");
    const read = el("p", "read");
    side.append(read);
    if (o.state === "card") {
      const readWord = o.read === "unknown" ? "not read" : `read as ${o.read} (${Math.round(o.confidence * 100)} %)`;
      read.textContent = `Outline ${o.outline}: ${readWord}`;
      const input = el("input");
      input.type = "text";
      input.name = `outline-${o.outline}`;
      input.setAttribute("list", "enrol-names");
      input.setAttribute("aria-label", `name of the card on outline ${o.outline}`);
      input.autocomplete = "off";
      input.value = page.edits[key] ?? o.proposal ?? "";
      input.placeholder = "name this card";
      input.addEventListener("input", () => { page.edits[key] = input.value; });
      row.classList.toggle("differs", Boolean(o.proposal) && o.read !== o.proposal);
      side.append(input);
    } else if (o.state === "enrolled") {
      read.textContent = `Outline ${o.outline}: enrolled as ${o.name}. Take it away.`;
    } else if (o.state === "settling") {
      read.textContent = `Outline ${o.outline}: reading…`;
    } else {
      read.textContent = `Outline ${o.outline}: empty`;
    }
    row.append(side);
  });
  const waiting = status.outlines.filter((o) => o.state === "card").length;
  $("enrol-confirm").disabled = page.busy || waiting === 0;
  $("enrol-confirm").textContent = waiting ? `Enrol these ${waiting} cards` : "Enrol these cards";
  $("enrol-finish").disabled = page.busy || status.enrolled === 0;
}

async function refresh() {
  try {
    const data = await request("GET", "/api/enrol");
    show(data.enrolment, data.paired);
    $("enrol-unavailable").hidden = true;
  } catch (err) {
    if (err.status === 404) {
      $("enrol-unavailable").hidden = false;
      $("enrol-unavailable").textContent = err.message;
      $("enrol-locked").hidden = true;
      return;
    }
    toast(err.message);
  }
  clearTimeout(page.timer);
  page.timer = setTimeout(refresh, POLL_MS);
}

async function send(url, body, done) {
  page.busy = true;
  if (page.status && page.status.active) renderOutlines(page.status);
  try {
    const data = await request("POST", url, body);
    show(data.enrolment, data.paired);
    if (done) toast(done(data.enrolment), true, 2500);
  } catch (err) {
    toast(err.message);
  } finally {
    page.busy = false;
    if (page.status && page.status.active) renderOutlines(page.status);
  }
}

function names() {
  const out = {};
  for (const input of $("enrol-outlines").querySelectorAll("input[name^=outline-]")) {
    out[input.name.slice("outline-".length)] = input.value.trim();
  }
  return out;
}

document.addEventListener("DOMContentLoaded", () => {
  $("enrol-start").addEventListener("submit", (event) => {
    event.preventDefault();
    const body = { deck: $("enrol-name").value.trim(), cards: $("enrol-cards").value,
                   order: $("enrol-any").checked ? "any" : "given" };
    send("/api/enrol/start", body);
  });
  $("enrol-confirm").addEventListener("click", () => {
    const before = page.status ? page.status.enrolled : 0;
    send("/api/enrol/confirm", { names: names() },
         (s) => `${s.enrolled - before} cards enrolled: sweep them off and lay the next ones.`);
  });
  $("enrol-finish").addEventListener("click", () => {
    const s = page.status;
    if (s && s.total && s.enrolled < s.total &&
        !window.confirm(`Only ${s.enrolled} of ${s.total} cards are enrolled. Save the deck anyway?`)) return;
    send("/api/enrol/finish", {}, (st) => `“${st.last}” is saved: pegpi reads it from now on.`);
  });
  $("enrol-cancel").addEventListener("click", () => {
    if (window.confirm("Forget this deck's cards?")) send("/api/enrol/cancel", {});
  });
  refresh();
});
