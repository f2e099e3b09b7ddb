// The Pilotta board (PILOTTA.md, ids P…): the auction, the contract, the
// trick in the middle, the declarations, the belote, the tricks and points
// of each team, the score sheet in tens, and the hand. Everything is drawn
// from the protocol's `state` (one seat's view, g:view(seat), P50) in the
// words of the terminal's board (lua/games/pilotta/table.lua); the legal
// moves come from `state.moves` and go back as their text (api.send).
//
// createBoard(root, api) -> { update(state), event(ev), result(res),
//   describe(ev), destroy() }; api as web/js/boards/index.js says.
import { suitSymbol, suitName, cardText as plainCardText } from "../cards.js";

const TEAM_OF = [0, 1, 0, 1];
const FOUR_NAME = {
  J: "Jacks", 9: "Nines", A: "Aces", 10: "Tens", K: "Kings", Q: "Queens", 8: "Eights", 7: "Sevens",
};
const CARD_RE = /^(10|[789JQKA])([cdhs])(?: (belote|nobelote))?$/;
const BID_RE = /^(\d+)([cdhs])?$/;

// ---- small helpers -----------------------------------------------------------

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("data-") || k.startsWith("aria-") || k === "role" || k === "id" ||
      k === "type" || k === "title" || k === "tabindex" || k === "scope") e.setAttribute(k, String(v));
    else e[k] = v;
  }
  for (const k of kids.flat()) {
    if (k === undefined || k === null || k === false) continue;
    e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return e;
}

/** An object keyed by seat or team ("0", "1" on the wire) or a list, as a lookup. */
function at(obj, i) {
  if (!obj) return undefined;
  return obj[i] !== undefined ? obj[i] : obj[String(i)];
}

