// The Diloti and Kontsina board: the header (round, deal, dealer, pack),
// every hand's size, the table (loose cards, declarations with owner and
// value), the captured piles and xeris, the round so far, one's hand; a
// move by clicking a hand card then what it takes or builds on (the legal
// choices lit from the state's moves; an ambiguous choice offers its
// options), the same words as the terminal (lua/games/diloti/board.lua).

import { el } from "../dom.js";

const plural = (n, one, many) => `${n} ${n === 1 ? one : (many || one + "s")}`;

function cardValue(code) {
  const m = /^(10|[2-9AJQK])/.exec(code || "");
  if (!m) return 0;
  if (m[1] === "A") return 1;
  return /^\d+$/.test(m[1]) ? Number(m[1]) : 0;
}

/**
 * A move's text parsed: {text, card, op ("x", "lay", "+", or the word),
 * items (loose cards and declaration refs), result ("10", "G9" or null)}.
 */
export function parseMove(text) {
  const w = String(text).trim().split(/\s+/);
  const mv = { text, card: w[0], op: w[1] || "", items: [], result: null };
  if (mv.op === "x" || mv.op === "+") {
    let i = 2;
    for (; i < w.length && w[i] !== "="; i++) mv.items.push(w[i]);
    if (w[i] === "=") mv.result = w[i + 1] || null;
  }
  return mv;
}

