// pegpi phone page: the trick games (Oh Hell, Bourré, Briscola Chiamata), drawn from TricksView
// JSON. An ES module: it adds its box and its history words to the page through addFamily.
import { el } from "./helpers.js";
import { addFamily, cardEl, change, fillCards, seatName, state } from "./pegpi.js";

const BRISCOLA_RANKS = ["A", "3", "K", "Q", "J", "7", "6", "5", "4", "2"];

// what a trick game's record says, for the history
const TRICK_WORDS = {
  trump: (who, a) => [a.card ? "Trump turned up" : "No trumps", a.card ? [a.card] : []],
  ante: (who, a) => [a.player === undefined || a.player === null ? "Everyone antes" : `${who} antes`, []],
  pass: (who) => [`${who} passes`, []],
  draw: (who, a) => [a.count ? `${who} plays, draws ${a.count}` : `${who} plays, stands pat`, []],
  call: (who, a) => [`${who} calls`, [a.card]],
  accept: (who, a) => [`Revoke claim ${a.claim + 1} accepted`, []],
  dismiss: (who, a) => [`Revoke claim ${a.claim + 1} dismissed`, []],
  hand: (who) => [`${who} enters a hand`, []],
  reopen: (who) => [`${who} reopens at 61`, []],
  redeal: () => ["Thrown in: deal again", []],
  monte: (who) => [`${who} takes the monte`, []],
  end: () => ["The players stop", []],
};

function describeTrick(view, action) {
  const words = TRICK_WORDS[action.act];
  if (words) return words(seatName(view, action.player), action);
  if (action.act === "bid" && view.game === "ohhell") return [`${seatName(view, action.player)} bids ${action.tricks}`, []];
  if (action.act === "bid") {
    const said = action.rank ? `${action.rank}${action.points ? ` for ${action.points}` : ""}` : `${action.points}`;
    return [`${seatName(view, action.player)} bids ${said}`, []];
  }
  return null;
}

function trickBox() {
  let box = document.getElementById("tricks");
  if (!box) {
    box = el("div", "box tricks");
    box.id = "tricks";
    document.getElementById("score-table").after(box);
  }
  return box;
}

function say(action) { return change("/api/action", { action }); }

function trickButton(label, action, primary) {
  const b = el("button", primary ? "primary" : null, label);
  b.type = "button";
  b.addEventListener("click", () => say(action));
  return b;
}

function line(label, ...nodes) {
  const row = el("div", "trick-line");
  row.appendChild(el("span", "label", label));
  nodes.forEach((n) => row.appendChild(typeof n === "string" ? el("span", null, n) : n));
  return row;
}

function playedCards(view, cards, winner) {
  const box = el("div", "cards small");
  cards.forEach((tc) => {
    const item = el("div", "trick-card" + (tc.seat === winner ? " won" : ""));
    item.appendChild(cardEl(tc.card));
    item.appendChild(el("div", "muted", seatName(view, tc.seat)));
    box.appendChild(item);
  });
  return box;
}

