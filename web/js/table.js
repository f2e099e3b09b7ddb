// The table's shell (/play#ROOM:TOKEN, /watch#ROOM:TOKEN): the connection,
// the seats, whose turn, the legal moves and the move box, refusals with
// their rule, advice, the log, the score and the round's result. The game
// itself is drawn by its board (js/boards/).
import { el } from "./dom.js";
import { Wire, parseLink, basePath, rememberRoom } from "./wire.js";
import { cardElement, cardName, cardText } from "./cards.js";
import { boardFor, gameTitle, sidesOf } from "./boards/index.js";

const $ = (sel) => document.querySelector(sel);
const body = document.body;
const FOUR_KEY = "diloti.fourColour";
const COACH_KEY = "diloti.coach";
const MAX_LOG = 300;

const T = {
  welcome: null, state: null, seq: 0, seat: null, spectator: true, board: null, kinds: {}, connected: {},
  watching: 0, log: [], wire: null, lastResult: null, refusalLocal: false, boxSent: null, gone: null, moveSent: null,
};
// (read-only, for the browser tests)
window.dilotiTable = {
  get welcome() { return T.welcome; }, get state() { return T.state; }, get seq() { return T.seq; },
};

// ---- names ------------------------------------------------------------------

function seatName(seat) {
  const names = (T.welcome && T.welcome.names) || {};
  const n = names[String(seat)] || `seat ${seat}`;
  // (two AIs of one kind share a name: the seat tells them apart)
  const twin = Object.entries(names).some(([k, v]) => v === n && Number(k) !== seat);
  return twin ? `${n} (${seat})` : n;
}

/** How the log and the board speak of a seat: "You" for one's own. */
function name(seat) {
  if (seat === T.seat && !T.spectator) return "You";
  return seatName(seat);
}

function players() { return (T.welcome && T.welcome.players) || 0; }

function sides() {
  const v = T.state && T.state.view;
  if (v && Number.isInteger(v.sides)) return v.sides;
  return sidesOf(T.welcome);
}

/** "Ann", or "Ann & Cy" for a side of partners. */
function sideName(side) {
  const n = players();
  const s = sides();
  if (s >= n) return name(side);
  const parts = [];
  for (let seat = side; seat < n; seat += s) parts.push(name(seat));
  return parts.join(" & ");
}

function ruleHref(id) { return `${basePath()}/rules#${encodeURIComponent(id)}`; }

function ruleLink(id) {
  return el("a", { class: "rule", href: ruleHref(id), target: "_blank", text: id,
    "aria-label": `rule ${id} (opens the rules reference)` });
}

/** Text with rule ids (D19, K3, C2, P27, PC4, V-soy, PV-high-bids) made links. */
function withRuleLinks(text) {
  const frag = document.createDocumentFragment();
  // (not a declaration's reference: P8@3 is a plain 8 on the table)
  const re = /\b(PV-[a-z0-9-]*[a-z0-9]|V-[a-z0-9-]*[a-z0-9]|PC\d+|PE\d+|[DKCP]\d+[a-z]?)(?![\w@])/g;
  let at = 0;
  let m;
  while ((m = re.exec(text))) {
    frag.append(text.slice(at, m.index), ruleLink(m[1]));
    at = m.index + m[1].length;
  }
  frag.append(text.slice(at));
  return frag;
}

function fourColour() { return $("#four-colour").checked; }

// ---- seats ------------------------------------------------------------------

function drawSeats() {
  const box = $("#seats");
  box.textContent = "";
  const st = T.state;
  const turn = st && Number.isInteger(st.turn) ? st.turn : null;
  const counts = (st && st.view && st.view.hand_counts) || {};
  for (let seat = 0; seat < players(); seat++) {
    const kind = T.kinds[seat] || "person";
    const connected = kind === "ai" || !!T.connected[seat];
    const me = seat === T.seat && !T.spectator;
    const chip = el("div", { class: "seat", dataset: { seat: String(seat), kind, connected: String(connected) },
      role: "group" });
    if (turn === seat) chip.classList.add("turn");
    if (turn === seat && kind === "ai") chip.classList.add("thinking");
    if (me) chip.classList.add("me");
    const team = sides() < players() ? ` · team ${seat % sides() === 0 ? "A" : "B"}` : "";
    const who = el("span", { class: "seat-name", text: seatName(seat) + (me ? " (you)" : "") });
    const dot = el("span", { class: "dot", "aria-hidden": "true" });
    const status = kind === "ai" ? "AI" : (connected ? "here" : "away");
    const bits = [status + team];
    if (counts[String(seat)] != null) bits.push(`${counts[String(seat)]} in hand`);
    const info = el("span", { class: "seat-info", text: bits.join(" · ") });
    chip.append(dot, who, info);
    if (turn === seat) chip.append(el("span", { class: "seat-turn", text: kind === "ai" ? "thinking…" : "to play" }));
    chip.setAttribute("aria-label", `Seat ${seat}: ${seatName(seat)}${me ? ", you" : ""}, ${kind === "ai" ? "an AI"
      : "a person"}, ${kind === "ai" ? "" : connected ? "connected, " : "not connected, "}${turn === seat
      ? (kind === "ai" ? "thinking" : "to play") : ""}`.replace(/, $/, ""));
    box.append(chip);
  }
  if (T.watching > 0) box.append(el("span", { class: "watching help", text: `${T.watching} watching` }));
}

