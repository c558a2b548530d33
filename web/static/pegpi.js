// pegpi phone page. Everything is drawn from the JSON views the device sends; no libraries, no CDN.
// An ES module: the game families' page parts (tricks.js) import what they use and add themselves
// with addFamily.
import { $, el, request, toast } from "./helpers.js";

const SVG = "http://www.w3.org/2000/svg";
export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SIDE_COLOURS = ["#ff6b5e", "#5eb7ff", "#ffd35e", "#9dff8a"];
// the fields each action of a game record takes, for the entry form
const ACTS = {
  play: { label: "Play a card", player: true, cards: 1 },
  go: { label: "Go", player: true },
  discard: { label: "Lay away to the crib", player: true, cards: "crib", optional: true },
  starter: { label: "Turn up the starter", cards: 1 },
  show: { label: "Show a hand", player: true, cards: "hand", optional: true },
  crib: { label: "Count the crib", cards: "cribsize", optional: true },
  deal: { label: "Deal", dealer: true },
  cut: { label: "Cut for deal", player: true, cards: 1 },
  bid: { label: "Bid", player: true, points: true },
  muggins: { label: "Muggins", player: true },
  other: { label: "Other (as in a game record)", raw: true },
};
// actions a game words otherwise: New Eleusis plays one card or a string of up to four, and shows
// the whole hand for "no play"
const GAME_ACTS = {
  eleusis: {
    play: { label: "Play 1 to 4 cards", player: true, cards: 4, upto: true },
    noplay: { label: "No play (show the hand)", player: true, cards: "held" },
  },
};
function actsFor(view) { return { ...ACTS, ...((view && GAME_ACTS[view.game]) || {}) }; }
// the word a game's bid is counted in (the engine's record vocabulary)
const BID_FIELD = { ohhell: "tricks" };
const PHASE_ACT = { cut: "cut", deal: "deal", discard: "discard", starter: "starter", play: "play", show: "show" };

export const state = { view: null, me: { paired: false, seat: null }, history: [], games: [], tab: "board",
  entry: { mode: "enter", index: null, act: "play", player: null, cards: [], rank: null, points: 0 },
  lastSeen: -1, cameraTimer: null, shows: [], teachClosed: null };

// the page parts of game families kept in modules of their own (tricks.js): render(view) draws
// the family's box, describe(view, action) words its actions for the history ([words, cards] or null)
const families = [];
export function addFamily(part) { families.push(part); }

// ------------------------------------------------------------------ talking to the device

export async function change(url, body) {
  try {
    const data = await request("POST", url, body ?? {});
    if (data.view) render(data.view);
    if (data.csrf) setMe(data);
    return data;
  } catch (err) {
    toast(err.message);
    return null;
  }
}

function connect() {
  const live = $("live");
  const source = new EventSource("/api/stream");
  source.addEventListener("open", () => { live.textContent = "live"; live.className = "live on"; });
  source.addEventListener("view", (e) => render(JSON.parse(e.data)));
  source.addEventListener("notice", (e) => toast(JSON.parse(e.data).message, true));
  source.addEventListener("error", () => {
    live.textContent = "reconnecting"; live.className = "live off";
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
  });
  state.source = source;
}

function reconnect() { if (state.source) state.source.close(); connect(); }

// ------------------------------------------------------------------ small drawing helpers