// the buttons for what the camera cannot see, for the seat the table waits for
function trickButtons(view) {
  const box = el("div", "buttons trick-buttons");
  const turn = view.turn;
  if (view.game === "ohhell" && view.phase === "bid" && turn !== null) {
    const taken = (view.bids || []).reduce((sum, b) => sum + (b || 0), 0);
    for (let n = 0; n <= view.cards_this_deal; n += 1) {
      const b = trickButton(String(n), { act: "bid", player: turn, tricks: n });
      // the dealer's hook: the bids may not add up to the tricks of the deal
      if (turn === view.dealer && taken + n === view.cards_this_deal) { b.disabled = true; b.title = "the hook"; }
      box.appendChild(b);
    }
    return [`${seatName(view, turn)} bids`, box];
  }
  if (view.style === "tricks.bourre") {
    if (view.phase === "ante") {
      box.appendChild(trickButton("Everyone antes", { act: "ante" }, true));
      (view.owed_ante || []).forEach((s) => box.appendChild(trickButton(seatName(view, s), { act: "ante", player: s })));
      return ["Ante", box];
    }
    if (view.phase === "declare" && turn !== null) {
      box.appendChild(trickButton("Pass", { act: "pass", player: turn }));
      for (let n = 0; n <= 5; n += 1) box.appendChild(trickButton(`Play, draw ${n}`, { act: "draw", player: turn, count: n }, n === 0));
      return [`${seatName(view, turn)}: pass or play`, box];
    }
  }
  if (view.style === "tricks.briscola" && view.phase === "bid" && turn !== null) {
    box.appendChild(trickButton("Pass", { act: "pass", player: turn }));
    if (view.options && view.options.variant === "basic") {
      BRISCOLA_RANKS.forEach((r) => box.appendChild(trickButton(r, { act: "bid", player: turn, rank: r })));
    }
    const points = el("input");
    points.type = "number"; points.min = "61"; points.max = "120";
    points.value = String(Math.min(120, (view.bid_points || 60) + 1));
    const go = el("button", "primary", "Bid points");
    go.type = "button";
    go.addEventListener("click", () => {
      const action = { act: "bid", player: turn, points: Number(points.value) };
      if (view.options && view.options.variant === "basic") action.rank = "2";
      say(action);
    });
    box.append(points, go);
    return [`${seatName(view, turn)}: bid or pass`, box];
  }
  if (view.phase === "deal" && view.dealer === null) {
    (view.players || []).forEach((name, s) => box.appendChild(trickButton(name, { act: "deal", dealer: s })));
    return ["Who deals first?", box];
  }
  if (view.phase === "deal") {
    box.appendChild(trickButton("Deal", { act: "deal" }, true));
    return ["Next deal", box];
  }
  return null;
}

function renderTricks(view) {
  const box = trickBox();
  box.hidden = !view || !String(view.style || "").startsWith("tricks");
  if (box.hidden) return;
  box.replaceChildren();
  const trump = view.trump ? cardEl(view.trump) : el("span", "muted", view.trump_suit ? view.trump_suit : "none yet");
  box.appendChild(line(view.style === "tricks.briscola" ? "Called" : "Trumps", trump));
  if (view.trick_number) box.appendChild(line(`Trick ${view.trick_number}`, playedCards(view, view.trick || [], null)));
  if (view.last_trick && !(view.trick || []).length) {
    box.appendChild(line(`${seatName(view, view.last_trick.winner)} took`, playedCards(view, view.last_trick.cards, view.last_trick.winner)));
  }
  if (view.style === "tricks.bourre") {
    box.appendChild(line("Pot", `${view.pot} (worth ${view.stake} this deal)`));
    box.appendChild(line("Chips", (view.chips || []).map((c, s) => `${seatName(view, s)} ${c}`).join(" · ")));
  }
  if (view.style === "tricks.briscola") {
    if ((view.auction || []).length) {
      box.appendChild(line("Auction", view.auction.map((a) => `${seatName(view, a.seat)} ${a.said}`).join(" · ")));
    }
    if (view.bidder !== null && view.bidder !== undefined) {
      const partner = view.partner !== null && view.partner !== undefined ? `, partner ${seatName(view, view.partner)}` : "";
      box.appendChild(line("Bid", `${seatName(view, view.bidder)} ${view.bid}${partner}`));
    }
  }
  if (view.legal && view.legal.length) {
    const cards = el("div", "cards small");
    fillCards(cards, view.legal);
    box.appendChild(line("You may play", cards));
  }
  (view.claims || []).forEach((claim, index) => {
    const row = el("div", "claim " + claim.status);
    row.appendChild(el("p", null, `${claim.say} (${claim.status})`));
    if (claim.status === "open" && state.me.paired) {
      const buttons = el("div", "buttons");
      buttons.append(trickButton("Accept", { act: "accept", claim: index }, true),
        trickButton("Dismiss", { act: "dismiss", claim: index }));
      row.appendChild(buttons);
    }
    box.appendChild(row);
  });
  if (state.me.paired) {
    const wanted = trickButtons(view);
    if (wanted) box.appendChild(line(wanted[0], wanted[1]));
  }
}

addFamily({ render: renderTricks, describe: describeTrick });