// ---- state ------------------------------------------------------------------

function myTurn() {
  const st = T.state;
  return !!(st && !T.spectator && !T.gone && st.turn === T.seat && Array.isArray(st.moves));
}

function applyState(st) {
  T.state = st;
  body.dataset.phase = st.phase || "";
  body.dataset.turn = Number.isInteger(st.turn) ? String(st.turn) : "";
  body.dataset.myTurn = String(myTurn());
  if (T.refusalLocal && myTurn()) hideRefusal();
  drawSeats();
  drawMoves();
  drawScore();
  drawTurn();
  if (T.board) T.board.update(st);
  if (myTurn() && (document.activeElement === body || !document.activeElement) && $("#result").hidden) {
    document.querySelector("#hand .card:not([aria-disabled])")?.focus({ preventScroll: true });
  }
  if (myTurn()) document.title = "● Your turn: diloti";
  else document.title = "diloti: the table";
}

// Where a page that can play no more leads: the lobby.
function lobbyLink(cls) { return el("a", { href: `${basePath()}/`, class: cls }, "Back to the lobby"); }
function goneText() { return `This page has left the table: ${T.gone}.`; }

function drawTurn() {
  const st = T.state;
  const b = $("#turn-banner");
  b.classList.toggle("mine", myTurn());
  b.classList.toggle("gone", !!T.gone);
  if (T.gone) {
    // (a page that can no longer play must not look as if it could)
    b.textContent = "";
    b.append(`${goneText()} `, lobbyLink());
    return;
  }
  if (!st) { b.textContent = ""; return; }
  if (st.phase === "match-over") { b.textContent = "The match is over."; return; }
  if (st.phase === "round-over") { b.textContent = "The round is over."; return; }
  if (!Number.isInteger(st.turn)) { b.textContent = ""; return; }
  if (myTurn()) { b.textContent = "Your turn."; return; }
  const ai = T.kinds[st.turn] === "ai";
  b.textContent = `${seatName(st.turn)} ${ai ? "is thinking…" : "to play."}`;
}

function drawMoves() {
  const box = $("#moves");
  const had = box.contains(document.activeElement) ? document.activeElement.dataset.move : null;
  box.textContent = "";
  const panel = $("#play-panel");
  panel.classList.toggle("spectator", T.spectator);
  const mine = myTurn();
  $("#movebox").disabled = T.spectator || !!T.gone;
  $("#move-form button[type=submit]").disabled = !!T.gone;
  for (const id of ["#hint", "#why"]) $(id).disabled = !mine;
  $("#explain").disabled = T.spectator || !!T.gone;
  if (T.gone) return;
  if (!mine) {
    if (T.state && T.state.phase === "match-over") {
      // (no dead end: where to go from here)
      box.append(el("p", { class: "help" }, "The match is over. ", lobbyLink("to-lobby"), " for another."));
      return;
    }
    box.append(el("p", { class: "help", text: T.spectator ? "You are watching." : "Not your turn." }));
    return;
  }
  T.state.moves.forEach((m, i) => {
    const b = el("button", { type: "button", class: "move", dataset: { move: m },
      "aria-label": `${i + 1}: ${spoken(m)}` });
    b.append(el("span", { class: "n", text: `${i + 1}` }), " ", styled(m));
    b.addEventListener("click", () => sendMove(m));
    box.append(b);
  });
  if (T.state.cut) box.append(el("p", { class: "help", text: T.state.cut }));
  if (had != null) {
    const again = [...box.querySelectorAll("button")].find((b) => b.dataset.move === had) || box.querySelector("button");
    if (again) again.focus();
  }
}

