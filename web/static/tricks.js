// pegpi phone page: the trick games (Oh Hell, Bourré, Briscola Chiamata), drawn from TricksView
// JSON. An ES module: it adds its box and its history words to the page through addFamily.
import { el } from "./helpers.js";
import { SUITS, addFamily, cardEl, change, fillCards, seatName, state } from "./pegpi.js";

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
  if (view.style === "tricks.briscola") {
    const wanted = briscolaControls(view, box);
    if (wanted) return wanted;
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

// Briscola Chiamata: the rank chosen for the call, kept while the view redraws
const briscolaPick = { rank: null, deal: null };

function pointsInput(low, cls) {
  const input = el("input", cls);
  input.type = "number"; input.min = String(low); input.max = "120"; input.value = String(low);
  input.inputMode = "numeric";
  return input;
}

function bidButton(label, primary, make) {
  const b = el("button", primary ? "primary" : null, label);
  b.type = "button";
  b.addEventListener("click", () => say(make()));
  return b;
}

// the basic game's auction: a rank above the bid so far (A is the lowest call, 2 the highest), then
// a two may raise the points; the other variants bid points only
function briscolaBid(view, box, turn) {
  box.appendChild(trickButton("Pass", { act: "pass", player: turn }));
  const hasBid = view.bidder !== null && view.bidder !== undefined;
  if (view.options && view.options.variant === "basic") {
    const said = hasBid ? String(view.bid || "").split(" ")[0] : null;
    const above = said === null ? -1 : BRISCOLA_RANKS.indexOf(said);
    BRISCOLA_RANKS.forEach((rank, i) => {
      if (i > above) box.appendChild(trickButton(rank, { act: "bid", player: turn, rank }));
    });
    const low = said === "2" ? (view.bid_points || 61) + 1 : 62;
    if (low <= 120) {
      const points = pointsInput(low, "bid-points");
      box.append(points, bidButton("2 for points", false,
        () => ({ act: "bid", player: turn, rank: "2", points: Number(points.value) })));
    }
    return;
  }
  const points = pointsInput(hasBid ? Math.min(120, (view.bid_points || 60) + 1) : 61, "bid-points");
  box.append(points, bidButton("Bid points", true, () => ({ act: "bid", player: turn, points: Number(points.value) })));
}

// the ranks the bidder may call: the bid's rank in the basic game (after a two, the lowest trump
// the bidder lacks may be called too), a two in Subito al Due and Prima Mano al Buio, else any
function callRanks(view) {
  const variant = view.options ? view.options.variant : "basic";
  if (variant === "subito" || variant === "buio") return ["2"];
  const said = String(view.bid || "").split(" ")[0];
  if (variant === "basic" && said !== "2" && BRISCOLA_RANKS.includes(said)) return [said];
  return BRISCOLA_RANKS;
}

function briscolaCall(view, box) {
  const bidder = view.bidder;
  const ranks = callRanks(view);
  const key = `${view.game_id}:${view.actions}`;
  if (briscolaPick.deal !== key || !ranks.includes(briscolaPick.rank)) {
    const bidRank = String(view.bid || "").split(" ")[0];
    briscolaPick.rank = ranks.length === 1 ? ranks[0] : ranks.includes(bidRank) ? bidRank : null;
    briscolaPick.deal = key;
  }
  const rankRow = el("div", "call-ranks");
  ranks.forEach((rank) => {
    const b = el("button", "rank", rank);
    b.type = "button";
    b.dataset.rank = rank;
    b.setAttribute("aria-pressed", String(briscolaPick.rank === rank));
    b.addEventListener("click", () => { briscolaPick.rank = rank; renderTricks(view); });
    rankRow.appendChild(b);
  });
  const suits = el("div", "call-suits");
  Object.entries(SUITS).forEach(([letter, symbol]) => {
    const b = el("button", "suit" + (letter === "H" || letter === "D" ? " red" : ""), symbol);
    b.type = "button";
    b.dataset.suit = letter;
    b.setAttribute("aria-label", { S: "spades", H: "hearts", D: "diamonds", C: "clubs" }[letter]);
    b.disabled = !briscolaPick.rank;
    b.addEventListener("click", () => say({ act: "call", player: bidder, card: briscolaPick.rank + letter }));
    suits.appendChild(b);
  });
  box.append(rankRow, suits);
}

function briscolaControls(view, box) {
  const turn = view.turn;
  const bidder = view.bidder;
  if (view.phase === "bid" && turn !== null) {
    briscolaBid(view, box, turn);
    return [`${seatName(view, turn)}: bid or pass`, box];
  }
  if (view.phase === "reopen") {
    (view.players || []).forEach((name, s) => box.appendChild(trickButton(`${name} reopens at 61`, { act: "reopen", player: s })));
    box.appendChild(trickButton("Deal again", { act: "redeal" }, true));
    return ["Everyone passed", box];
  }
  if (view.phase === "monte" && bidder !== null && bidder !== undefined) {
    const away = el("input", "monte-cards");
    away.type = "text";
    away.placeholder = "the 5 laid away, if known";
    away.autocapitalize = "characters";
    box.append(bidButton("Take the monte", true, () => {
      const cards = away.value.toUpperCase().split(/[\s,]+/).filter(Boolean);
      return cards.length ? { act: "monte", player: bidder, cards } : { act: "monte", player: bidder };
    }), away);
    return [`${seatName(view, bidder)} takes the monte`, box];
  }
  if (view.phase === "call" && bidder !== null && bidder !== undefined) {
    briscolaCall(view, box);
    return [`${seatName(view, bidder)} calls a card`, box];
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