function svg(tag, attrs, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function splitCard(text) {
  const m = /^(10|[2-9AJQKT])([SHDC])$/.exec(text);
  if (!m) return null;
  return { rank: m[1] === "T" ? "10" : m[1], suit: m[2] };
}

export function cardEl(text, extra) {
  const parts = splitCard(String(text));
  const node = el("span", "card" + (extra ? " " + extra : ""));
  if (!parts) {
    node.textContent = text === "RJ" || text === "BJ" ? "🃏" : String(text);
    if (text === "RJ") node.classList.add("red");
  } else {
    node.textContent = parts.rank + SUITS[parts.suit];
    if (parts.suit === "H" || parts.suit === "D") node.classList.add("red");
  }
  node.title = String(text);
  node.dataset.card = String(text);
  return node;
}

export function fillCards(box, cards, extra) {
  box.replaceChildren(...(cards || []).map((c) => cardEl(c, extra)));
}

export function seatName(view, seat) {
  return seat !== null && seat !== undefined && view.players[seat] !== undefined ? view.players[seat] : "";
}

function sideOfSeat(view, seat) {
  return view.sides.findIndex((s) => s.seats.includes(seat));
}

// ------------------------------------------------------------------ the board

function renderMatLink(view) {
  const mat = `/api/mat/${encodeURIComponent(view.game)}/${view.players.length}`;
  if ($("this-mat").getAttribute("href") === `${mat}.pdf`) return;
  $("this-mat").href = `${mat}.pdf`;
  $("this-mat-img").src = `${mat}.png`;
}

function render(view) {
  if (!view || typeof view !== "object") return;
  state.view = view;
  renderMatLink(view);
  document.body.dataset.actions = view.actions;
  document.body.dataset.phase = view.phase;
  $("title").textContent = view.title || "pegpi";
  renderScores(view);
  const pegged = view.pegged !== false && view.target;
  $("pegboard").toggleAttribute("hidden", !pegged);  // an SVG element has no .hidden
  if (pegged) drawPegboard($("pegboard"), view);
  renderTable(view);
  families.forEach((part) => { if (part.render) part.render(view); });  // e.g. the trick games (tricks.js)
  $("prompt").textContent = (view.ask ? view.prompt : view.message || view.prompt) || "";
  $("fix-prompt").textContent = view.prompt || "";
  const counting = view.count !== null && view.count !== undefined;
  $("count").textContent = counting ? view.count : "–";
  $("count-box").hidden = !counting;
  $("count-box").parentElement.classList.toggle("single", !counting);
  const starterBox = $("starter").parentElement;
  starterBox.hidden = !view.starter && !pegged;  // games without a starter (Oh Hell) say nothing of it
  starterBox.parentElement.hidden = starterBox.hidden && !counting;
  fillCards($("pile"), view.pile);
  $("starter").replaceChildren(view.starter ? cardEl(view.starter) : el("span", "muted", "not turned"));
  const dealBits = [];
  if (view.deal) dealBits.push(`Deal ${view.deal}`);
  // the finished deal's crib, still on show, names its own dealer (the deal has passed on)
  const cribOwner = view.show && view.show.what === "crib" ? view.show.seat : view.dealer;
  if (cribOwner !== null && cribOwner !== undefined) dealBits.push(`${seatName(view, cribOwner)}'s crib`);
  $("deal").textContent = dealBits.join(" · ");
  renderBanner(view);
  renderShow(view);
  renderLast(view);
  renderRows(view);
  renderSquare(view);
  renderPileBox(view);
  renderRuleBox(view);
  renderSeen(view);
  renderHand(view);
  renderFixButtons(view);
  renderAsk(view);
  renderTeach(view);
  if (state.tab === "history" && view.actions !== state.lastSeen) loadHistory();
  if (state.entry.mode === "enter") syncEntry(false);
  state.lastSeen = view.actions;
}

// the table keeps misreading this deck, or asking about it: offer to teach it (the enrolment
// wizard); "not now" hides the offer on this phone until the table misreads another card or
// has asked about twice as many
function renderTeach(view) {
  const seen = state.teachClosed;
  const more = seen === null || seen.game !== view.game_id || view.misread > seen.misread
    || (seen.asked > 0 && view.asked >= 2 * seen.asked);
  $("teach").hidden = !view.teach || !more;
  if ($("teach").hidden) return;
  $("teach-text").textContent = (view.teach === "misread"
    ? `The table read ${view.misread} cards of this game as others: it may not know this deck yet`
    : `The table asked about ${view.asked} cards of this game: taught this deck, it may ask about far fewer`)
    + " (two minutes on the mat).";
}

function renderScores(view) {
  const box = $("scores");
  box.replaceChildren();
  const turnSide = view.turn !== null && view.turn !== undefined ? sideOfSeat(view, view.turn) : -1;
  const dealerSide = view.dealer !== null && view.dealer !== undefined ? sideOfSeat(view, view.dealer) : -1;
  const mySide = state.me.seat !== null ? sideOfSeat(view, state.me.seat) : -1;
  view.sides.forEach((side, i) => {
    const card = el("div", `side side-${i % 4}`);
    if (i === turnSide) card.classList.add("turn");
    if (view.winner === i) card.classList.add("won");
    card.dataset.side = i;
    const tags = el("div", "tags");
    if (i === dealerSide) tags.appendChild(el("span", "tag deal", "DEAL"));
    if (i === mySide) tags.appendChild(el("span", "tag you", "YOU"));
    card.appendChild(tags);
    card.appendChild(el("div", "name", side.name));
    const score = el("div", "score", side.score);
    const gain = side.score - side.rear;
    if (freshLast(view) && view.last.side === i && gain > 0) score.appendChild(el("span", "gain", `+${gain}`));
    card.appendChild(score);
    if (i === turnSide) card.appendChild(el("div", "muted", view.phase === "show" ? "to count" : "to play"));
    box.appendChild(card);
  });
}

// A cribbage board of three streets, each with one lane a side, running there and back like the
// wooden one: 0 (start) .. target-1 in the streets, the game hole at the end. Front peg solid,
// back peg faint, skunk lines across the streets.
function drawPegboard(node, view) {
  const target = view.target || 121;
  const sides = view.sides.length || 2;
  const per = Math.ceil((target - 1) / 3);
  const W = 360, left = 24, right = 336, laneGap = 12, streetPad = 9;
  const streetH = sides * laneGap + streetPad * 2 - laneGap + 10;
  const H = streetH * 3 + 8;
  const group = per >= 20 ? 5 : per;
  const groups = Math.ceil(per / group);
  const pitch = (right - left - (groups - 1) * 4) / Math.max(per - 1, 1);
  const xOf = (i) => left + i * pitch + Math.floor(i / group) * 4;
  node.setAttribute("viewBox", `0 0 ${W} ${H}`);
  node.replaceChildren();
  svg("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 12, fill: "#9c6b3c", stroke: "#5e3b1c", "stroke-width": 2 }, node);
  const laneY = (street, side) => 4 + street * streetH + streetPad + 5 + side * laneGap;
  const place = (pos, side) => {  // where hole number pos (1..target) is for a side
    if (pos >= target) return { x: W - 12, y: 4 + 2 * streetH + streetH / 2 };
    if (pos <= 0) return { x: 10, y: laneY(0, side) };
    const n = pos - 1;
    const street = Math.min(Math.floor(n / per), 2);
    const i = n - street * per;
    const x = street % 2 === 0 ? xOf(i) : xOf(per - 1 - i);
    return { x, y: laneY(street, side) };
  };
  for (let street = 0; street < 3; street++) {
    const y0 = 4 + street * streetH + 3;
    svg("rect", { x: left - 8, y: y0, width: right - left + 16, height: streetH - 6, rx: 8, fill: "#b8834f" }, node);
  }
  const holes = svg("g", { fill: "#3a2413" }, node);
  for (let side = 0; side < sides; side++) {
    for (let pos = 1; pos < target; pos++) {
      const p = place(pos, side);
      svg("circle", { cx: p.x.toFixed(1), cy: p.y, r: 1.7 }, holes);
    }
    const s = place(0, side);
    svg("circle", { cx: s.x, cy: s.y, r: 2.2 }, holes);
  }
  const game = place(target, 0);
  svg("circle", { cx: game.x, cy: game.y, r: 4, fill: "#3a2413" }, node);
  const label = { "font-size": 12, "font-weight": 700, fill: "#1a0f05", stroke: "#f3e2c4", "stroke-width": 2.5,
    "paint-order": "stroke", class: "board-label" };  // large, with a light halo: read on a phone
  const gameLabel = svg("text", { ...label, x: game.x - 4, y: game.y - 8, "text-anchor": "middle" }, node);
  gameLabel.textContent = target;
  for (const line of view.skunk_lines || []) {
    if (!(line.at > 1 && line.at < target)) continue;
    const a = place(line.at - 1, 0), b = place(line.at, 0);
    const x = (a.x + b.x) / 2;
    const y = a.y - 7;
    svg("line", { x1: x, y1: y, x2: x, y2: y + sides * laneGap + 4, stroke: "#7a0f14", "stroke-width": 1.4 }, node);
    const t = svg("text", { ...label, x, y: y - 1, "text-anchor": "middle", fill: "#7a0f14" }, node);
    t.textContent = line.label === "skunk" ? "S" : line.label === "double skunk" ? "SS" : line.label;
  }
  for (let street = 1; street < 3; street++) {  // where each street starts (the first starts at 0)
    const start = svg("text", { ...label, x: street % 2 === 0 ? left - 11 : right + 11,
      y: laneY(street, 0) + (sides - 1) * laneGap / 2 + 4, "text-anchor": "middle" }, node);
    start.textContent = street * per + 1;
  }
  view.sides.forEach((side, i) => {
    const colour = SIDE_COLOURS[i % SIDE_COLOURS.length];
    const rear = place(Math.min(side.rear, target), i);
    const front = place(Math.min(side.score, target), i);
    const pegs = svg("g", { "data-side": i }, node);
    if (side.rear !== side.score || side.score === 0) {
      svg("circle", { cx: rear.x, cy: rear.y, r: 4.2, fill: colour, "fill-opacity": 0.5, stroke: "#1b1b1b", "stroke-width": 0.8 }, pegs);
    }
    svg("circle", { cx: front.x, cy: front.y + (side.score >= target ? (i - (sides - 1) / 2) * 8 : 0), r: 5.4,
      fill: colour, stroke: "#111", "stroke-width": 1.2, class: "peg-front" }, pegs);
  });
  node.setAttribute("aria-label", view.sides.map((s) => `${s.name} ${s.score}`).join(", ") + ` of ${target}`);
}

function renderTable(view) {
  const box = $("score-table");
  const table = view.table;
  box.hidden = !table;
  if (!table) return;
  const t = el("table");
  const head = el("tr");
  (table.columns || []).forEach((c) => head.appendChild(el("th", null, c)));
  t.appendChild(el("thead")).appendChild(head);
  const body = t.appendChild(el("tbody"));
  (table.rows || []).forEach((row) => {
    const tr = body.appendChild(el("tr"));
    row.forEach((c) => tr.appendChild(el("td", null, c)));
  });
  if (table.totals) {
    const tr = t.appendChild(el("tfoot")).appendChild(el("tr"));
    table.totals.forEach((c) => tr.appendChild(el("td", null, c)));
  }
  box.replaceChildren(t);
}

function renderBanner(view) {
  const banner = $("banner");
  const over = view.phase === "over" && view.winner !== null && view.winner !== undefined;
  banner.hidden = !over;
  if (over) {
    const name = view.sides[view.winner] ? view.sides[view.winner].name : "";
    banner.textContent = `${name} won` + (view.result && view.result !== "win" ? ` — ${view.result}!` : "!");
  }
}

// The last score, unless it was pegged in an earlier deal (a new deal starts with a clean slate).
function freshLast(view) {
  return view.last && view.last.this_deal !== false ? view.last : null;
}

// "his heels 2" or "go for 1" already say what they are; "fifteen 2" is said "in the play".
function lastWords(last) {
  const kind = kindWord(last.kind);
  return kind && !String(last.say).toLowerCase().includes(kind) ? `${kind}: ${last.say}` : last.say;
}

function renderLast(view) {
  const box = $("last");
  const last = freshLast(view);
  const kept = state.shows.length ? state.shows[state.shows.length - 1].show : null;
  const shown = kept && last && (last.kind === "hand" || last.kind === "crib") && last.seat === kept.seat;
  box.hidden = !last || shown;  // the show box below says it item by item
  if (box.hidden) return;
  const who = last.side !== null && view.sides[last.side] ? view.sides[last.side].name : "";
  box.replaceChildren(el("div", "label", "Last score"));
  const line = el("div");
  line.appendChild(el("b", null, `${who} +${last.points}`));
  line.appendChild(document.createTextNode(` ${lastWords(last)}`));
  box.appendChild(line);
}

function kindWord(kind) {
  return { play: "in the play", last: "", hand: "hand", crib: "crib", heels: "his heels",
    muggins: "muggins", start: "to start" }[kind] ?? kind;
}

// Every count of a deal stays on the page until the next card is on the table (the starter or
// a card played): the newest in full, the deal's earlier ones a line each.
function keptShows(view) {
  if (view.show) {
    const key = `${view.deal}:${view.show.seat}:${view.show.what}`;
    const at = state.shows.findIndex((s) => s.key === key);
    if (at >= 0) state.shows = state.shows.slice(0, at);  // the same count again, or an undo back to it
    else if (state.shows.length && state.shows[0].deal !== view.deal) state.shows = [];
    state.shows.push({ key, deal: view.deal, show: view.show });
  } else if (view.starter || (view.pile || []).length || (view.rows || []).some((r) => r && r.length)
             || view.phase === "cut") {
    state.shows = [];
  }
  return state.shows.map((s) => s.show);
}

function renderShow(view) {
  const box = $("show");
  const shows = keptShows(view);
  const show = shows.length ? shows[shows.length - 1] : null;
  const before = $("shows-before");
  before.hidden = shows.length < 2;
  before.replaceChildren(...shows.slice(0, -1).reverse().map((s) => {
    const line = el("div", "line");
    line.appendChild(el("b", null, `${seatName(view, s.seat)}'s ${s.what} ${s.total}`));
    const cards = el("span", "cards small");
    fillCards(cards, s.cards);
    line.appendChild(cards);
    return line;
  }));
  box.hidden = !show;
  if (!show) return;
  const whose = seatName(view, show.seat);
  box.replaceChildren(el("div", "label", show.what === "crib" ? `${whose}'s crib` : `${whose}'s hand`));
  const cards = el("div", "cards");
  fillCards(cards, show.cards);
  if (show.starter) {
    cards.appendChild(el("span", "muted", "+"));
    cards.appendChild(cardEl(show.starter, "new"));
  }
  box.appendChild(cards);
  const list = el("ol");
  (show.items || []).forEach((item) => {
    const li = el("li");
    li.appendChild(el("span", "pts", item.say));
    if (item.cards && item.cards.length) li.appendChild(el("span", "muted", "  " + item.cards.map(pretty).join(" ")));
    list.appendChild(li);
  });
  if (!(show.items || []).length) list.appendChild(el("li", null, "nineteen — nothing"));
  box.appendChild(list);
  box.appendChild(el("div", "total", `${show.total} for the ${show.what}`));
}

function pretty(card) {
  const p = splitCard(String(card));
  return p ? p.rank + SUITS[p.suit] : String(card);
}

// Revised Cribbage: one shuffle serves several deals; the cards already faced are out until the next
function renderSeen(view) {
  const box = $("seen");
  const seen = view.seen_since_shuffle || [];
  const per = view.deals_per_shuffle || 1;
  box.hidden = per < 2 && !seen.length;
  if (box.hidden) return;
  const deal = view.deal_in_shuffle ? `deal ${view.deal_in_shuffle} of ${per}` : `${per} deals a shuffle`;
  box.replaceChildren(el("div", "label", `Gone since the shuffle (${deal}): ${seen.length} cards`));
  const cards = el("div", "cards small");
  fillCards(cards, seen);
  box.appendChild(cards);
}

function renderRows(view) {
  const box = $("rows");
  const rows = view.rows || [];
  const any = rows.some((r) => r && r.length);
  box.hidden = !any || view.phase === "show" || view.phase === "over";
  if (box.hidden) return;
  box.replaceChildren(el("div", "label", "Played this deal"));
  rows.forEach((row, seat) => {
    box.appendChild(el("div", "who", view.players[seat]));
    const cards = el("div", "cards small");
    fillCards(cards, row);
    box.appendChild(cards);
  });
}

// a layout game's square (Cribbage Patience): the grid as laid, then each line's count
function renderSquare(view) {
  const box = $("square");
  const grid = view.grid;
  box.hidden = !Array.isArray(grid);
  if (box.hidden) return;
  box.replaceChildren(el("div", "label", "The square"));
  const square = el("div", "grid");
  grid.forEach((row) => row.forEach((card) => {
    square.appendChild(card ? cardEl(card) : el("span", "card empty", "·"));
  }));
  box.appendChild(square);
  (view.lines || []).forEach((line) => {
    const li = el("div", "line");
    li.appendChild(el("b", null, `${line.line}: ${line.total}`));
    const said = (line.items || []).map((item) => item.say).join(", ");
    li.appendChild(el("span", "muted", said ? "  " + said : "  nineteen"));
    box.appendChild(li);
  });
}

// ------------------------------------------------------------------ pile games

// The stacks (cards left per seat), what can be slapped, and the buttons for what the camera
// cannot see: a slap (Ratscrew), "no play", a prophet and their call (New Eleusis).
function renderPileBox(view) {
  const box = $("pile-box");
  box.hidden = !Array.isArray(view.stacks) || !view.stacks.length;
  if (box.hidden) return;
  const eleusis = view.style === "pile.eleusis";
  const parts = [el("div", "label", eleusis ? "Cards in hand" : "Stacks")];
  const sizes = el("div", "stacks");
  view.stacks.forEach((size, seat) => {
    const out = (view.out || []).includes(seat);
    const cell = el("span", "stack" + (seat === view.turn ? " turn" : "") + (out ? " out" : ""));
    cell.dataset.seat = seat;
    const tag = seat === view.god ? " (God)" : seat === view.prophet ? " (prophet)" : "";
    cell.append(el("span", "who", view.players[seat] + tag), el("b", null, eleusis && seat === view.god ? "–" : String(size)));
    sizes.appendChild(cell);
  });
  parts.push(sizes);
  if (view.owed) parts.push(el("p", "muted", `${seatName(view, view.owing)} owes ${view.owed} for ${seatName(view, view.payee)}'s card`));
  if (view.style === "pile.ratscrew") parts.push(...slapParts(view));
  if (eleusis) parts.push(...eleusisParts(view));
  box.replaceChildren(...parts);
}

function actionButton(label, action, cls) {
  const b = el("button", cls || null, label);
  b.type = "button";
  b.addEventListener("click", () => change("/api/action", { action }));
  return b;
}

function slapParts(view) {
  const out = [];
  if (view.slappable) out.push(el("div", "slappable", `Slap! ${view.slappable}`));
  if (view.ruling) out.push(el("p", "ruling", view.ruling.say));
  if (view.phase === "over" || !view.pile.length) return out;
  const mine = state.me.paired && state.me.seat !== null;
  const seats = mine ? [state.me.seat] : view.players.map((_, seat) => seat);
  const row = el("div", "slaps");
  seats.forEach((seat) => row.appendChild(actionButton(mine ? "Slap" : `${view.players[seat]} slaps`,
    { act: "slap", player: seat }, "slap")));
  out.push(row);
  return out;
}

function eleusisParts(view) {
  const out = [];
  if (view.line && view.line.length) {
    const line = el("div", "line");
    view.line.forEach((place) => {
      const col = el("div", "line-col");
      col.appendChild(cardEl(place.card));
      place.under.forEach((c) => col.appendChild(cardEl(c, "wrong")));
      line.appendChild(col);
    });
    out.push(line);
  }
  const marks = [];
  if (view.white_markers && view.white_markers.length) marks.push(`${view.white_markers.length} white`);
  if (view.black_markers && view.black_markers.length) marks.push(`${view.black_markers.length} black`);
  if (marks.length) out.push(el("p", "muted", `Markers: ${marks.join(", ")}${view.sudden_death ? " · sudden death" : ""}`));
  if (view.ruling) out.push(el("p", "ruling", view.ruling.say));
  if (view.revealed && view.phase !== "play") out.push(el("p", "revealed", `The rule was: ${view.revealed.words}`));
  const row = el("div", "slaps");
  // only the player who has just played may declare themself prophet
  if (view.phase === "play" && view.ruling && view.ruling.player !== undefined && view.ruling.player !== null
      && view.prophet === null) {
    row.appendChild(actionButton(`${seatName(view, view.ruling.player)} is prophet`, { act: "prophet", player: view.ruling.player }));
  }
  if (view.phase === "call" && view.prophet !== null) {
    row.appendChild(actionButton("Prophet: right", { act: "call", player: view.prophet, right: true }));
    row.appendChild(actionButton("Prophet: wrong", { act: "call", player: view.prophet, right: false }));
  }
  if (row.children.length) out.push(row);
  return out;
}

// God's rule builder: conditions on the card played and the one or two before it, combined with
// and / or / if-then, each one may be negated; or a rule from the library. Only God's view has
// a library (while the rule is chosen), so nobody else ever sees this box.
const RULE_PROPS = ["red", "black", "odd", "even", "royal", "spade", "heart", "diamond", "club"];
const RULE_CARDS = ["the card played", "the last card", "the card before"];
const RULE_VALUE_OPS = ["=", "!=", "<", ">", "<=", ">="];
const RULE_COMPARE_OPS = { value: ["=", "!=", "<", ">", "<=", ">=", "+1", "-1"], suit: ["=", "!="], colour: ["=", "!="], parity: ["=", "!="] };
const OP_WORDS = { "=": "equal to", "!=": "not equal to", "<": "lower than", ">": "higher than", "<=": "at most",
  ">=": "at least", "+1": "one more than", "-1": "one less than" };
const ruleDraft = { join: "and", rows: [{ kind: "compare", not: false, attr: "colour", op: "!=", a: 0, b: 1, is: "red", card: 0, than: 7 }] };

function select(options, value, onChange) {
  const s = el("select");
  options.forEach(([v, label]) => { const o = el("option", null, label); o.value = String(v); s.appendChild(o); });
  s.value = String(value);
  s.addEventListener("change", () => onChange(s.value));
  return s;
}

function ruleRowJson(row) {
  let part;
  if (row.kind === "is") part = { is: row.is, card: Number(row.card) };
  else if (row.kind === "value") part = { value: row.op, than: Number(row.than), card: Number(row.card) };
  else part = { compare: row.attr, op: row.op, a: Number(row.a), b: Number(row.b) };
  return row.not ? { not: part } : part;
}

function ruleJson() {
  const parts = ruleDraft.rows.map(ruleRowJson);
  if (parts.length === 1) return parts[0];
  if (ruleDraft.join === "if") {
    const then = parts.length === 2 ? parts[1] : { and: parts.slice(1) };
    return { if: parts[0], then };
  }
  return { [ruleDraft.join]: parts };
}

function ruleRowEditor(view, row, index) {
  const box = el("div", "rule-row");
  const redo = () => renderRuleBox(state.view);
  const cards = RULE_CARDS.map((label, i) => [i, label]);
  box.appendChild(select([[false, "it is so that"], [true, "not so that"]], row.not, (v) => { row.not = v === "true"; redo(); }));
  box.appendChild(select([["is", "a card is"], ["value", "a card's value"], ["compare", "two cards compare"]], row.kind, (v) => {
    row.kind = v;
    row.op = v === "value" ? "=" : v === "compare" ? "!=" : row.op;
    redo();
  }));
  if (row.kind === "is") {
    box.append(select(cards, row.card, (v) => { row.card = Number(v); redo(); }),
      select(RULE_PROPS.map((p) => [p, p]), row.is, (v) => { row.is = v; redo(); }));
  } else if (row.kind === "value") {
    const than = el("input");
    than.type = "number"; than.min = "1"; than.max = "13"; than.value = String(row.than);
    than.addEventListener("change", () => { row.than = Math.min(13, Math.max(1, Number(than.value) || 1)); redo(); });
    box.append(select(cards, row.card, (v) => { row.card = Number(v); redo(); }),
      select(RULE_VALUE_OPS.map((o) => [o, OP_WORDS[o]]), row.op, (v) => { row.op = v; redo(); }), than);
  } else {
    const ops = RULE_COMPARE_OPS[row.attr];
    if (!ops.includes(row.op)) row.op = ops[1];
    box.append(select(cards, row.a, (v) => { row.a = Number(v); redo(); }),
      select(Object.keys(RULE_COMPARE_OPS).map((a) => [a, a]), row.attr, (v) => { row.attr = v; redo(); }),
      select(ops.map((o) => [o, o === "=" ? "same as" : o === "!=" ? "not the same as" : OP_WORDS[o]]), row.op, (v) => { row.op = v; redo(); }),
      select(cards, row.b, (v) => { row.b = Number(v); redo(); }));
  }
  if (ruleDraft.rows.length > 1) {
    const drop = el("button", "drop", "✕");
    drop.type = "button";
    drop.setAttribute("aria-label", `remove condition ${index + 1}`);
    drop.addEventListener("click", () => { ruleDraft.rows.splice(index, 1); redo(); });
    box.appendChild(drop);
  }
  return box;
}

function renderRuleBox(view) {
  const box = $("rule-box");
  const library = view.library || [];
  box.hidden = !library.length || view.phase !== "rule";
  if (box.hidden) return;
  const god = view.god;
  const parts = [el("div", "label", "Your secret rule (only your phone shows it)")];
  const pick = select(library.map((r) => [r.name, `${"★".repeat(r.level || 1)} ${r.words}`]), library[0].name, () => {});
  const use = el("button", null, "Use this rule");
  use.type = "button";
  use.addEventListener("click", () => change("/api/action", { action: { act: "rule", player: god, rule: pick.value } }));
  parts.push(el("div", "label", "From the library, easy to hard"), pick, use);
  parts.push(el("div", "label", "Or build one"));
  parts.push(select([["and", "all of these"], ["or", "any of these"], ["if", "if the first, then the rest"]], ruleDraft.join,
    (v) => { ruleDraft.join = v; renderRuleBox(state.view); }));
  ruleDraft.rows.forEach((row, i) => parts.push(ruleRowEditor(view, row, i)));
  const add = el("button", null, "+ condition");
  add.type = "button";
  add.addEventListener("click", () => { ruleDraft.rows.push({ ...ruleDraft.rows[ruleDraft.rows.length - 1] }); renderRuleBox(state.view); });
  const send = el("button", "primary", "Use the rule built");
  send.type = "button";
  send.addEventListener("click", () => change("/api/action", { action: { act: "rule", player: god, rule: JSON.stringify(ruleJson()) } }));
  const buttons = el("div", "slaps");
  buttons.append(add, send);
  parts.push(buttons, el("pre", "rule-json", JSON.stringify(ruleJson())));
  box.replaceChildren(...parts);
}

function renderHand(view) {
  const box = $("hand");
  const hand = view.hand;
  box.hidden = !(hand && hand.length);
  if (box.hidden) return;
  box.replaceChildren(el("div", "label", `Your hand (${seatName(view, view.seat)})`));
  const cards = el("div", "cards");
  fillCards(cards, hand);
  box.appendChild(cards);
}

// ------------------------------------------------------------------ history

async function loadHistory() {
  try {
    const data = await request("GET", "/api/history");
    state.history = data.history;
    renderHistory();
  } catch (err) { toast(err.message); }
}

function describe(view, action) {
  for (const part of families) {  // a family's own actions (tricks.js)
    const said = part.describe ? part.describe(view, action) : null;
    if (said) return said;
  }
  const who = seatName(view, action.player);
  switch (action.act) {
    case "play": return [`${who} plays`, [action.card]];
    case "go": return [`${who}: go`, []];
    case "cut": return [`${who} cuts`, [action.card]];
    case "deal": return [`${seatName(view, action.dealer) || "the dealer"} deals`, []];
    case "discard": return [action.cards ? `${who} lays away` : `${who} lays away ${action.hidden ? "(hidden)" : ""}`, action.cards || []];
    case "starter": return ["Starter", [action.card]];
    case "show": return [`${who} shows`, action.cards || []];  // cards from the scores when absent
    case "crib": return ["The crib", action.cards || []];
    case "bid": return [`${who} bids ${action.points}`, []];
    case "muggins": return [`${who}: muggins!`, []];
    default: return [`${action.act} ${who}`.trim(), action.card ? [action.card] : action.cards || []];
  }
}

function renderHistory() {
  const box = $("history");
  const view = state.view;
  if (!view) return;
  box.replaceChildren();
  if (!state.history.length) { box.appendChild(el("p", "muted", "Nothing has happened yet.")); return; }
  let group = null;
  let deal = 0;
  const start = (title) => {  // the newest deal on top, each deal in the order it was played
    group = el("div", "deal-group");
    group.appendChild(el("h3", null, title));
    box.prepend(group);
  };
  start("Cut for deal");
  for (const entry of state.history) {
    const a = entry.action;
    if (a.act === "deal") { deal += 1; start(`Deal ${deal} · ${seatName(view, a.dealer) || "dealer"}'s crib`); }
    const row = el("div", "act");
    row.dataset.index = entry.index;
    row.appendChild(el("span", "n", `${entry.index + 1}`));
    const what = el("span", "what");
    const [words, described] = describe(view, a);
    let cards = described;
    if (a.act === "show" && !cards.length) {  // a show told without its cards: the counted ones
      const counted = (entry.scores || []).flatMap((s) => s.cards || []);
      cards = [...new Set(counted)];
    }
    what.appendChild(document.createTextNode(words + " "));
    cards.forEach((c) => what.appendChild(cardEl(c)));
    if (entry.source && entry.source !== "camera" && entry.source !== "replay") {
      what.appendChild(el("span", "src", ` · ${entry.source}`));
    }
    const actor = a.player !== undefined && a.player !== null ? sideOfSeat(view, a.player) : -1;
    const others = [];
    for (const s of entry.scores || []) {
      const name = view.sides[s.side] ? view.sides[s.side].name : "";
      const said = el("span", "say", `${name} +${s.points}: ${s.say}`);
      // a point another side pegs on this action (Bob's go after Ann's "go") is Bob's: own line
      if (actor >= 0 && s.side !== actor) others.push(said); else what.appendChild(said);
    }
    row.appendChild(what);
    if (state.me.paired) {
      const fix = el("button", "fix", "Fix");
      fix.type = "button";
      fix.setAttribute("aria-label", `fix action ${entry.index + 1}`);
      fix.addEventListener("click", () => startCorrection(entry));
      row.appendChild(fix);
    }
    group.appendChild(row);
    for (const said of others) {
      const line = el("div", "act pegs");
      line.appendChild(el("span", "n", ""));
      const words = el("span", "what");
      words.appendChild(said);
      line.appendChild(words);
      group.appendChild(line);
    }
  }
}

// ------------------------------------------------------------------ entering and correcting

function playersCount() { return state.view ? state.view.players.length : 2; }

function cardsWanted(spec, view, player) {
  if (!spec.cards) return 0;
  if (spec.cards === 1) return 1;
  if (typeof spec.cards === "number") return spec.cards;
  if (spec.cards === "held") return view && view.stacks ? view.stacks[player] || 0 : 0;
  const n = playersCount();
  if (spec.cards === "crib") return n === 2 ? 2 : 1;
  if (spec.cards === "cribsize") return view && view.crib_count ? view.crib_count : 4;
  if (spec.cards === "hand") return n === 2 ? 4 : 4;
  return 1;
}

function syncEntry(force) {
  const view = state.view;
  const entry = state.entry;
  if (!view) return;
  if (force || entry.mode === "enter") {
    const act = PHASE_ACT[view.phase] || entry.act;
    if (force || act !== entry.lastPhaseAct) {
      entry.act = act;
      entry.lastPhaseAct = act;
      entry.cards = [];
      entry.rank = null;
    }
    if (entry.act === "show" && entry.cards.length === 0 && view.turn !== null) {
      entry.cards = [...((view.rows || [])[view.turn] || [])];
    }
    const acts = actsFor(view);
    if (view.turn !== null && view.turn !== undefined && acts[entry.act] && acts[entry.act].player) entry.player = view.turn;
    if (entry.player === null || entry.player >= playersCount()) entry.player = 0;
  }
  renderEntry();
}

function renderEntry() {
  const view = state.view;
  const entry = state.entry;
  const acts = actsFor(view);
  const spec = acts[entry.act] || { label: entry.act };
  const actSel = $("entry-act");
  const names = Object.entries(acts).map(([k, v]) => `${k}:${v.label}`).join("|");
  if (actSel.dataset.acts !== names) {
    actSel.dataset.acts = names;
    actSel.replaceChildren(...Object.entries(acts).map(([k, v]) => { const o = el("option", null, v.label); o.value = k; return o; }));
  }
  actSel.value = entry.act;
  actSel.disabled = entry.mode === "correct";
  const correcting = entry.mode === "correct";
  const resolving = entry.mode === "resolve";
  $("entry-title").textContent = correcting ? `Correct action ${entry.index + 1}` : resolving ? "Which card is it?"
    : "Enter an action";
  $("entry-note").textContent = correcting
    ? "Change what was misread, then save. Everything after it is counted again."
    : resolving ? "Tap the card that is really there."
      : "For what the camera cannot see, or when there is no camera: tap the cards.";
  $("entry-cancel").hidden = !(correcting || resolving);
  $("entry-send").textContent = correcting ? "Save correction" : resolving ? "That's the card" : "Enter";
  actSel.parentElement.hidden = resolving;
  // who
  $("entry-player-field").hidden = resolving || !(spec.player || spec.dealer);
  const who = $("entry-player");
  who.replaceChildren(...(view ? view.players : []).map((name, seat) => {
    const b = el("button", null, name);
    b.type = "button";
    b.setAttribute("aria-pressed", String(entry.player === seat));
    b.addEventListener("click", () => { entry.player = seat; renderEntry(); });
    return b;
  }));
  $("entry-points-field").hidden = !spec.points;
  $("entry-points-label").textContent = (BID_FIELD[view && view.game] || "points") === "tricks" ? "Tricks" : "Points";
  $("entry-raw-field").hidden = !spec.raw;
  // cards
  const want = cardsWanted(spec, view, entry.player);
  $("entry-cards-field").hidden = !want;
  $("entry-cards-label").textContent = want === 1 ? "Card" : spec.upto ? `Cards (1 to ${want}, in order)` :
    `Cards (${want})` + (spec.optional ? " — leave empty if nobody saw them" : "");
  const picked = $("entry-cards");
  picked.replaceChildren(...entry.cards.map((c) => {
    const node = cardEl(c);
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", `remove ${c}`);
    node.addEventListener("click", () => { entry.cards = entry.cards.filter((x) => x !== c); renderEntry(); });
    return node;
  }));
  if (!entry.cards.length) picked.appendChild(el("span", "muted", want === 1 ? "tap the rank, then the suit" : "none yet"));
  renderPicker(want);
}

function renderPicker(want) {
  const entry = state.entry;
  const box = $("picker");
  box.replaceChildren();
  for (const rank of RANKS) {
    const b = el("button", "rank", rank);
    b.type = "button";
    b.dataset.rank = rank;
    b.setAttribute("aria-pressed", String(entry.rank === rank));
    b.addEventListener("click", () => { entry.rank = entry.rank === rank ? null : rank; renderPicker(want); });
    box.appendChild(b);
  }
  const suits = el("div", "suits");
  for (const [letter, symbol] of Object.entries(SUITS)) {
    const b = el("button", "suit" + (letter === "H" || letter === "D" ? " red" : ""), symbol);
    b.type = "button";
    b.dataset.suit = letter;
    b.setAttribute("aria-label", { S: "spades", H: "hearts", D: "diamonds", C: "clubs" }[letter]);
    b.disabled = !entry.rank;
    b.addEventListener("click", () => pickCard(entry.rank + letter, want));
    suits.appendChild(b);
  }
  box.appendChild(suits);
}

function pickCard(card, want) {
  const entry = state.entry;
  if (want === 1) entry.cards = [card];
  else if (!entry.cards.includes(card)) entry.cards = [...entry.cards, card].slice(-want);
  entry.rank = null;
  renderEntry();
}

function entryAction() {
  const entry = state.entry;
  const spec = actsFor(state.view)[entry.act] || {};
  const action = { act: entry.act };
  if (spec.player) action.player = entry.player;
  if (spec.dealer) action.dealer = entry.player;
  if (spec.raw) {
    let raw;
    try { raw = JSON.parse($("entry-raw").value); } catch (err) { throw new Error('Write the action as JSON, e.g. {"act": "go", "player": 0}.'); }
    if (!raw || typeof raw !== "object" || typeof raw.act !== "string") throw new Error('An action needs "act", e.g. {"act": "go", "player": 0}.');
    return raw;
  }
  if (spec.points) action[BID_FIELD[state.view && state.view.game] || "points"] = Number($("entry-points").value || 0);
  if (spec.cards === 1) {
    if (!entry.cards.length) throw new Error("Tap the card first: its rank, then its suit.");
    action.card = entry.cards[0];
  } else if (spec.upto) {
    if (!entry.cards.length) throw new Error("Tap the cards first, in the order they are played.");
    action.cards = entry.cards;
  } else if (spec.cards) {
    const want = cardsWanted(spec, state.view, entry.player);
    if (entry.cards.length && entry.cards.length !== want) throw new Error(`Tap all ${want} cards, or none.`);
    if (entry.cards.length) action.cards = entry.cards;
    else if (!spec.optional) throw new Error("Tap the cards first.");
  }
  return action;
}

async function sendEntry(event) {
  event.preventDefault();
  let action;
  try { action = entryAction(); } catch (err) { toast(err.message); return; }
  const entry = state.entry;
  if (entry.mode === "resolve") {
    const done = await change("/api/resolve", { card: action.card });
    if (done) endCorrection();
    return;
  }
  if (entry.mode === "correct") {
    const done = await change("/api/correct", { index: entry.index, action });
    if (done) { toast(`Action ${entry.index + 1} corrected.`, true); endCorrection(); loadHistory(); }
  } else {
    const done = await change("/api/action", { action });
    if (done) { entry.cards = []; entry.rank = null; syncEntry(false); }
  }
}

function startCorrection(entry) {
  const a = entry.action;
  const e = state.entry;
  e.mode = "correct";
  e.index = entry.index;
  e.act = a.act in actsFor(state.view) ? a.act : "other";
  $("entry-raw").value = JSON.stringify(a);
  e.player = a.player ?? a.dealer ?? 0;
  e.cards = a.card ? [a.card] : [...(a.cards || [])];
  e.rank = null;
  if (a.points !== undefined || a.tricks !== undefined) $("entry-points").value = a.points ?? a.tricks;
  showTab("fix");
  renderEntry();
  $("entry").scrollIntoView({ block: "start" });
}

function endCorrection() {
  state.entry.mode = "enter";
  syncEntry(true);
}

// The device asks about a card it is not sure of (or cannot read, or the rules refuse).
function renderAsk(view) {
  const ask = view.ask;
  $("ask").hidden = !ask;
  $("ask-link").hidden = !ask;
  if (!ask) {
    if (state.entry.mode === "resolve") endCorrection();
    return;
  }
  $("ask-text").textContent = ask.text;
  $("ask-link").textContent = `${ask.text} — tap to answer`;
  $("ask-ok").textContent = ask.kind === "confirm" ? "Yes, that's right" : "OK, ignore that card";
}

function startResolve() {
  const e = state.entry;
  e.mode = "resolve";
  e.act = "play";
  e.cards = [];
  e.rank = null;
  renderEntry();
  $("entry").scrollIntoView({ block: "start" });
}

function renderFixButtons(view) {
  const go = $("go");
  const turn = view.turn;
  go.disabled = !(view.phase === "play" && turn !== null && turn !== undefined);
  go.textContent = go.disabled ? "Go" : `Go for ${seatName(view, turn)}`;
  $("undo").disabled = !view.actions;
}

// ------------------------------------------------------------------ pairing and seats

function setMe(me) {
  state.me = { paired: !!me.paired, seat: me.seat ?? null };
  if (me.csrf) document.querySelector("meta[name=csrf-token]").content = me.csrf;
  const button = $("pair-open");
  button.textContent = me.paired ? (me.seat !== null && state.view ? seatName(state.view, me.seat) || "Paired" : "Paired") : "Pair";
  button.classList.toggle("paired", !!me.paired);
  $("fix-locked").hidden = !!me.paired;
  $("fix-open").hidden = !me.paired;
  $("seat-box").hidden = !me.paired;
  $("unpair").hidden = !me.paired;
  if (me.paired) loadAddress(); else $("invite").hidden = true;
  $("setup-start").disabled = !me.paired;
  renderSeats();
  if (state.view) render(state.view);  // what a paired phone may do (bids, slaps, God's rule) shows now
  if (state.tab === "history") renderHistory();
}

function seatButtons(box, selected, onPick) {
  const names = state.view ? state.view.players : [];
  const choices = [["Just watching", null], ...names.map((n, i) => [n, i])];
  box.replaceChildren(...choices.map(([label, seat]) => {
    const b = el("button", null, label);
    b.type = "button";
    b.dataset.seat = seat === null ? "" : seat;
    b.setAttribute("aria-pressed", String(selected === seat));
    b.addEventListener("click", () => onPick(seat));
    return b;
  }));
}

function renderSeats() {
  seatButtons($("seat-choice"), state.me.seat, async (seat) => {
    const me = await change("/api/seat", { seat });
    if (me) { setMe(me); reconnect(); }
  });
}

// The page's address as QR codes: for anyone in the Pair dialog, and with the pairing code in it
// for a paired phone (Setup), so that another phone scans it instead of typing.
async function loadAddress() {
  let address;
  try { address = await request("GET", "/api/address"); } catch (err) { return; }
  $("pair-address-qr").src = address.qr;
  $("pair-address-url").textContent = address.urls.join(" or ");
  $("pair-address").hidden = false;
  $("invite").hidden = !address.pair_qr;
  if (address.pair_qr) $("invite-qr").src = address.pair_qr;
}

function openPair(code) {
  if (state.me.paired) { showTab("setup"); return; }
  state.pairSeat = null;
  const pick = (seat) => { state.pairSeat = seat; seatButtons($("pair-seat"), seat, pick); };
  pick(null);
  $("pair-error").hidden = true;
  $("pair-code").value = typeof code === "string" ? code : "";
  loadAddress();
  $("pair-dialog").showModal();
  $("pair-code").focus();
}

// A link with the pairing code (#pair=CODE, from another phone's QR code) opens the Pair dialog
// filled in: the phone picks its seat and pairs.
function pairFromLink() {
  const match = /^#pair=([A-Za-z0-9]{1,12})$/.exec(location.hash);
  if (!match) return false;
  history.replaceState(null, "", "#board");
  showTab("board");
  openPair(match[1].toUpperCase());
  return true;
}

async function sendPair(event) {
  event.preventDefault();
  const code = $("pair-code").value.trim();
  const error = $("pair-error");
  try {
    const me = await request("POST", "/api/pair", { code, seat: state.pairSeat });
    $("pair-dialog").close();
    setMe(me);
    if (me.view) render(me.view);
    reconnect();
    toast("Paired: this phone can now fix the game.", true);
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
  }
}

async function loadMe() {
  try { setMe(await request("GET", "/api/me")); } catch (err) { toast(err.message); }
}

// ------------------------------------------------------------------ setup

async function loadGames() {
  try {
    state.games = (await request("GET", "/api/games")).games;
  } catch (err) { toast(err.message); return; }
  const sel = $("setup-game");
  sel.replaceChildren(...state.games.map((g) => { const o = el("option", null, g.title); o.value = g.name; return o; }));
  if (state.view) sel.value = state.view.game;
  renderSetup();
}

function renderSetup() {
  const game = state.games.find((g) => g.name === $("setup-game").value);
  if (!game) return;
  $("setup-summary").textContent = game.summary || "";
  const counts = game.players;
  if (!counts.includes(state.setupCount)) state.setupCount = counts[0];
  $("setup-count").replaceChildren(...counts.map((n) => {
    const b = el("button", null, String(n));
    b.type = "button";
    b.setAttribute("aria-pressed", String(n === state.setupCount));
    b.addEventListener("click", () => { state.setupCount = n; renderSetup(); });
    return b;
  }));
  const names = $("setup-names");
  const old = [...names.querySelectorAll("input")].map((i) => i.value);
  const current = state.view ? state.view.players : [];
  names.replaceChildren();
  for (let i = 0; i < state.setupCount; i++) {
    const label = el("label", "field", `Player ${i + 1}`);
    const input = el("input");
    input.maxLength = 24;
    input.value = old[i] ?? current[i] ?? `Player ${i + 1}`;
    input.autocomplete = "off";
    label.appendChild(input);
    names.appendChild(label);
  }
  const mat = `/api/mat/${encodeURIComponent(game.name)}/${state.setupCount}`;
  $("setup-mat-png").href = `${mat}.png`;
  $("setup-mat-pdf").href = `${mat}.pdf`;
  const options = $("setup-options");
  options.replaceChildren();
  for (const opt of game.options) {
    const label = el("label", "field");
    let input;
    if (opt.choices) {
      input = el("select");
      opt.choices.forEach((c) => { const o = el("option", null, String(c)); o.value = JSON.stringify(c); input.appendChild(o); });
      input.value = JSON.stringify(opt.default);
    } else if (typeof opt.default === "boolean") {
      input = el("input");
      input.type = "checkbox";
      input.checked = opt.default;
    } else {
      input = el("input");
      input.type = typeof opt.default === "number" ? "number" : "text";
      if (input.type === "number") input.inputMode = "numeric";
      if (opt.min != null) input.min = String(opt.min);
      if (opt.max != null) input.max = String(opt.max);
      input.value = opt.default;
    }
    input.dataset.option = opt.name;
    input.dataset.kind = opt.choices ? "choice" : typeof opt.default;
    if (input.type === "checkbox") { label.appendChild(input); label.appendChild(document.createTextNode(opt.help || opt.name)); }
    else { label.appendChild(document.createTextNode(opt.help || opt.name)); label.appendChild(input); }
    options.appendChild(label);
  }
}

async function startGame(event) {
  event.preventDefault();
  const game = $("setup-game").value;
  const players = [...$("setup-names").querySelectorAll("input")].map((i) => i.value.trim());
  const options = {};
  for (const input of $("setup-options").querySelectorAll("[data-option]")) {
    const kind = input.dataset.kind;
    options[input.dataset.option] = kind === "choice" ? JSON.parse(input.value) : kind === "boolean" ? input.checked
      : kind === "number" ? Number(input.value) : input.value;
  }
  if (!window.confirm("Start a new game? This one ends.")) return;
  const done = await change("/api/new", { game, players, options });
  if (!done) return;
  toast("New game started. Its mat is under Setup, This game.", true);
  await loadMe(); reconnect(); showTab("board");
}

// ------------------------------------------------------------------ camera

function refreshCamera() {
  const img = $("camera");
  const note = $("camera-note");
  fetch(`/camera.jpg?t=${Date.now()}`, { cache: "no-store" }).then(async (r) => {
    if (!r.ok) {
      const data = await r.json().catch(() => ({}));
      note.textContent = data.error || "No camera picture.";
      note.hidden = false;
      img.hidden = true;
      return;
    }
    const blob = await r.blob();
    if (img.src.startsWith("blob:")) URL.revokeObjectURL(img.src);
    img.src = URL.createObjectURL(blob);
    img.hidden = false;
    note.hidden = true;
  }).catch(() => { note.textContent = "The device cannot be reached."; note.hidden = false; });
}

// ------------------------------------------------------------------ tabs

function showTab(name) {
  if (!["board", "history", "fix", "setup", "camera"].includes(name)) name = "board";
  state.tab = name;
  for (const section of document.querySelectorAll(".tab")) section.hidden = section.id !== `tab-${name}`;
  for (const a of document.querySelectorAll(".tabs a")) {
    if (a.dataset.tab === name) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  }
  if (location.hash !== `#${name}`) history.replaceState(null, "", `#${name}`);
  clearInterval(state.cameraTimer);
  if (name === "camera") {
    refreshCamera();
    state.cameraTimer = setInterval(refreshCamera, Number(document.body.dataset.cameraRefresh) || 1500);
  }
  if (name === "history") loadHistory();
  if (name === "setup" && !state.games.length) loadGames();
  if (name === "fix" && state.entry.mode === "enter") syncEntry(false);
  window.scrollTo(0, 0);
}

// ------------------------------------------------------------------ start

document.addEventListener("DOMContentLoaded", () => {
  window.addEventListener("hashchange", () => { if (!pairFromLink()) showTab(location.hash.slice(1)); });
  $("pair-open").addEventListener("click", () => openPair());
  $("toast").addEventListener("click", () => { $("toast").hidden = true; });
  for (const b of document.querySelectorAll("[data-pair]")) b.addEventListener("click", () => openPair());
  $("pair-form").addEventListener("submit", sendPair);
  $("pair-cancel").addEventListener("click", () => $("pair-dialog").close());
  $("undo").addEventListener("click", () => change("/api/undo"));
  $("go").addEventListener("click", () => {
    const v = state.view;
    if (v && v.turn !== null) change("/api/action", { action: { act: "go", player: v.turn } });
  });
  $("entry").addEventListener("submit", sendEntry);
  $("entry-cancel").addEventListener("click", endCorrection);
  $("ask-ok").addEventListener("click", () => change("/api/confirm"));
  $("teach-close").addEventListener("click", () => {
    const v = state.view;
    if (v) { state.teachClosed = { game: v.game_id, misread: v.misread, asked: v.asked }; renderTeach(v); }
  });
  $("ask-other").addEventListener("click", startResolve);
  $("entry-act").addEventListener("change", (e) => {
    state.entry.act = e.target.value; state.entry.cards = []; state.entry.rank = null; renderEntry();
  });
  $("setup-game").addEventListener("change", renderSetup);
  $("setup").addEventListener("submit", startGame);
  $("unpair").addEventListener("click", async () => {
    const me = await change("/api/unpair");
    if (me) { setMe(me); reconnect(); }
  });
  const linked = location.hash.startsWith("#pair=");
  if (!linked) showTab(location.hash.slice(1) || "board");
  const viewed = request("GET", "/api/view").then(render).catch((err) => toast(err.message));
  Promise.all([viewed, loadMe()]).then(() => { if (linked) pairFromLink(); });
  connect();
});