/** A move's text with card words as "7♥" (red/four-colour by class). */
function styled(text) {
  const frag = document.createDocumentFragment();
  String(text).split(/(\s+)/).forEach((w) => {
    const t = cardText(w);
    if (t !== w) frag.append(el("span", { class: "cardtext suit-" + w.slice(-1).toLowerCase(), text: t }));
    else frag.append(w);
  });
  return frag;
}

/** A move's text for a screen reader: "7 of hearts x 3 of clubs". */
function spoken(text) {
  return String(text).split(/\s+/).map((w) => { const n = cardName(w); return n; }).join(" ")
    .replace(/ x /g, " takes ").replace(/ \+ /g, " plus ");
}

function drawScore() {
  const box = $("#score");
  const v = T.state && T.state.view;
  box.textContent = "";
  if (!v || !v.score || typeof v.score !== "object") return;
  const rules = (T.welcome && T.welcome.rules) || {};
  const byRounds = rules.match === "rounds";
  const table = el("table", { class: "score" });
  const head = el("tr", {}, el("th", { scope: "col", text: "" }));
  const row = el("tr", {}, el("th", { scope: "row", text: byRounds ? "Rounds won" : "Score" }));
  const pts = el("tr", {}, el("th", { scope: "row", text: "Points" }));
  for (let s = 0; s < sides(); s++) {
    head.append(el("th", { scope: "col", text: sideName(s) }));
    row.append(el("td", { text: String(((byRounds ? v.rounds_won : v.score) || {})[String(s)] ?? 0) }));
    pts.append(el("td", { text: String((v.score || {})[String(s)] ?? 0) }));
  }
  table.append(head, row);
  if (byRounds) table.append(pts);
  box.append(table);
  if (rules.target) {
    box.append(el("p", { class: "help", text: byRounds ? `The match is ${rules.target} rounds; the most rounds won wins.`
      : `The match is played to ${rules.target} points.` }));
  }
}

// ---- moves, refusals, advice ----------------------------------------------

function sendMove(text) {
  if (T.gone) { showRefusal({ reason: goneText() }); return false; }
  // (a move sent and no state since: a second click or Enter is the same
  // move again, not the next one; the move's event comes before the state
  // that ends one's turn, so that event alone does not free the buttons)
  if (T.moveSent != null) return false;
  if (!myTurn()) { showRefusal({ reason: "It is not your turn." }, true); return false; }
  // (the board may ask once about a move that costs more than it seems:
  // the same move again is sent)
  if (T.board && T.board.doubt && T.board.doubt(text)) return false;
  hideRefusal();
  T.pendingMove = text;
  if (!T.wire.send({ type: "move", move: text })) {
    showRefusal({ reason: "Not connected: the move was not sent; play it again once the table is back." }, true);
    return false;
  }
  T.moveSent = "sent";
  return true;
}

// local: the page's own word (not your turn, not connected), which the
// next turn of one's own or the connection coming back makes stale.
function showRefusal(r, local) {
  T.refusalLocal = !!local;
  const box = $("#refusal");
  box.textContent = "";
  box.append(el("strong", { text: r.move ? `Refused: ${r.move}. ` : "" }));
  box.append(withRuleLinks(String(r.reason || r.message || "refused")));
  if (r.rule && !box.querySelector(`a.rule[href="${ruleHref(r.rule)}"]`)) {
    box.append(" ", el("span", { text: "See rule " }), ruleLink(r.rule), ".");
  }
  box.hidden = false;
}

function hideRefusal() { $("#refusal").hidden = true; $("#refusal").textContent = ""; T.refusalLocal = false; }

// The move box keeps what was typed until the move is played, so that a
// refused one can be mended rather than typed again.
function moveTaken() {
  const box = $("#movebox");
  if (T.boxSent != null && box.value === T.boxSent) box.value = "";
  T.boxSent = null;
}

function ask(kind) {
  const msg = { type: kind };
  if (kind === "why") {
    const text = $("#movebox").value.trim();
    if (!text) {
      $("#advice").textContent = "Type a move in the box (or its number) first: Why? tells whether that move is "
        + "allowed, and what it does.";
      $("#movebox").focus();
      return;
    }
    msg.move = /^\d+$/.test(text) ? Number(text) : text;
  }
  if (kind === "explain") msg.n = 1;
  T.coachAsked = false;
  $("#advice").textContent = "asking…";
  if (!T.wire.send(msg)) $("#advice").textContent = "Not connected.";
}