export function createBoard(root, api) {
  const B = { state: null, sel: null, items: new Set(), byKey: new Map() };
  const rules = (api.welcome && api.welcome.rules) || {};
  root.classList.add("board-diloti");

  const header = el("p", { class: "board-header", id: "board-header" });
  const hands = el("div", { class: "hand-counts", "aria-label": "Cards in hand" });
  const felt = el("section", { class: "felt", "aria-labelledby": "table-h" });
  const tableH = el("h2", { id: "table-h", class: "visually-hidden", text: "Table" });
  const tableCards = el("div", { id: "table-cards", class: "table-cards", role: "group",
    "aria-label": "Loose cards on the table" });
  const decls = el("div", { id: "declarations", class: "declarations", role: "group",
    "aria-label": "Declarations on the table" });
  felt.append(tableH, tableCards, decls);
  const lastMove = el("p", { id: "last-move", class: "last-move" });
  const piles = el("div", { class: "piles", "aria-label": "Captured" });
  const soFar = el("p", { class: "so-far help" });
  const handSec = el("section", { class: "my-hand", "aria-labelledby": "hand-h" });
  const handH = el("h2", { id: "hand-h", text: "Your hand" });
  const hand = el("div", { id: "hand", class: "hand", role: "group", "aria-labelledby": "hand-h" });
  const prompt = el("p", { id: "choose-help", class: "help", "aria-live": "polite" });
  const choices = el("div", { id: "choices", class: "choices", role: "group", "aria-label": "Moves of the chosen card" });
  handSec.append(handH, hand, prompt, choices);
  root.append(header, hands, lastMove, felt, piles, soFar);
  if (!api.spectator) root.append(handSec);

  const myTurn = () => !api.spectator && B.state && B.state.turn === api.seat && Array.isArray(B.state.moves);
  const moves = () => (myTurn() ? B.state.moves.map(parseMove) : []);

  // ---- names ----
  function possessive(seat) {
    const n = api.name(seat);
    return n === "You" ? "your" : `${n}'s`;
  }
  function declKind(d) { return d.kind === "group" ? `group of ${d.value}s` : `plain ${d.value}`; }
  function declCards(d) {
    return (d.components || [d.cards || []]).map((c) => c.map(api.cardText).join("+")).join(", ");
  }

  // ---- drawing ----
  function cardEl(code, opts = {}) {
    return api.cardElement(code, { fourColour: api.fourColour(), ...opts });
  }

  function drawHeader(v) {
    const round = `Round ${v.round}` + (rules.match === "rounds" && rules.target ? ` of ${rules.target}` : "");
    const deal = `deal ${v.deal}` + (rules.deals ? ` of ${rules.deals}` : "");
    header.textContent = "";
    const pack = el("span", { id: "pack", dataset: { count: String(v.pack_count ?? 0) },
      text: `pack: ${plural(v.pack_count ?? 0, "card")}` });
    header.append(`${round}, ${deal} · dealer: ${api.name(v.dealer)} · `, pack);
    if (v.known_bottom) header.append(" · bottom card: ", cardEl(v.known_bottom, {}));
  }

  function drawHands(v) {
    hands.textContent = "";
    const n = v.players || 0;
    for (let seat = 0; seat < n; seat++) {
      if (seat === api.seat && !api.spectator) continue;
      const count = (v.hand_counts || {})[String(seat)] ?? 0;
      const partner = v.teams && v.sides < v.players && api.seat != null && (api.seat + v.sides) % n === seat;
      const box = el("div", { class: "hand-count", dataset: { seat: String(seat), handCount: String(count) },
        "aria-label": `${api.name(seat)}: ${plural(count, "card")} in hand${partner ? " (partner)" : ""}` });
      if (B.state && B.state.turn === seat) box.classList.add("turn");
      const backs = el("span", { class: "backs", "aria-hidden": "true" });
      for (let i = 0; i < count; i++) backs.append(el("span", { class: "back" }));
      box.append(el("span", { class: "who", text: api.name(seat) + (partner ? " (partner)" : "") }), backs,
        el("span", { class: "n", text: String(count) }));
      hands.append(box);
    }
  }

  function selectable() {
    // (the items the chosen card may still take or build on)
    const keys = new Set();
    if (!B.sel) return keys;
    for (const m of moves()) {
      if (m.card !== B.sel) continue;
      if ([...B.items].every((k) => m.items.includes(k))) m.items.forEach((k) => keys.add(k));
    }
    return keys;
  }

  function drawTable(v) {
    const t = v.table || {};
    const live = selectable();
    tableCards.textContent = "";
    B.byKey.clear();
    const loose = t.loose || [];
    if (!loose.length) tableCards.append(el("p", { class: "empty", text: "no loose cards" }));
    for (const c of loose) {
      const on = live.has(c);
      const e = cardEl(c, { button: on || B.items.has(c) });
      if (c === B.fresh) e.classList.add("fresh");
      if (B.items.has(c)) e.classList.add("chosen");
      else if (on) e.classList.add("legal");
      else if (B.sel) e.classList.add("dim");
      if (e.tagName === "BUTTON") {
        e.setAttribute("aria-pressed", String(B.items.has(c)));
        e.addEventListener("click", () => toggle(c));
      }
      B.byKey.set(c, e);
      tableCards.append(e);
    }
    decls.textContent = "";
    for (const d of t.declarations || []) {
      const key = d.ref;
      const on = live.has(key);
      const chosen = B.items.has(key);
      const label = `${possessive(d.owner)} ${declKind(d)}`;
      const box = el(on || chosen ? "button" : "div", { class: "declaration",
        dataset: { owner: String(d.owner), value: String(d.value), kind: d.kind, ref: key || "" },
        "aria-label": `${label}: ${declCards(d)}${key ? ` (${key})` : ""}` });
      if (box.tagName === "BUTTON") {
        box.type = "button";
        box.setAttribute("aria-pressed", String(chosen));
        box.addEventListener("click", () => toggle(key));
      }
      if ((d.cards || []).includes(B.fresh)) box.classList.add("fresh");
      if (chosen) box.classList.add("chosen");
      else if (on) box.classList.add("legal");
      else if (B.sel) box.classList.add("dim");
      const head = el("span", { class: "decl-head" }, el("span", { class: "decl-label", text: label }),
        el("span", { class: "decl-ref", text: key || "" }));
      const comps = el("span", { class: "components", "aria-hidden": "true" });
      for (const comp of d.components || [d.cards || []]) {
        const part = el("span", { class: "component" });
        for (const c of comp) part.append(cardEl(c));
        part.querySelectorAll(".card").forEach((x) => x.classList.add("small"));
        comps.append(part);
      }
      box.append(head, comps);
      B.byKey.set(key, box);
      decls.append(box);
    }
  }

  function drawPiles(v) {
    piles.textContent = "";
    for (let side = 0; side < (v.sides || 0); side++) {
      const n = ((v.captured || {})[String(side)] || []).length;
      const x = (v.xeri || {})[String(side)] || 0;
      let text = `${api.sideName(side)}: ${plural(n, "card")}`;
      if (x > 0) text += ` (${plural(x, "xeri")})`;
      const p = el("div", { class: "pile", dataset: { seat: String(side), side: String(side), count: String(n),
        xeri: String(x) } }, el("span", { class: "pile-stack", "aria-hidden": "true" }),
      el("span", { text }));
      if (v.last_capturer != null && side === v.last_capturer % v.sides) p.classList.add("last-capture");
      piles.append(p);
    }
    if (v.last_capturer != null) {
      piles.append(el("span", { class: "help", text: `last capture: ${api.name(v.last_capturer)}` }));
    }
  }

  function drawSoFar(v) {
    soFar.textContent = "";
    if (!v.so_far || (v.phase !== "play" && v.phase !== "claim")) return;
    const items = [];
    let any = false;
    for (let s = 0; s < v.sides; s++) {
      const r = v.so_far[String(s)] || {};
      any = any || (r.cards || 0) > 0 || (r.xeris || 0) > 0;
      items.push(`${api.sideName(s)} ${r.total ?? 0}`);
    }
    if (any) soFar.textContent = `This round so far: ${items.join(", ")}.`;
  }

  function drawHand(v) {
    if (api.spectator) return;
    hand.textContent = "";
    const mine = myTurn();
    const ms = moves();
    handH.textContent = mine ? "Your hand: choose a card" : "Your hand";
    for (const c of v.hand || []) {
      const e = cardEl(c, { button: true });
      const playable = ms.some((m) => m.card === c);
      if (!mine || !playable) e.setAttribute("aria-disabled", "true");
      if (B.sel === c) { e.classList.add("selected"); e.setAttribute("aria-pressed", "true"); }
      else e.setAttribute("aria-pressed", "false");
      e.addEventListener("click", () => choose(c));
      hand.append(e);
    }
    if (!(v.hand || []).length) hand.append(el("p", { class: "empty", text: "empty" }));
    drawChoices();
  }

  function label(m) {
    const card = api.cardText(m.card);
    const items = m.items.map((k) => {
      if (/^[PG]\d+@\d+$/.test(k)) {
        const d = ((B.state.view.table || {}).declarations || []).find((x) => x.ref === k);
        return d ? `${possessive(d.owner)} ${declKind(d)}` : k;
      }
      return api.cardText(k);
    });
    if (/^claim$/i.test(m.text)) return "Claim a redeal";
    if (/^keep$/i.test(m.text)) return "Keep the cards";
    if (m.op === "lay") return `Lay ${card}`;
    if (m.op === "x") return `Take ${items.join(" ")} with ${card}`;
    if (m.op === "+" && m.result && m.result[0] === "G") return `Group of ${m.result.slice(1)}s: ${card} with ${items.join(" ")}`;
    if (m.op === "+") return `Plain ${m.result}: ${card} on ${items.join(" ")}`;
    return m.text;
  }

  function drawChoices() {
    choices.textContent = "";
    if (!myTurn()) { prompt.textContent = ""; return; }
    if (B.state.phase === "claim" || (B.state.view || {}).phase === "claim") {
      prompt.textContent = "";
      prompt.append("You may claim a redeal or keep the cards (", api.ruleLink("V-face-card-claim"), ").");
      for (const m of moves()) choices.append(choiceButton(m));
      return;
    }
    if (!B.sel) {
      prompt.textContent = "Choose a card of your hand, then what it takes or builds on.";
      const special = moves().filter((m) => !["x", "+", "lay"].includes(m.op));
      for (const m of special) choices.append(choiceButton(m));
      return;
    }
    const mine = moves().filter((m) => m.card === B.sel);
    const picked = [...B.items];
    const exact = mine.filter((m) => m.items.length === picked.length && picked.every((k) => m.items.includes(k)));
    const more = mine.filter((m) => picked.every((k) => m.items.includes(k)) && m.items.length > picked.length);
    if (picked.length && exact.length > 1) {
      prompt.textContent = `${exact.length} moves use these cards: choose one.`;
    } else if (picked.length && !exact.length) {
      prompt.textContent = more.length ? "Choose more of the lit cards." : "No move takes exactly these.";
    } else {
      prompt.textContent = `${api.cardText(B.sel)}: click the lit cards it takes or builds on, or choose below.`;
    }
    const shown = picked.length ? exact.concat(more) : mine;
    for (const m of shown) choices.append(choiceButton(m, exact.includes(m) && picked.length > 0));
    const cancel = el("button", { type: "button", class: "cancel", text: "Cancel (Esc)" });
    cancel.addEventListener("click", () => { clear(); focusHand(); });
    choices.append(cancel);
  }

  function choiceButton(m, strong) {
    const b = el("button", { type: "button", class: "choice" + (strong ? " strong" : ""),
      dataset: { move: m.text }, title: m.text });
    b.append(el("span", { text: label(m) }), " ", el("code", { text: m.text }));
    b.addEventListener("click", () => play(m.text));
    return b;
  }

  // ---- choosing ----
  function choose(c) {
    if (!myTurn()) return;
    if (!moves().some((m) => m.card === c)) return;
    if (B.sel === c) {
      clear();
      [...hand.querySelectorAll(".card")].find((e) => e.dataset.card === c)?.focus();
      return;
    }
    B.sel = c;
    B.items = new Set();
    redraw();
    // (the first lit table item takes the focus: Tab walks the rest)
    const first = root.querySelector("#table-cards .card.legal, .declaration.legal") ||
      choices.querySelector("button");
    if (first) first.focus();
  }

  function toggle(key) {
    if (!B.sel) return;
    if (B.items.has(key)) B.items.delete(key);
    else B.items.add(key);
    const mine = moves().filter((m) => m.card === B.sel);
    const picked = [...B.items];
    const exact = mine.filter((m) => m.items.length === picked.length && picked.every((k) => m.items.includes(k)));
    const more = mine.filter((m) => picked.every((k) => m.items.includes(k)) && m.items.length > picked.length);
    if (picked.length && exact.length === 1 && !more.length) { play(exact[0].text); return; }
    redraw();
    const again = B.byKey.get(key);
    if (again && again.tagName === "BUTTON") again.focus();
    else (choices.querySelector("button.strong") || choices.querySelector("button"))?.focus();
  }

  function play(text) {
    api.send(text);
    clear();
  }

  function clear() {
    B.sel = null;
    B.items = new Set();
    redraw();
  }

  function focusHand() { hand.querySelector(".card:not([aria-disabled])")?.focus(); }

  function redraw() {
    if (!B.state) return;
    const v = B.state.view || {};
    drawTable(v);
    drawHand(v);
  }

  root.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && B.sel) { clear(); focusHand(); e.stopPropagation(); }
  });

  // ---- sentences (the log) ----
  function who(seat) { return api.name(seat); }

  function describeMove(e) {
    const w = who(e.seat);
    const card = api.cardText(e.card);
    const takes = (e.takes || []).map((k) => {
      if (/^[PG]\d+@\d+$/.test(k)) {
        const d = ((e.table || {}).declarations || []).find((x) => x.ref === k);
        return d ? `${d.owner === e.seat ? (w === "You" ? "your" : "their") : possessive(d.owner)} ${declKind(d)}` : k;
      }
      return api.cardText(k);
    });
    let s;
    switch (e.kind) {
      case "lay": s = `${w} laid ${card}.`; break;
      case "capture": {
        // (a move read back from its text alone does not know how many
        // cards a declaration it took held)
        const n = e.captured ? e.captured.length : e.uncounted ? null : takes.length + 1;
        s = `${w} captured ${takes.join(", ")} with ${card}${n == null ? "" : `: ${plural(n, "card")}`}.`;
        break;
      }
      case "plain": s = `${w} declared a plain ${e.value} (${card} on ${takes.join("+")}).`; break;
      case "raise": s = `${w} raised ${takes.join(", ")} to ${e.value} with ${card}.`; break;
      case "group": s = `${w} made a group of ${e.value}s with ${card}${takes.length ? ` (${takes.join(", ")})` : ""}.`;
        break;
      case "claim": s = `${w} claimed a redeal (V-face-card-claim).`; break;
      case "keep": s = `${w} kept the cards (V-face-card-claim).`; break;
      default: s = `${w} played ${e.move || e.text || card}.`;
    }
    if (e.xeri) s += ` Xeri! (${(rules.points && rules.points.xeri) || 10} points)`;
    if (e.round_over) s += " That was the last card of the round.";
    else if (e.dealt) s += " New cards are dealt.";
    return s;
  }

  // A move of the welcome's history (seat, kind, its text; no more): read
  // back from its notation, so the log says it as it said it live. Null
  // when the text is not one it reads.
  function describeHistory(h) {
    const text = String(h.move || h.text || "");
    let m, card = null, takes = [], value;
    if ((m = /^(\S+) x (.+)$/.exec(text))) [card, takes] = [m[1], m[2].split(" ")];
    else if ((m = /^(\S+) lay$/.exec(text))) card = m[1];
    else if ((m = /^(\S+) \+ (.+) = G?(\d+)$/.exec(text))) [card, takes, value] = [m[1], m[2].split(" "), Number(m[3])];
    else if (h.kind !== "claim" && h.kind !== "keep") return null;
    // (a declaration taken is named by its reference: kind, value, owner)
    const declarations = [];
    for (const k of takes) {
      const d = /^([PG])(\d+)@(\d+)$/.exec(k);
      if (d) declarations.push({ ref: k, kind: d[1] === "G" ? "group" : "plain", value: Number(d[2]), owner: Number(d[3]) });
    }
    return describeMove({ ...h, type: "move", card, takes, value, table: { declarations },
      uncounted: declarations.length > 0, dealt: false, round_over: false });
  }

  function describe(e) {
    if (e.type === "move") return describeMove(e);
    if (e.type === "round_start") {
      const deal = e.deal ? `, deal ${e.deal}${rules.deals ? ` of ${rules.deals}` : ""}` : "";
      return `Round ${e.round}${deal}: ${who(e.dealer)} ${who(e.dealer) === "You" ? "deal" : "deals"}.` +
        (e.redeal ? " (redealt)" : "");
    }
    if (e.type === "warning") return e.message || null;
    return null;
  }

  // ---- the round's summary ----
  function result(m) {
    const res = m.result || {};
    const box = el("div", { class: "summary" });
    const s = (api.welcome && api.welcome.players) && B.state ? B.state.view.sides : 2;
    const sidesN = s || Object.keys(res.score || {}).length || 2;
    const round = res.round;
    const verb = (side) => {
      const n = api.sideName(side);
      return `${n} ${n === "You" || n.includes(" & ") ? "win" : "wins"}`;
    };
    if (round) {
      const w = round.winner;
      box.append(el("p", { class: "lead", text: w == null || w < 0 ? `Round ${res.rounds || ""} is over: a tie.`
        : `Round ${res.rounds || ""} is over: ${verb(w)} it.` }));
      const pts = rules.points || {};
      const rows = [
        ["Cards", "cards", "pts_cards", "cards"], ["Clubs", "clubs", "pts_clubs", "clubs"],
        ["Aces", "aces", "pts_aces", "ace"], [api.cardText("10d"), null, "pts_ten_diamonds", "ten_diamonds"],
        [api.cardText("2c"), null, "pts_two_clubs", "two_clubs"], ["Xeris", "xeris", "pts_xeri", "xeri"],
      ].filter((r) => (pts[r[3]] ?? 1) !== 0 && !(r[3] === "xeri" && rules.xeri === false));
      const t = el("table", { class: "score summary-table" },
        el("caption", { class: "help", text: "count (points)" }));
      const head = el("tr", {}, el("th", { text: "" }));
      for (let i = 0; i < sidesN; i++) head.append(el("th", { scope: "col", text: api.sideName(i) }));
      t.append(head);
      for (const r of rows) {
        const tr = el("tr", {}, el("th", { scope: "row", text: r[0] }));
        for (let i = 0; i < sidesN; i++) {
          const x = round[String(i)] || {};
          const count = r[1] ? `${x[r[1]] ?? 0} ` : "";
          const p = x[r[2]] ?? 0;
          tr.append(el("td", { text: r[1] ? `${count}(${p})` : String(p) }));
        }
        t.append(tr);
      }
      const tot = el("tr", { class: "total" }, el("th", { scope: "row", text: "Round total" }));
      for (let i = 0; i < sidesN; i++) tot.append(el("td", { text: String((round[String(i)] || {}).total ?? 0) }));
      t.append(tot);
      const byRounds = rules.match === "rounds";
      const sc = el("tr", { class: "total" }, el("th", { scope: "row", text: byRounds ? "Points" : "Match score" }));
      for (let i = 0; i < sidesN; i++) sc.append(el("td", { text: String((res.score || {})[String(i)] ?? 0) }));
      t.append(sc);
      if (byRounds) {
        const rw = el("tr", {}, el("th", { scope: "row", text: "Rounds won" }));
        for (let i = 0; i < sidesN; i++) rw.append(el("td", { text: String((res.rounds_won || {})[String(i)] ?? 0) }));
        t.append(rw);
      }
      box.append(t);
    }
    let close;
    if (res.over) {
      close = res.winner == null || res.winner < 0 ? "The match is over." : `The match is over: ${verb(res.winner)}.`;
    } else if (rules.match === "rounds") {
      close = `The match is ${rules.target} rounds; the most rounds won wins.`;
    } else if (rules.target) {
      close = `The match is played to ${rules.target} points.`;
    }
    if (close) box.append(el("p", { class: "closing", text: close }));
    return box;
  }

  return {
    update(state) {
      const turnChanged = !B.state || B.state.turn !== state.turn || B.state.seq !== state.seq;
      B.state = state;
      if (turnChanged && !myTurn()) { B.sel = null; B.items = new Set(); }
      if (B.sel && !moves().some((m) => m.card === B.sel)) { B.sel = null; B.items = new Set(); }
      const v = state.view || {};
      // (a redraw replaces the elements: the focus stays on the same card)
      const f = document.activeElement;
      const where = f && root.contains(f) ? (hand.contains(f) ? hand : f.closest("#table-cards, #declarations"))
        : null;
      const key = f && f.dataset ? (f.dataset.card || f.dataset.ref) : null;
      drawHeader(v);
      drawHands(v);
      drawTable(v);
      drawPiles(v);
      drawSoFar(v);
      drawHand(v);
      if (where) {
        const again = [...root.querySelectorAll("#hand .card, #table-cards .card, .declaration")]
          .find((e) => (e.dataset.card || e.dataset.ref) === key && e.matches("button"));
        (again || hand.querySelector(".card"))?.focus();
      }
    },
    event(ev) {
      // (the last move, said above the table; the card it left there marked
      // until the next move: the state that follows redraws)
      if (ev.type !== "move") return;
      B.fresh = ["lay", "plain", "group", "raise"].includes(ev.kind) ? ev.card : null;
      lastMove.textContent = "";
      lastMove.append(el("span", { class: "label", text: "Last move: " }), describeMove(ev));
    },
    describe,
    describeHistory,
    result,
    destroy() { root.textContent = ""; root.classList.remove("board-diloti"); },
  };
}

