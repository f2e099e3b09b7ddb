// The lobby (/): make a room from the server's catalogue (games, house
// rules, AIs), hand out its links, rejoin rooms this browser joined.
import { el } from "./dom.js";
import { lobbyConnection, myRooms, rememberRoom, forgetRoom, parseLink } from "./wire.js";

const $ = (sel) => document.querySelector(sel);
const conn = lobbyConnection((s) => {
  if (s === "closed") status("The connection to the server closed; it is made again when you act.");
});
let catalogue = null;

function status(text) { $("#lobby-status").textContent = text; }

function gameOf(id) {
  return (catalogue && catalogue.games.find((g) => g.id === id)) || null;
}

// ---- the form ---------------------------------------------------------------

function seatOptions(house) {
  const ai = catalogue && catalogue.ai[house];
  const opts = [el("option", { value: "person", text: "a person (gets an invitation)" })];
  if (!ai) {
    opts.push(el("option", { value: "ai:normal", text: "AI, normal" }));
    return opts;
  }
  const levels = el("optgroup", { label: "AI by level" });
  for (const l of ai.levels) levels.append(el("option", { value: "ai:" + l, text: "AI, " + l }));
  const shipped = el("optgroup", { label: "AI by name (weakest first)" });
  for (const a of ai.shipped) {
    shipped.append(el("option", { value: "ai:" + a.name, text: `AI ${a.name}: ${a.description}` }));
  }
  opts.push(levels, shipped);
  return opts;
}

function drawSeats() {
  const g = gameOf($("#game").value) || { players: /-(\d)$/.exec($("#game").value)?.[1] || 4, house: "diloti" };
  const rows = $("#seat-rows");
  const old = [...rows.querySelectorAll("select")].map((s) => s.value);
  const oldNames = [...rows.querySelectorAll("input")].map((s) => s.value);
  rows.textContent = "";
  for (let i = 0; i < Number(g.players); i++) {
    const sel = el("select", { name: "seat-" + i, id: "seat-" + i, "aria-label": `Seat ${i}: who plays` });
    sel.append(...seatOptions(g.house));
    const want = old[i] || (i === 0 ? "person" : "ai:normal");
    sel.value = [...sel.options].some((o) => o.value === want) ? want : (i === 0 ? "person" : sel.options[1]?.value);
    const name = el("input", { name: "name-" + i, type: "text", maxlength: "32", placeholder: "name (optional)",
      "aria-label": `Seat ${i}: name` });
    name.value = oldNames[i] || "";
    const team = g.house === "pilotta" || (g.id === "diloti-4") ? ` (team ${i % 2 === 0 ? "A" : "B"})` : "";
    rows.append(el("div", { class: "seat-row" }, el("label", { for: "seat-" + i, text: `Seat ${i}${team}` }), sel,
      name));
  }
}

function ruleHref(id) { return "rules#" + encodeURIComponent(id); }

function drawHouseRules() {
  const g = gameOf($("#game").value);
  const box = $("#house-rules");
  if (!g) return;
  const checked = new Set([...box.querySelectorAll("input[name=variant]:checked")].map((c) => c.value));
  box.textContent = "";
  // (only those the chosen table can be played with: the server says which)
  for (const v of (catalogue.house_rules[g.house] || []).filter((x) => !x.tables || x.tables.includes(g.id))) {
    const id = "v-" + v.name;
    const input = el("input", { type: "checkbox", name: "variant", value: v.name, id });
    input.checked = checked.has(v.name);
    // (a complaint about the rules goes once they change)
    input.addEventListener("change", () => { $("#create-error").textContent = ""; });
    const label = el("label", { for: id }, el("span", { class: "v-name", text: v.name }), " ",
      el("span", { class: "v-desc", text: v.description }));
    const row = el("div", { class: "variant" }, input, label);
    if (v.arg) {
      const n = el("input", { type: "number", min: "1", max: "100000", name: "arg-" + v.name,
        "aria-label": `${v.name}: ${v.arg}`, placeholder: v.arg, class: "arg" });
      n.addEventListener("input", () => { if (n.value) input.checked = true; });
      row.append(n);
    }
    if (v.rule) row.append(" ", el("a", { href: ruleHref(v.rule), class: "rule", text: v.rule, target: "_blank" }));
    box.append(row);
  }
  if (!box.children.length) box.append(el("p", { class: "help", text: "none for this game" }));
}

function rulesSpec(g) {
  const parts = [g.rules];
  for (const c of document.querySelectorAll("#house-rules input[name=variant]:checked")) {
    const arg = document.querySelector(`#house-rules input[name="arg-${CSS.escape(c.value)}"]`);
    if (arg) {
      if (!arg.value) throw new Error(`${c.value} needs a number`);
      parts.push(`${c.value}=${Number(arg.value)}`);
    } else {
      parts.push(c.value);
    }
  }
  return parts.join("+");
}