function showAdvice(m, fromCoach) {
  const box = $("#advice");
  box.textContent = "";
  if (fromCoach) box.append(el("h3", { text: "Coach" }));
  for (const line of m.lines || []) box.append(el("p", {}, withRuleLinks(String(line))));
}

// The coach, as `coach on` at the terminal: after each move of one's own,
// the server's word on it (an explain of that move). The server allows
// a few questions a minute (ADVICE_RATE): the page keeps the same
// bucket, and a move played faster than that goes without a word rather
// than drawing a "slow down".
const COACH_RATE = { burst: 3, perSecond: 0.2 };
function coachOnMove() {
  if (!$("#coach").checked || T.spectator) return;
  const now = Date.now() / 1000, b = T.coachBucket || { level: COACH_RATE.burst, at: now };
  b.level = Math.min(COACH_RATE.burst, b.level + (now - b.at) * COACH_RATE.perSecond);
  b.at = now;
  T.coachBucket = b;
  if (b.level < 1) return;
  b.level -= 1;
  T.coachAsked = true;
  $("#advice").textContent = "the coach is looking at your move…";
  if (!T.wire.send({ type: "explain", n: 1 })) T.coachAsked = false;
}

// ---- the log ----------------------------------------------------------------

function logLine(text, cls) {
  T.log.push({ text, cls });
  if (T.log.length > MAX_LOG) T.log.shift();
  const li = el("li", { class: cls || "" }, styledSentence(text));
  const log = $("#log");
  log.append(li);
  while (log.children.length > MAX_LOG) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

function styledSentence(text) {
  const frag = document.createDocumentFragment();
  String(text).split(/(\s+|[,.;:()+])/).forEach((w) => {
    if (/^(10|[2-9AJQK])[♣♦♥♠]$/.test(w)) {
      const suit = { "♣": "c", "♦": "d", "♥": "h", "♠": "s" }[w.slice(-1)];
      frag.append(el("span", { class: "cardtext suit-" + suit, text: w }));
    } else {
      frag.append(w);
    }
  });
  return frag;
}

function describe(ev) {
  const b = T.board && T.board.describe && T.board.describe(ev);
  if (b) return b;
  if (ev.type === "move") return `${name(ev.seat)}: ${ev.text || ev.move}`;
  if (ev.type === "round_start") return `Round ${ev.round}${ev.deal ? `, deal ${ev.deal}` : ""} begins.`;
  if (ev.type === "warning") return ev.message || "a warning";
  return ev.text || ev.type;
}

// ---- the result -------------------------------------------------------------

function showResult(m) {
  T.lastResult = m;
  const box = $("#result");
  const res = m.result || {};
  $("#result-h").textContent = m.kind === "match" ? "The match" : `Round ${res.rounds || ""}: the summary`;
  const bodyEl = $("#result-body");
  bodyEl.textContent = "";
  const drawn = T.board && T.board.result && T.board.result(m);
  if (drawn instanceof Element) {
    bodyEl.append(drawn);
  } else {
    const table = el("table", { class: "score" });
    const head = el("tr", {}, el("th", { text: "" }));
    const row = el("tr", {}, el("th", { scope: "row", text: "Score" }));
    for (let s = 0; s < sides(); s++) {
      head.append(el("th", { scope: "col", text: sideName(s) }));
      row.append(el("td", { text: String((res.score || {})[String(s)] ?? "") }));
    }
    table.append(head, row);
    bodyEl.append(table);
  }
  // (the next round is dealt without waiting for this box: it only closes)
  $("#result-close").textContent = m.kind === "match" ? "Close" : "Back to the table";
  box.hidden = false;
  $("#result-close").focus();
}

function closeResult() {
  $("#result").hidden = true;
  if (T.wire) T.wire.save({ result: null });
  (document.querySelector("#hand .card:not([disabled])") || $("#movebox")).focus();
}

// ---- messages ---------------------------------------------------------------

// (frames that come while a board loads wait for it: the log speaks the
// board's words, and the board sees every event)
function onMessage(m) {
  if (T.mounting && m.type !== "welcome") { T.waiting.push(m); return; }
  take(m);
}

function take(m) {
  const seq = Number.isInteger(m.seq) ? m.seq : null;
  switch (m.type) {
    case "welcome": onWelcome(m); return;
    case "state":
      if (T.moveSent === "taken") T.moveSent = null;
      applyState(m);
      break;
    case "event":
      if (m.event) {
        if (T.board) T.board.event(m.event);
        if (m.event.type === "move") T.lastMove = m.event;
        const text = describe(m.event);
        if (text) logLine(text, m.event.type === "round_start" ? "round" : "");
        if (m.event.type === "move" && m.event.seat === T.seat) {
          // (only a move this page just sent: not one replayed on a reconnect)
          if (T.pendingMove != null) {
            T.moveSent = "taken";
            moveTaken();
            hideRefusal();
            // (a hint or a word on the move before is stale now)
            $("#advice").textContent = "";
            coachOnMove();
          }
          T.pendingMove = null;
        }
        if (m.event.type === "round_start") {
          if (!T.coachAsked) $("#advice").textContent = "";
          // (the summary stays to be read, but says the table has moved on)
          if (!$("#result").hidden) {
            $("#result-body").append(el("p", { class: "next-round", text: `${describe(m.event)} It goes on behind this box.` }));
          }
        }
      }
      break;
    case "result":
      logLine(m.kind === "match" ? "The match is over." : "The round is over.", "round");
      showResult(m);
      break;
    case "seat":
      T.kinds[m.seat] = m.kind === "ai" ? "ai" : "person";
      logLine(m.kind === "ai" ? `${seatName(m.seat)} is played by an AI now${m.why ? `: ${m.why}` : ""}.`
        : `${seatName(m.seat)} is back.`, "notice");
      drawSeats();
      break;
    case "notice": logLine(m.message || "notice", "notice"); break;
    case "presence":
      T.connected = {};
      for (const [k, v] of Object.entries(m.connected || {})) T.connected[Number(k)] = !!v;
      T.watching = m.watching || 0;
      drawSeats();
      break;
    case "refusal":
      showRefusal(m);
      T.pendingMove = null;
      T.moveSent = null;
      if (T.boxSent != null) $("#movebox").select();
      T.boxSent = null;
      break;
    case "advice": showAdvice(m, T.coachAsked); T.coachAsked = false; break;
    case "error":
      T.moveSent = null;
      // (the coach's own question that found nothing to say stays quiet)
      if (T.coachAsked && ["rate-limited", "not-offered", "internal"].includes(m.code)) {
        T.coachAsked = false;
        $("#advice").textContent = "";
        break;
      }
      if (m.code === "rate-limited" || m.code === "not-offered" || m.code === "internal") {
        $("#advice").textContent = m.message;
      }
      if (["out-of-turn", "not-your-seat", "too-large", "bad-field"].includes(m.code)) showRefusal(m);
      if (m.code === "replaced" || m.code === "bad-token") setConn("gone", m.message);
      break;
    default: break;
  }
  if (seq != null && ["state", "event", "result", "seat", "notice"].includes(m.type)) {
    T.seq = seq;
    body.dataset.seq = String(seq);
    T.wire.save({ state: T.state, log: T.log.slice(-80), kinds: T.kinds, move: T.lastMove || null,
      result: $("#result").hidden ? null : T.lastResult });
  }
}

async function onWelcome(m) {
  const first = !T.welcome;
  T.moveSent = null;
  T.welcome = m;
  T.seat = Number.isInteger(m.seat) ? m.seat : null;
  T.spectator = !!m.spectator;
  for (const [k, v] of Object.entries(m.seats || {})) T.kinds[Number(k)] = v;
  if (m.connected) {
    T.connected = {};
    for (const [k, v] of Object.entries(m.connected)) T.connected[Number(k)] = !!v;
  }
  if (Number.isInteger(m.watching)) T.watching = m.watching;
  if (m.resume !== "replay") T.seq = m.seq || 0;
  body.dataset.seq = String(T.seq);
  const title = gameTitle(m);
  $("#title").textContent = title;
  if (first || !T.board) {
    T.mounting = true;
    T.waiting = [];
    try { await mountBoard(m); } finally {
      T.mounting = false;
      const w = T.waiting;
      T.waiting = [];
      for (const x of w) take(x);
    }
  }
  if (m.resume !== "replay" && Array.isArray(m.history) && m.history.length && !T.log.length) {
    for (const h of m.history) {
      // (a board that reads its moves back says them as live; else the text)
      const move = h && typeof h === "object" && Number.isInteger(h.seat) && h.kind;
      const said = move && T.board && T.board.describeHistory ? T.board.describeHistory(h) : null;
      const t = typeof h === "string" ? h : h && (h.text || h.move);
      if (said) logLine(said);
      else if (t) logLine(move ? `${name(h.seat)}: ${t}` : String(t));
    }
  }
  rememberRoom({ link: location.href, title, seat: T.seat, kind: T.spectator ? "watch" : "play" });
  if (T.state) applyState(T.state);
  else { drawSeats(); drawMoves(); }
  // (a reload while the round's summary was up: it is shown again)
  if (first && T.wire.saved && T.wire.saved.result && m.resume === "replay") showResult(T.wire.saved.result);
}

async function mountBoard(w) {
  const root = $("#board");
  if (T.board) { T.board.destroy(); T.board = null; }
  root.textContent = "";
  const mod = await boardFor(w.game);
  if (!mod) {
    root.append(el("p", { class: "error", text: `This page has no board for ${w.game}; the moves below still play.` }));
    return;
  }
  T.board = mod.createBoard(root, {
    seat: T.seat, spectator: T.spectator, welcome: w, send: sendMove, cardElement, cardName, cardText,
    ruleLink, fourColour, name, sideName,
  });
  // (after a reload the board has seen no event: the last move is told again)
  if (T.lastMove) T.board.event(T.lastMove);
  if (T.state) T.board.update(T.state);
}

function setConn(status, detail) {
  const c = $("#conn");
  body.dataset.connected = String(status === "open");
  c.className = "conn " + status;
  if (status === "open") c.textContent = detail && detail.spectator ? "connected · watching" : "connected";
  else if (status === "connecting") c.textContent = "connecting…";
  else if (status === "retry") c.textContent = detail ? `connection lost; again in ${detail} s…` : "reconnecting…";
  else c.textContent = `disconnected: ${detail}`;
  if (status === "open" && T.refusalLocal) hideRefusal();
  if (status === "gone") {
    T.gone = String(detail || "the connection is closed");
    body.dataset.myTurn = "false";
    drawTurn();
    drawMoves();
  }
}

// ---- keyboard and options ---------------------------------------------------

function setupControls() {
  const four = $("#four-colour");
  four.checked = localStorage.getItem(FOUR_KEY) === "true";
  body.classList.toggle("four-colour", four.checked);
  four.addEventListener("change", () => {
    localStorage.setItem(FOUR_KEY, String(four.checked));
    body.classList.toggle("four-colour", four.checked);
    if (T.board && T.state) T.board.update(T.state);
  });
  $("#move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const box = $("#movebox");
    let text = box.value.trim();
    if (!text) return;
    // (the board's word first: a number may be a bid there, not a move's)
    const why = myTurn() && T.board && T.board.typed && T.board.typed(text, T.state);
    if (why) { showRefusal({ reason: why }); box.select(); return; }
    if (/^\d+$/.test(text) && T.state && Array.isArray(T.state.moves)) {
      const m = T.state.moves[Number(text) - 1];
      if (m) text = m;
    }
    T.boxSent = box.value;
    if (!sendMove(text)) T.boxSent = null;
  });
  $("#hint").addEventListener("click", () => ask("hint"));
  $("#why").addEventListener("click", () => ask("why"));
  $("#explain").addEventListener("click", () => ask("explain"));
  const coach = $("#coach");
  coach.checked = localStorage.getItem(COACH_KEY) === "true";
  coach.addEventListener("change", () => localStorage.setItem(COACH_KEY, String(coach.checked)));
  $("#result-close").addEventListener("click", closeResult);
  document.addEventListener("keydown", (e) => {
    const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement?.tagName || "");
    if (e.key === "/" && !typing) { e.preventDefault(); $("#movebox").focus(); }
    if (e.key === "Escape" && !$("#result").hidden) closeResult();
  });
  const base = basePath();
  $("#rules-link").href = `${base}/rules`;
  $("#lobby-link").href = `${base}/`;
}

function start() {
  setupControls();
  const link = parseLink(location.href);
  if (!link) {
    $("#board").append(el("p", { class: "error",
      text: "This page needs a room's link: /play#ROOM:TOKEN or /watch#ROOM:TOKEN (from the lobby)." }));
    setConn("gone", "no room in the link");
    return;
  }
  T.wire = new Wire({ room: link.room, token: link.token, onMessage, onStatus: setConn });
  // (a reload: what the page showed comes back at once; the frames missed
  // follow the hello that says the last seq)
  const saved = T.wire.saved;
  if (saved) {
    Object.assign(T.kinds, saved.kinds || {});
    for (const l of saved.log || []) logLine(l.text, l.cls);
    if (saved.state) T.state = saved.state;
    if (saved.move) T.lastMove = saved.move;
    T.seq = saved.last;
    body.dataset.seq = String(T.seq);
  }
  T.wire.connect();
}

start();