function list(x) {
  if (Array.isArray(x)) return x;
  if (!x || typeof x !== "object") return [];
  const out = [];
  for (let i = x[0] !== undefined ? 0 : 1; x[i] !== undefined; i++) out.push(x[i]);
  return out;
}

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : (many || one + "s")}`;
}

function rankOf(card) {
  const m = CARD_RE.exec(String(card || ""));
  return m ? m[1] : null;
}

/** A name for a narrow column: each word of more than 9 letters cut to its
 * first 7 and a full stop ("Konstantinos" -> "Konstan."); null when no word
 * is that long. */
export function shortName(name) {
  let cut = false;
  const out = String(name).split(" ").map((w) => {
    const letters = [...w];
    if (letters.length <= 9) return w;
    cut = true;
    return letters.slice(0, 7).join("") + ".";
  });
  return cut ? out.join(" ") : null;
}

/** "90h" -> "90♥", "capot s" -> "capot ♠", "trump h" -> "trump ♥"; other calls as they are. */
export function callText(text) {
  const t = String(text);
  let m = /^(\d+)([cdhs])$/.exec(t);
  if (m) return m[1] + suitSymbol(m[2]);
  m = /^([a-z]+) ([cdhs])$/.exec(t);
  if (m) return `${m[1]} ${suitSymbol(m[2])}`;
  return t;
}

/** "a run of 4 (50)", "four Nines (150)" (as the terminal says them). */
export function declWords(d) {
  if (d.kind === "four") {
    const r = d.rank || rankOf(list(d.cards)[0]);
    return `four ${FOUR_NAME[r] || r} (${d.value || 0})`;
  }
  const n = d.length || list(d.cards).length;
  return `a run of ${n} (${d.value || 0})`;
}

// ---- what the state says -----------------------------------------------------

/** The moves of a state sorted by kind: bids, capots, other calls, trumps,
 * cards, prompts. In the play a card-like text is a card ("8c"), else a bid
 * (notation.md 9.2). */
export function sortMoves(moves, phase) {
  const playing = phase === "play";
  const out = { bids: new Map(), capots: [], calls: [], trumps: [], cards: new Map(), prompts: [], other: [] };
  for (const m of moves || []) {
    const t = typeof m === "string" ? m : (m && m.text) || "";
    let x;
    if (!playing && (x = BID_RE.exec(t))) {
      const v = Number(x[1]);
      if (!out.bids.has(v)) out.bids.set(v, []);
      out.bids.get(v).push(t);
    } else if (/^capot(?: [cdhs])?$/.test(t)) out.capots.push(t);
    else if (t === "pass" || t === "contra" || t === "recontra") out.calls.push(t);
    else if (/^trumps? [cdhs]$/.test(t)) out.trumps.push(t);
    else if ((x = CARD_RE.exec(t))) {
      const card = x[1] + x[2];
      if (!out.cards.has(card)) out.cards.set(card, []);
      out.cards.get(card).push(t);
      if (x[3]) out.prompts.push(t);
    } else if (/^(announce|show)\b/.test(t)) out.prompts.push(t);
    else out.other.push(t);
  }
  return out;
}

/** Who wins a trick so far (P29): the seat, from the cards by seat, the trumps. */
const TRUMP_ORDER = { J: 8, 9: 7, A: 6, 10: 5, K: 4, Q: 3, 8: 2, 7: 1 };
const PLAIN_ORDER = { A: 8, 10: 7, K: 6, Q: 5, J: 4, 9: 3, 8: 2, 7: 1 };
export function trickWinner(played, trump) {
  let best = -1, seat = null;
  const led = played.length ? CARD_RE.exec(played[0].card)[2] : null;
  for (const p of played) {
    const m = CARD_RE.exec(p.card);
    if (!m) continue;
    let score = -1;
    if (m[2] === trump) score = 100 + TRUMP_ORDER[m[1]];
    else if (m[2] === led) score = PLAIN_ORDER[m[1]];
    if (score > best) { best = score; seat = p.seat; }
  }
  return seat;
}

// (a short tag of a text: the storage key of a room's sheet, without its token)
function hashOf(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16);
}

// ---- the board -----------------------------------------------------------------

export function createBoard(root, api) {
  const fourColour = () => (api.fourColour ? api.fourColour() : false);
  const card = (code, opts = {}) => api.cardElement(code, { fourColour: fourColour(), ...opts });
  const cardText = api.cardText || plainCardText;
  const me = api.spectator ? null : api.seat;
  const names = (api.welcome && api.welcome.names) || {};
  const nameOf = (seat) => {
    if (seat === null || seat === undefined) return "nobody";
    if (api.name) return api.name(seat);
    return at(names, seat) || `Seat ${seat}`;
  };
  const teamName = (team) => {
    if (api.sideName) return api.sideName(team);
    return `${nameOf(team)} & ${nameOf(team + 2)}`;
  };
  // A sentence with its rule ids as links to the rules reference (api.ruleLink).
  const linked = (text) => {
    const frag = document.createDocumentFragment();
    String(text).split(/\b(P\d+|PV-[A-Za-z0-9-]*[A-Za-z0-9]|PC\d+)\b/).forEach((part, i) => {
      if (i % 2 && api.ruleLink) frag.append(api.ruleLink(part));
      else frag.append(part);
    });
    return frag;
  };
  // Where each seat sits around the trick: the viewer at the bottom
  // (seat 0 for a spectator), play going anticlockwise (P2): the next seat
  // on the right, the partner at the top.
  const bottom = me === null || me === undefined ? 0 : me;
  const PLACE = ["bottom", "right", "top", "left"];
  const placeOf = (seat) => PLACE[(seat - bottom + 4) % 4];

  // The sheet: each finished round's breakdown, by round number, from the
  // welcome's history, the results, and the view's last round; kept in
  // sessionStorage for a reload (whose replayed frames may not hold them).
  const rounds = new Map();
  const storeKey = `diloti.pilotta.sheet.${hashOf(location.pathname + location.hash)}`;
  try {
    for (const [n, b] of JSON.parse(sessionStorage.getItem(storeKey) || "[]")) rounds.set(Number(n), b);
  } catch (e) { /* (a sheet that cannot be read is drawn anew) */ }
  for (const h of list(api.welcome && api.welcome.history)) {
    if (h && h.round_over && h.breakdown && typeof h.breakdown === "object") rounds.set(Number(h.round), h.breakdown);
  }
  function keep(n, b) {
    if (!b || typeof b !== "object" || !(n > 0) || rounds.has(n)) return;
    rounds.set(n, b);
    try { sessionStorage.setItem(storeKey, JSON.stringify([...rounds])); } catch (e) { /* (full: not kept) */ }
  }

  // The stylesheet of this board, next to the others (web/css/pilotta.css).
  let link = document.querySelector('link[data-board="pilotta"]');
  if (!link) {
    link = el("link", { rel: "stylesheet", "data-board": "pilotta" });
    link.href = new URL("../../css/pilotta.css", import.meta.url).href;
    document.head.append(link);
  }

  root.classList.add("board-pilotta");
  const head = el("section", { class: "pl-head", "aria-label": "Round" });
  const contract = el("p", { id: "contract", class: "pl-contract", "aria-live": "polite" });
  const auction = el("section", { id: "auction", class: "pl-auction", "aria-label": "The auction" });
  const trick = el("section", { id: "trick", class: "pl-trick", "aria-label": "The trick" });
  const teams = el("section", { id: "team-tricks", class: "pl-teams", "aria-label": "Tricks and points" });
  const decls = el("section", { id: "announcements", class: "pl-decls", "aria-label": "Declarations" });
  const lastTrick = el("div", { id: "last-trick", class: "pl-last", "aria-label": "The last trick" });
  const prompts = el("div", { id: "prompts", class: "pl-prompts", role: "group", "aria-label": "Declare" });
  const hand = el("section", { id: "hand", class: "pl-hand", "aria-label": "Your hand" });
  const need = el("p", { class: "pl-need" });
  const sheet = el("section", { id: "score-sheet", class: "pl-sheet", "aria-label": "The score sheet" });
  // (two columns on a desktop; on a phone one, in the order of pilotta.css)
  const main = el("div", { class: "pl-col pl-main" }, trick, lastTrick, prompts, hand, need);
  const side = el("div", { class: "pl-col pl-side" }, auction, teams, decls, sheet);
  const layout = el("div", { class: "pl-layout" }, head, contract, main, side);
  root.replaceChildren(layout);

  let last = null; // the last state drawn
  // (P38: a card played in trick 2 before one's announced declaration is
  // shown loses it; the board asks once, and the same card again plays)
  let mustShow = false, doubted = null;

  function send(move) {
    api.send(move);
  }

  // The page asks before it sends a move (table.js): true when the board
  // asks about this one first, its note above the hand.
  function doubt(move) {
    if (!mustShow || move.startsWith("show ") || doubted === move || !(last && last.moves.includes(move))) return false;
    doubted = move;
    prompts.querySelector(".pl-doubt")?.remove();
    const card = cardText(move.split(" ")[0]);
    prompts.append(el("p", { class: "pl-doubt", role: "alert", "data-move": move },
      linked(`P38: you announced a declaration and have not shown it: playing ${card} now loses it. `
        + `Show it first, or play ${card} again to play it all the same.`)));
    return true;
  }

  function moveButton(move, label, cls) {
    const b = el("button", { type: "button", class: cls || "pl-move", "data-move": move }, label);
    b.addEventListener("click", () => send(move));
    return b;
  }

  // ---- head: round, dealer, match score ----
  function drawHead(v) {
    const target = v.target || (v.rules && v.rules.target);
    const score = [0, 1].map((t) => `${teamName(t)} ${at(v.score, t) || 0}`).join(", ");
    head.replaceChildren(
      el("span", { class: "pl-round" }, `Round ${v.round || 1}`),
      el("span", { class: "pl-dealer" }, `dealer: ${nameOf(v.dealer)}`),
      el("span", { class: "pl-match" }, `Score: ${score}${target ? ` (to ${target})` : ""}`),
    );
  }

  // ---- the contract ----
  function contractWords(k) {
    if (!k || typeof k !== "object") return null;
    const value = k.capot ? "capot" : String(k.value);
    let s = `${value} ${k.suit ? suitSymbol(k.suit) : ""}`.trim() + ` by ${nameOf(k.bidder)}`;
    const mult = k.mult || 1;
    if (mult === 4) s += ", contra and recontra (x4)";
    else if (mult === 2) s += `, contra${k.contra_by !== undefined ? " by " + nameOf(k.contra_by) : ""} (x2)`;
    return s;
  }

  function drawContract(v) {
    const k = v.contract;
    const playing = v.phase === "play" || v.phase === "round-over" || v.phase === "match-over";
    contract.replaceChildren();
    contract.dataset.mult = k && k.mult ? String(k.mult) : "";
    contract.dataset.trumps = v.trumps || "";
    if (!k || typeof k !== "object") {
      contract.append("Contract: none yet");
      contract.dataset.state = "none";
      return;
    }
    contract.dataset.state = playing && v.trumps ? "contract" : "bid";
    contract.append(el("strong", {}, playing ? "Contract: " : "Highest bid: "), contractWords(k));
    if (v.trumps && playing) {
      contract.append(" · trumps: ",
        el("span", { class: `pl-suit suit-${v.trumps}`, "aria-label": suitName(v.trumps) }, suitSymbol(v.trumps)),
        ` (${suitName(v.trumps)})`);
    }
  }

  // ---- the auction: the calls by seat, and the legal calls as buttons ----
  function drawAuction(v, st) {
    const calling = v.phase === "auction" || v.phase === "contra" || v.phase === "trump";
    auction.classList.toggle("done", !calling);
    const calls = list(v.calls);
    const grid = el("table", { class: "pl-calls" });
    const first = calls.length ? Number(calls[0].seat) : (v.dealer !== undefined ? (v.dealer + 1) % 4 : 0);
    const order = [0, 1, 2, 3].map((i) => (first + i) % 4);
    grid.append(el("caption", {}, calls.length ? "Auction" : "Auction: nobody has called yet"));
    grid.append(el("thead", {}, el("tr", {}, order.map((s) =>
      el("th", { scope: "col", "data-seat": s, title: nameOf(s), class: s === v.turn && calling ? "turn" : "" }, headName(s))))));
    const body = el("tbody");
    let row = null;
    calls.forEach((c, i) => {
      if (i % 4 === 0) { row = el("tr"); body.append(row); }
      const kind = c.kind || (c.text === "pass" ? "pass" : "bid");
      row.append(el("td", {}, el("span", {
        class: `call call-${kind}`, "data-seat": c.seat, "data-call": c.text,
        "aria-label": `${nameOf(c.seat)}: ${c.text}`,
      }, callText(c.text))));
    });
    if (calling && v.turn !== undefined && v.turn !== null) {
      if (!row || row.children.length === 4) { row = el("tr"); body.append(row); }
      row.append(el("td", {}, el("span", { class: "call call-waiting", "aria-hidden": "true" }, "…")));
    }
    grid.append(body);
    const parts = [grid];
    if (calling && st.moves && st.moves.length) parts.push(callButtons(sortMoves(st.moves)));
    auction.replaceChildren(...parts);
  }

  // A column head: the name, and for a long one its short form besides,
  // which pilotta.css shows instead when the auction is narrow (the full
  // name stays for screen readers and in the head's title).
  function headName(seat) {
    const full = nameOf(seat);
    const short = shortName(full);
    if (!short) return full;
    return [el("span", { class: "pl-fullname" }, full), el("span", { class: "pl-shortname", "aria-hidden": "true" }, short)];
  }

  function callButtons(m) {
    const box = el("div", { class: "pl-callbuttons", role: "group", "aria-label": "Your call" });
    const top = el("div", { class: "pl-callrow" });
    for (const c of m.calls) top.append(moveButton(c, c, `pl-move call-${c}`));
    if (top.children.length) box.append(top);
    if (m.trumps.length) {
      const row = el("div", { class: "pl-callrow" }, el("span", { class: "pl-rowlabel" }, "Trumps:"));
      for (const t of m.trumps) {
        const s = t.slice(-1);
        row.append(moveButton(t, `${suitSymbol(s)} ${suitName(s)}`, `pl-move pl-suitbtn suit-${s}`));
      }
      box.append(row);
    }
    const bids = el("div", { class: "pl-bids" });
    const suitless = [...m.bids.values()].flat().concat(m.capots).filter((t) => !/[cdhs]$/.test(t));
    if (suitless.length) {
      // (PV-suit-after-auction: a bid names no suit; the trumps come after)
      const row = el("div", { class: "pl-callrow pl-suitless" });
      for (const t of suitless) row.append(moveButton(t, t, "pl-move pl-bid"));
      box.append(row);
    }
    for (const [value, all] of [...m.bids.entries()].sort((a, b) => a[0] - b[0])) {
      const texts = all.filter((t) => /[cdhs]$/.test(t));
      if (!texts.length) continue;
      const row = el("div", { class: "pl-callrow", "data-value": value }, el("span", { class: "pl-rowlabel" }, String(value)));
      for (const t of texts) {
        const s = BID_RE.exec(t)[2];
        const b = moveButton(t, s ? suitSymbol(s) : "bid", `pl-move pl-suitbtn${s ? " suit-" + s : ""}`);
        b.setAttribute("aria-label", s ? `${value} ${suitName(s)}` : `${value}`);
        row.append(b);
      }
      bids.append(row);
    }
    const capots = m.capots.filter((t) => /[cdhs]$/.test(t));
    if (capots.length) {
      const row = el("div", { class: "pl-callrow", "data-value": 250 }, el("span", { class: "pl-rowlabel" }, "capot"));
      for (const t of capots) {
        const s = t.split(" ")[1];
        const b = moveButton(t, s ? suitSymbol(s) : "capot", `pl-move pl-suitbtn${s ? " suit-" + s : ""}`);
        b.setAttribute("aria-label", s ? `capot ${suitName(s)}` : "capot");
        row.append(b);
      }
      bids.append(row);
    }
    if (bids.children.length) box.append(bids);
    return box;
  }

  // ---- the trick in the middle, with the seats around it ----
  function drawTrick(v) {
    const leader = v.leader;
    const played = list(v.trick).map((c, i) => ({
      seat: leader !== undefined && leader !== null ? (leader + i) % 4 : null, card: typeof c === "object" ? c.card : c,
    }));
    let winning = v.winning;
    if ((winning === undefined || winning === null) && played.length) winning = trickWinner(played, v.trumps);
    const bySeat = new Map(played.map((p) => [p.seat, p.card]));
    const cells = [];
    for (let seat = 0; seat < 4; seat++) {
      const count = at(v.hand_count, seat);
      const cell = el("div", {
        class: `pl-seat pl-${placeOf(seat)}${seat === v.turn ? " turn" : ""}`, "data-seat": seat,
        "data-hand-count": count === undefined ? null : count,
      });
      const label = el("div", { class: "pl-seatname" }, nameOf(seat),
        seat !== bottom && me !== null && me !== undefined && TEAM_OF[seat] === TEAM_OF[me] ? " (partner)" : "");
      if (count !== undefined) label.append(el("span", { class: "pl-count" }, ` · ${plural(count, "card")}`));
      cell.append(label);
      const c = bySeat.get(seat);
      if (c) {
        const e = card(c);
        e.dataset.seat = String(seat);
        if (seat === winning) {
          e.dataset.winning = "true";
          e.classList.add("winning");
        }
        cell.append(e);
      } else {
        cell.append(el("span", { class: "pl-slot", "aria-hidden": "true" }));
      }
      cells.push(cell);
    }
    const done = list(v.tricks).filter((t) => t && t.winner !== undefined && t.winner !== null);
    const number = Math.min(done.length + 1, 8);
    let caption;
    if (v.phase !== "play") caption = v.phase === "round-over" || v.phase === "match-over" ? "The round is over" : "";
    else if (!played.length) caption = `Trick ${number}: ${nameOf(v.turn)} to lead`;
    else {
      const you = winning === me && me !== null && me !== undefined;
      caption = `Trick ${number}: ${you ? "you are" : nameOf(winning) + " is"} winning it`;
    }
    const centre = el("div", { class: "pl-centre" }, el("p", { class: "pl-caption", "aria-live": "polite" }, caption));
    // The last trick taken, small, so that a trick the AIs finish at once is seen.
    const prev = done[done.length - 1];
    let extra = null;
    if (prev && v.phase === "play" && !played.length) {
      const row = el("p", { class: "pl-lasttrick", "data-number": done.length, "data-winner": prev.winner },
        `Trick ${done.length}: ${nameOf(prev.winner)} took it (${plural(prev.points || 0, "point")}) `);
      const cards = el("span", { class: "pl-cards" });
      list(prev.cards).forEach((c, i) => {
        const e = card(c, { small: true });
        if (prev.leader !== undefined && prev.leader !== null) e.dataset.seat = String((prev.leader + i) % 4);
        cards.append(e);
      });
      cards.querySelectorAll(".card").forEach((e) => e.classList.add("small"));
      row.append(cards);
      extra = row;
    }
    trick.dataset.number = String(number);
    trick.classList.toggle("idle", v.phase !== "play");
    trick.dataset.winning = winning === undefined || winning === null ? "" : String(winning);
    trick.replaceChildren(...cells, centre);
    // (outside #trick: the cards there are the trick under way only)
    lastTrick.replaceChildren(...(extra ? [extra] : []));
    lastTrick.hidden = !extra;
  }

  // ---- tricks and points per team ----
  function drawTeams(v) {
    teams.replaceChildren(el("h3", {}, "Won this round"));
    for (const t of [0, 1]) {
      const n = at(v.tricks_won, t) || 0;
      const p = at(v.trick_points, t) || 0;
      teams.append(el("p", { "data-team": t, "data-tricks": n, "data-points": p, class: "pl-team" },
        el("strong", {}, teamName(t)), `: ${plural(n, "trick")}, ${plural(p, "point")}`));
    }
  }

  // ---- declarations and belote ----
  function drawDecls(v) {
    const ds = list(v.announcements);
    decls.replaceChildren();
    decls.hidden = !ds.length && (v.belote === undefined || v.belote === null);
    if (decls.hidden) return;
    decls.append(el("h3", {}, "Declarations"));
    const ul = el("ul");
    for (const d of ds) {
      const cards = list(d.cards).map((c) => (typeof c === "object" ? c.card || c.text : c));
      const li = el("li", {
        class: "announcement", "data-seat": d.seat, "data-value": d.value, "data-kind": d.kind,
        "data-shown": d.shown ? "true" : "false", "data-lost": d.lost ? "true" : null,
        "data-stands": v.standing === 0 || v.standing === 1 ? String(TEAM_OF[d.seat] === v.standing) : null,
      }, `${nameOf(d.seat)}: ${declWords(d)}`);
      if (d.shown && cards.length) {
        li.append(" shown ");
        const span = el("span", { class: "pl-shown" });
        cards.forEach((c) => span.append(card(c, { small: true })));
        span.querySelectorAll(".card").forEach((e) => e.classList.add("small"));
        li.append(span);
      } else if (d.lost) {
        li.append(" ", el("span", { class: "pl-lost" }, linked("lost: not shown in trick 2 (P38)")));
      } else if (cards.length && d.seat === me) {
        li.append(el("span", { class: "pl-own" }, ` (${cards.map(cardText).join(" ")}, not shown yet)`));
      }
      ul.append(li);
    }
    decls.append(ul);
    let standing = null;
    if (v.standing === 0 || v.standing === 1) standing = `${teamName(v.standing)}'s declarations stand (P36)`;
    else if (v.standing === "equal") standing = "The best of each side are equal: none count (P37)";
    else if (ds.length) standing = "Compared when trick 1 is complete (P36)";
    if (standing) decls.append(el("p", { class: "pl-standing", "data-standing": String(v.standing ?? "") }, linked(standing)));
    if (v.belote !== undefined && v.belote !== null) {
      decls.append(el("p", { class: "pl-belote", "data-seat": v.belote }, linked(`Belote: ${nameOf(v.belote)} (20, P39)`)));
    }
  }

  // ---- the show and belote prompts, and announcing ----
  function drawPrompts(v, st, m) {
    prompts.replaceChildren();
    if (!m.prompts.length) { prompts.hidden = true; return; }
    prompts.hidden = false;
    for (const t of m.prompts) {
      const words = t.split(" ");
      let label;
      if (words[0] === "announce") {
        const d = { kind: fourOf(words.slice(1)) ? "four" : "run", length: words.length - 1, cards: words.slice(1) };
        d.value = valueOf(d);
        label = `Announce ${declWords(d).replace(/ \(\d+\)$/, d.value ? ` (${d.value})` : "")}: ${words.slice(1).map(cardText).join(" ")}`;
      } else if (words[0] === "show") {
        label = `Show your declaration: ${words.slice(1).map(cardText).join(" ")} (P38)`;
      } else if (words[1] === "belote") {
        label = `Play ${cardText(words[0])} and say belote (20, P39)`;
      } else {
        label = `Play ${cardText(words[0])} without the belote`;
      }
      prompts.append(moveButton(t, label, `pl-move pl-prompt pl-${words[1] === "nobelote" ? "nobelote" : words[0] === "announce" || words[0] === "show" ? words[0] : "belote"}`));
    }
    const hint = m.prompts.some((t) => t.startsWith("announce")) ? "Announce before your card in trick 1 (P35), or just play a card."
      : m.prompts.some((t) => t.startsWith("show")) ? "Show it before your card in trick 2 (P38)."
        : "You hold the King and Queen of trumps: say belote with the first of them (P39).";
    prompts.append(el("p", { class: "help" }, linked(hint)));
  }

  function fourOf(cards) {
    return cards.length === 4 && cards.every((c) => rankOf(c) === rankOf(cards[0]));
  }

  // (the value of an announcement from its cards, for the prompt's words:
  // P33, P34; the server's event says it too)
  function valueOf(d) {
    if (d.kind === "four") {
      return { J: 200, 9: 150, A: 100, 10: 100, K: 100, Q: 100 }[rankOf(d.cards[0])] || 0;
    }
    const n = d.length;
    return n >= 5 ? 100 : n === 4 ? 50 : n === 3 ? 20 : 0;
  }

  // ---- the hand: buttons for the seat to move ----
  function drawHand(v, st, m) {
    hand.replaceChildren();
    if (me === null || me === undefined) { hand.hidden = true; return; }
    hand.hidden = false;
    const cards = list(v.hand).map((c) => (typeof c === "object" ? c.card || c.text : c));
    const myTurn = st.turn === me && v.phase === "play" && m.cards.size > 0;
    hand.append(el("h3", {}, `Your hand${cards.length ? "" : ": empty"}`));
    const row = el("div", { class: "pl-handcards", role: myTurn ? "group" : null, "aria-label": myTurn ? "Play a card" : null });
    for (const c of cards) {
      if (!myTurn) { row.append(card(c)); continue; }
      const texts = m.cards.get(c);
      const b = card(c, { button: true });
      if (texts) {
        b.classList.add("legal");
        // (a belote card plays with the belote said, as its plain text does: P39)
        const move = texts.includes(c) ? c : texts.find((t) => t.endsWith(" belote")) || texts[0];
        b.dataset.move = move;
        b.addEventListener("click", () => send(move));
      } else {
        // (not legal now: sent all the same, the refusal names the rule)
        b.classList.add("dim");
        b.setAttribute("aria-label", `${b.getAttribute("aria-label")} (not playable now)`);
        b.addEventListener("click", () => send(c));
      }
      if (v.phase === "play" && v.trumps && c.endsWith(v.trumps)) b.classList.add("trump");
      row.append(b);
    }
    if (!myTurn && v.phase === "play" && v.trumps) {
      row.querySelectorAll(".card").forEach((e) => e.classList.toggle("trump", e.dataset.card.endsWith(v.trumps)));
    }
    hand.append(row);
  }

  // ---- what the bidders still need (P42) ----
  function drawNeed(v) {
    const k = v.contract;
    need.replaceChildren();
    if (!k || typeof k !== "object" || v.phase !== "play") return;
    const team = TEAM_OF[k.bidder];
    const who = teamName(team);
    const tricks = at(v.tricks_won, team) || 0;
    if (k.capot) {
      need.append(linked((at(v.tricks_won, 1 - team) || 0) > 0
        ? `${who}'s capot is lost: the other side took a trick (P42).`
        : `${who} must take every trick for their capot (P42): ${tricks} of 8 so far.`));
      return;
    }
    let have = at(v.trick_points, team) || 0;
    if (v.standing === team) {
      for (const d of list(v.announcements)) if (TEAM_OF[d.seat] === team && !d.lost) have += d.value || 0;
    }
    if (v.belote !== undefined && v.belote !== null && TEAM_OF[v.belote] === team) have += 20;
    const left = (k.value || 0) - have;
    need.append(linked(left > 0
      ? `${who} need ${left} more points for the contract of ${k.value} (P42): ${have} so far.`
      : `${who} have the ${k.value} of the contract (${have}); it is made with a trick of their own (P42).`));
  }

  // ---- the score sheet, in tens (P46) ----
  function drawSheet(v) {
    // (the view's last round: this one once it is over, else the one before)
    const over = v.phase === "round-over" || v.phase === "match-over";
    if (v.last && typeof v.last === "object") keep(Number(v.round) - (over ? 0 : 1), v.last);
    const table = el("table", { class: "pl-sheettable" });
    table.append(el("caption", {}, linked("The sheet, in tens (P46)")));
    table.append(el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Round"),
      [0, 1].map((t) => el("th", { scope: "col", "data-team": t }, teamName(t))))));
    const body = el("tbody");
    const total = [0, 0];
    for (const n of [...rounds.keys()].sort((a, b) => a - b)) {
      const b = rounds.get(n);
      const tr = el("tr", { "data-round": n }, el("th", { scope: "row" }, String(n)));
      for (const t of [0, 1]) {
        const gp = (at(b, t) && at(b, t).game) || 0;
        total[t] += gp;
        tr.append(el("td", { "data-team": t }, b.thrown_in ? "–" : `+${gp}`, el("span", { class: "pl-total" }, ` (${total[t]})`)));
      }
      body.append(tr);
    }
    const tr = el("tr", { class: "pl-sum" }, el("th", { scope: "row" }, "Total"));
    for (const t of [0, 1]) tr.append(el("td", { "data-team": t, "data-score": at(v.score, t) || 0 }, String(at(v.score, t) || 0)));
    body.append(tr);
    table.append(body);
    const target = v.target || (v.rules && v.rules.target) || 351;
    sheet.replaceChildren(table, el("p", { class: "help" }, linked(`The match is played to ${target} game points (P49).`)));
  }

  function update(st) {
    if (!st || !st.view) return;
    last = st;
    const v = st.view;
    // (keyboard play: focus inside the board stays there across a redraw)
    const had = root.contains(document.activeElement) ? document.activeElement : null;
    const key = had && (had.dataset.move || had.dataset.card);
    const m = sortMoves(st.moves, v.phase || st.phase);
    root.dataset.phase = v.phase || st.phase || "";
    drawHead(v);
    drawContract(v);
    drawAuction(v, st);
    drawTrick(v);
    mustShow = st.turn === me && m.prompts.some((t) => t.startsWith("show "));
    if (!mustShow) doubted = null;
    drawPrompts(v, st, m);
    drawHand(v, st, m);
    drawTeams(v);
    drawDecls(v);
    drawNeed(v);
    drawSheet(v);
    if (had) {
      const same = key && [...root.querySelectorAll("button")].find((b) => b.dataset.move === key || b.dataset.card === key);
      const next = same || root.querySelector("#prompts button, #auction button[data-move], #hand button.legal");
      (next || root).focus();
    }
  }

  // A finished round's breakdown goes on the sheet (the views carry only its last).
  function result(res) {
    const r = res && res.result;
    if (!r) return null;
    if (r.round && typeof r.round === "object" && r.rounds) keep(Number(r.rounds), r.round);
    if (last) drawSheet(last.view);
    return summary(res);
  }

  // The round's breakdown as the terminal gives it (P41-P46).
  function summary(res) {
    const r = res.result;
    const box = el("div", { class: "pl-summary" });
    const b = r.round;
    const n = r.rounds ? ` ${r.rounds}` : "";
    if (!b || typeof b !== "object") {
      box.append(el("p", {}, "No round has finished yet."));
    } else if (b.thrown_in) {
      box.append(el("p", {}, linked(`Round${n}: everybody passed, no score (P19).`)));
    } else {
      let outcome = "";
      if (b.bidders !== undefined && b.bidders !== null) {
        const value = b.value === 250 ? "capot" : String(b.value);
        outcome = `: ${teamName(b.bidders)}'s contract of ${value}${(b.mult || 1) > 1 ? " x" + b.mult : ""} ${b.made ? "is made" : "failed"} (P42)`;
      }
      box.append(el("p", {}, linked(`Round${n} is over${outcome}.`)));
      const rows = [["Tricks", "tricks"], ["Trick points", "trick_points"], ["Declarations", "declarations"],
        ["Belote", "belote"], ["Raw points", "raw"], ["Game points", "game"]];
      // (a house rule's total other than the game points: its own row)
      if ([0, 1].some((t) => at(b, t) && at(b, t).total !== undefined && at(b, t).total !== at(b, t).game)) {
        rows.push(["Round total", "total"]);
      }
      const table = el("table", { class: "pl-breakdown" });
      table.append(el("thead", {}, el("tr", {}, el("td"), [0, 1].map((t) => el("th", { scope: "col" }, teamName(t))))));
      const body = el("tbody");
      for (const [label, key] of rows) {
        body.append(el("tr", { "data-row": key }, el("th", { scope: "row" }, label),
          [0, 1].map((t) => el("td", { "data-team": t }, String((at(b, t) && at(b, t)[key]) || 0)))));
      }
      body.append(el("tr", { "data-row": "score" }, el("th", { scope: "row" }, "Match score"),
        [0, 1].map((t) => el("td", { "data-team": t }, String(at(r.score, t) || 0)))));
      table.append(body);
      box.append(table);
      if (typeof b.label === "string" && b.label) box.append(el("p", {}, `The game points include the house rules': ${b.label}.`));
    }
    if (r.over) {
      box.append(el("p", { class: "pl-over" }, r.winner === 0 || r.winner === 1
        ? `The match is over: ${teamName(r.winner)} win.` : "The match is over."));
    } else {
      box.append(el("p", {}, linked(`The match is played to ${r.target || 351} game points (P49).`)));
    }
    return box;
  }

  // One sentence for the log (as the terminal's describe and after_move).
  function describe(ev) {
    if (!ev) return "";
    if (ev.type === "round_start") return `Round ${ev.round}: ${nameOf(ev.dealer)} deals.`;
    if (ev.type && ev.type !== "move") return "";
    const who = nameOf(ev.seat);
    const text = ev.move || ev.text || "?";
    let s;
    switch (ev.kind) {
      case "pass": s = `${who} passed.`; break;
      case "bid": s = `${who} bid ${callText(text)}.`; break;
      case "contra": s = `${who} said contra (x2).`; break;
      case "recontra": s = `${who} said recontra (x4).`; break;
      case "trump": s = `${who} named the trumps: ${suitSymbol(ev.suit)}.`; break;
      case "announce": {
        const cards = list(ev.cards);
        const d = { kind: fourOf(cards) ? "four" : "run", rank: rankOf(cards[0]), value: ev.value, cards, length: cards.length || undefined };
        s = cards.length ? `${who} announced ${declWords(d)}.` : `${who} announced a declaration (${ev.value || 0}).`;
        break;
      }
      case "show": s = `${who} showed ${text.split(" ").slice(1).map(cardText).join(" ")}.`; break;
      default: {
        const c = ev.card || text.split(" ")[0];
        s = `${who} played ${cardText(c)}${ev.belote ? ", saying belote (20)" : ""}.`;
      }
    }
    const over = ev.trick_over;
    if (over && typeof over === "object" && over.winner !== undefined) {
      const w = nameOf(over.winner);
      const you = over.winner === me && me !== null && me !== undefined;
      s += ` ${w} ${you ? "win" : "wins"} trick ${over.number || 0} (${plural(over.points || 0, "point")}${over.number === 8 ? ", the last trick's 10 included" : ""}).`;
    }
    if (ev.thrown_in) s += " Everybody passed: the cards are thrown in (P19).";
    return s;
  }

  function event() {
    // (the state that follows every event redraws the board)
  }

  function destroy() {
    root.replaceChildren();
    root.classList.remove("board-pilotta");
    delete root.dataset.phase;
  }

  // What the move box should not send: in the auction "9h" is PC7's
  // short bid of 90h to the engine, but a newcomer who types it there
  // means the card, and a bid cannot be taken back. (The terminal table
  // says the same.)
  function typed(text, st) {
    if (!st || !st.view || st.view.phase !== "auction") return null;
    // a number alone is PC7's bid in tens, not the list's eleventh call
    const n = /^\d+$/.test(text) ? Number(text) : 0;
    if (n >= 8 && n <= 24) {
      const bids = (st.moves || []).filter((x) => x.startsWith(`${n}0`) && /[cdhs]$/.test(x));
      return bids.length ? `${n} is a bid of ${n}0 (PC7): type it with its suit, ${bids.join(", ")}, or click it.`
        : `${n} is a bid of ${n}0 (PC7), and no bid of ${n}0 is open to you now (P14).`;
    }
    const m = /^(8|9|10)\s*([cdhs♣♦♥♠])\uFE0F?$/i.exec(text);
    if (!m) return null;
    const suit = { "♣": "c", "♦": "d", "♥": "h", "♠": "s" }[m[2]] || m[2].toLowerCase();
    return `${m[1]}${suit} names a card, and this is the auction: to bid ${m[1]}0 in ${suitName(suit)} type `
      + `${m[1]}0${suit} or click the bid (PC7's short forms here: ${m[1]} alone for the bids of ${m[1]}0, `
      + `11${suit} for 110${suit}).`;
  }

  // A move of the welcome's history (seat, kind, its text; no trick's
  // outcome): said as describe() says it live, as far as the text tells.
  function describeHistory(h) {
    const text = String(h.move || h.text || "");
    if (h.kind === "announce") {
      // (another side's announcement: its kind and worth, the cards hidden)
      const hidden = /^announce \((.+), (\d+)\)$/.exec(text);
      if (hidden) return `${nameOf(h.seat)} announced a ${hidden[1]} (${hidden[2]}).`;
      // (one's own side's: its cards, and so its worth, as live)
      const cards = text.split(" ").slice(1);
      const d = { kind: fourOf(cards) ? "four" : "run", cards, length: cards.length };
      return describe({ seat: h.seat, kind: "announce", cards, value: valueOf(d), type: "move" });
    }
    return describe({ ...h, type: "move", trick_over: null });
  }

  return { update, event, result, describe, describeHistory, destroy, typed, doubt };
}