async function create(ev) {
  ev.preventDefault();
  $("#create-error").textContent = "";
  const g = gameOf($("#game").value);
  if (!g) { $("#create-error").textContent = "The server's list of games has not come yet."; return; }
  let rules;
  try { rules = rulesSpec(g); } catch (e) { $("#create-error").textContent = e.message; return; }
  const seats = [];
  const names = [];
  for (let i = 0; i < g.players; i++) {
    seats.push(document.querySelector(`select[name=seat-${i}]`).value);
    names.push(document.querySelector(`input[name=name-${i}]`).value.trim());
  }
  const msg = { type: "create", rules, players: g.players, seats, names };
  const target = $("#target").value.trim();
  if (target) msg.target = Number(target);
  msg.pace = Number($("#pace").value);
  msg.takeover = Number($("#takeover").value);
  $("#create").disabled = true;
  try {
    const r = await conn.request(msg, ["created"]);
    if (r.type === "error") {
      $("#create-error").textContent = `The server refused the room: ${r.message}`;
      return;
    }
    showCreated(r, g, names);
  } catch (e) {
    $("#create-error").textContent = e.message;
  } finally {
    $("#create").disabled = false;
  }
}

// ---- links ------------------------------------------------------------------

function copyButton(link, label) {
  const b = el("button", { type: "button", class: "copy", "aria-label": `Copy ${label}`, text: "Copy" });
  b.addEventListener("click", () => copy(link, b));
  return b;
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch (_) {
    // (no clipboard without https or permission: select it for the user)
    const i = el("input", { value: text, "aria-label": "the link" });
    button.after(i);
    i.select();
    button.textContent = "Select and copy";
  }
  setTimeout(() => { button.textContent = "Copy"; }, 2500);
}

function showCreated(r, g, names) {
  const list = $("#invites");
  list.textContent = "";
  for (const s of r.seats) {
    const given = names[s.seat] || (s.name && s.name !== `seat ${s.seat}` ? s.name : "");
    const a = el("a", { class: "invite", href: s.link, dataset: { seat: String(s.seat) },
      text: `Seat ${s.seat}${given ? ` (${given})` : ""}: invitation` });
    a.addEventListener("click", () => rememberRoom({ link: s.link, title: g.title, seat: s.seat, kind: "play" }));
    list.append(el("li", {}, a, " ", copyButton(s.link, `seat ${s.seat}'s invitation`)));
  }
  // (the maker keeps the room's watch link; a seat's is kept when opened)
  rememberRoom({ link: r.watch, title: g.title, kind: "watch" });
  drawMyRooms();
  const w = $("#watch-link");
  w.href = r.watch;
  w.textContent = "watch link";
  const old = document.querySelector("#created .links-watch button.copy");
  old.replaceWith(copyButton(r.watch, "the watch link"));
  w.onclick = () => rememberRoom({ link: r.watch, title: g.title, kind: "watch" });
  $("#created").hidden = false;
  $("#created-h").textContent = `Your room: ${g.title}`;
  $("#created").scrollIntoView({ block: "start" });
  $("#invites a.invite")?.focus();
}

function drawMyRooms() {
  const list = $("#my-rooms");
  const rooms = myRooms();
  list.textContent = "";
  if (!rooms.length) { list.append(el("li", { class: "help", text: "none yet" })); return; }
  for (const r of rooms) {
    const what = r.kind === "watch" ? "watching" : `seat ${r.seat ?? "?"}`;
    const when = r.when ? new Date(r.when).toLocaleString() : "";
    const a = el("a", { href: parseLink(r.link).href, text: `${r.title || "a room"}, ${what}` });
    const forget = el("button", { type: "button", class: "small", "aria-label": `Forget ${a.textContent}`,
      text: "Forget" });
    forget.addEventListener("click", () => { forgetRoom(r.link); drawMyRooms(); });
    list.append(el("li", {}, a, " ", el("span", { class: "help", text: when }), " ", forget));
  }
}

function rejoin(ev) {
  ev.preventDefault();
  const text = $("#rejoin-link").value.trim();
  const p = parseLink(text);
  if (!p) {
    $("#rejoin-error").textContent = "Not a room's link: it looks like http://HOST/play#ROOM:TOKEN (or /watch#…).";
    return;
  }
  location.href = p.href;
}

// ---- start ------------------------------------------------------------------

async function start() {
  $("#create-form").addEventListener("submit", create);
  $("#rejoin-form").addEventListener("submit", rejoin);
  $("#game").addEventListener("change", () => { drawSeats(); drawHouseRules(); });
  drawSeats();
  drawMyRooms();
  try {
    const m = await conn.request({ type: "catalogue" }, ["catalogue"]);
    if (m.type !== "catalogue") throw new Error(m.message || "no catalogue");
    catalogue = m;
    const sel = $("#game");
    const was = sel.value;
    sel.textContent = "";
    for (const g of m.games) sel.append(el("option", { value: g.id, text: g.title }));
    sel.value = was;
    drawSeats();
    drawHouseRules();
    status("");
    document.body.dataset.ready = "true";
  } catch (e) {
    status(`The server's list of games did not come (${e.message}); reload to try again.`);
  }
}

start();
