// The connection to `diloti serve` (docs/protocol.md): the WebSocket at
// /ws under the pages' base, subprotocol diloti.v1; a seat's stream read
// once in order (a replay may repeat frames), the last seq kept in
// sessionStorage so that a reload says `last` and gets what it missed;
// reconnecting after a drop. Also the links and the rooms this browser
// joined (localStorage).

export const VERSION = 1;
const STREAM = new Set(["state", "event", "result", "seat", "notice"]);
const GONE = { replaced: "this seat was opened in another tab or window", "bad-token": "no such room or token" };

/** The pages' base: the path before /play, /watch or /rules ("" at the root). */
export function basePath(pathname = location.pathname) {
  return pathname.replace(/\/(play|watch|rules)\/?$/, "").replace(/\/(index\.html)?$/, "");
}

/** The WebSocket's address: ws(s)://host/BASE/ws. */
export function wsUrl() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${basePath()}/ws`;
}

/** {kind: "play"|"watch", room, token, href} of a link (or of location), or
 * null. Only an http(s) address whose path ends in /play or /watch is one
 * (a "javascript:" text that ended like a link was taken for one); href is
 * the address made again from its parts, the one to go to. */
export function parseLink(text) {
  let u;
  try { u = new URL(String(text || "").trim(), location.href); } catch (_) { return null; }
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  const path = /\/(play|watch)\/?$/.exec(u.pathname);
  const hash = /^#([0-9a-fA-F]{64}):([0-9a-fA-F]{64})$/.exec(u.hash);
  if (!path || !hash || u.username || u.password) return null;
  const kind = path[1], room = hash[1].toLowerCase(), token = hash[2].toLowerCase();
  return { kind, room, token, href: `${u.origin}${u.pathname}#${room}:${token}` };
}

// ---- rooms this browser joined (localStorage) ----------------------------

const ROOMS_KEY = "diloti.rooms";
const MAX_ROOMS = 30;

export function myRooms() {
  try {
    const list = JSON.parse(localStorage.getItem(ROOMS_KEY) || "[]");
    return Array.isArray(list) ? list.filter((r) => r && typeof r.link === "string" && parseLink(r.link)) : [];
  } catch (_) {
    return [];
  }
}

/** Remembers a link (newest first; one entry a link). r: {link, title, seat, kind}. */
// A room's link as one key: "/play#R:T" and "/play/#R:T" are the same seat.
function linkKey(link) {
  try {
    const u = new URL(link, location.href);
    return `${u.origin}${u.pathname.replace(/\/+$/, "")}${u.hash}`;
  } catch (_) {
    return String(link);
  }
}

export function rememberRoom(r) {
  const key = linkKey(r.link);
  const rooms = myRooms();
  const before = rooms.find((x) => linkKey(x.link) === key);
  const list = rooms.filter((x) => linkKey(x.link) !== key);
  // (the spelling first kept stays: the invitation's, as it was shared)
  list.unshift({ ...r, link: before ? before.link : r.link, when: new Date().toISOString() });
  try {
    localStorage.setItem(ROOMS_KEY, JSON.stringify(list.slice(0, MAX_ROOMS)));
  } catch (_) { /* (private mode: nothing kept) */ }
}

export function forgetRoom(link) {
  try {
    localStorage.setItem(ROOMS_KEY, JSON.stringify(myRooms().filter((x) => linkKey(x.link) !== linkKey(link))));
  } catch (_) { /* nothing kept */ }
}

// ---- a lobby connection: ask, wait for the answer --------------------------

/** Opens a connection for the lobby: {request(msg, types) -> Promise, close()}. */
export function lobbyConnection(onStatus) {
  let ws;
  let waiting = [];
  let opened;
  function open() {
    opened = new Promise((resolve, reject) => {
      ws = new WebSocket(wsUrl(), "diloti.v1");
      ws.onopen = () => { onStatus && onStatus("open"); resolve(); };
      ws.onerror = () => reject(new Error("cannot reach the server"));
      ws.onclose = () => {
        onStatus && onStatus("closed");
        for (const w of waiting) w.reject(new Error("the connection to the server closed"));
        waiting = [];
        opened = null;
      };
      ws.onmessage = (e) => {
        let m;
        try { m = JSON.parse(e.data); } catch (_) { return; }
        const w = waiting.find((x) => x.types.includes(m.type));
        if (w) {
          waiting = waiting.filter((x) => x !== w);
          w.resolve(m);
        }
      };
    });
    return opened;
  }
  return {
    async request(msg, types) {
      if (!opened) open();
      await opened;
      return new Promise((resolve, reject) => {
        waiting.push({ types: types.concat(["error"]), resolve, reject });
        ws.send(JSON.stringify({ v: VERSION, ...msg }));
      });
    },
    close() { if (ws) ws.close(); },
  };
}

// ---- a table's connection -------------------------------------------------

/**
 * new Wire({room, token, onMessage(msg, fresh), onStatus(status, detail)}).
 * Stream frames come once each, in order; replies as they come. status:
 * "connecting", "open" (welcomed), "retry" (detail: seconds), "gone"
 * (detail: why; no more tries).
 */
export class Wire {
  constructor(o) {
    this.o = o;
    this.key = `diloti.seat.${o.room}.${o.token.slice(0, 16)}`;
    this.saved = this.load();
    this.last = this.saved ? this.saved.last : null;
    this.tries = 0;
    this.gone = null;
  }

  load() {
    try {
      const s = JSON.parse(sessionStorage.getItem(this.key) || "null");
      return s && Number.isInteger(s.last) ? s : null;
    } catch (_) {
      return null;
    }
  }

  /** Keeps what a reload needs: the last seq and what the page shows. */
  save(extra) {
    this.saved = { ...(this.saved || {}), ...extra, last: this.last };
    try { sessionStorage.setItem(this.key, JSON.stringify(this.saved)); } catch (_) { /* full */ }
  }

  connect() {
    if (this.gone) return;
    this.o.onStatus("connecting");
    const ws = new WebSocket(wsUrl(), "diloti.v1");
    this.ws = ws;
    ws.onopen = () => {
      const hello = { v: VERSION, type: "hello", room: this.o.room, token: this.o.token };
      // (first load without a saved seq: 0, the frames so far while the
      // backlog holds them, so the log shows the round's moves)
      hello.last = this.last == null ? 0 : this.last;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (e) => this.take(e.data);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.gone) { this.o.onStatus("gone", this.gone); return; }
      const wait = [0, 1, 2, 4, 8, 15][Math.min(this.tries, 5)];
      this.tries += 1;
      this.o.onStatus("retry", wait);
      this.timer = setTimeout(() => this.connect(), wait * 1000);
    };
  }

  take(text) {
    let m;
    try { m = JSON.parse(text); } catch (_) { return; }
    if (!m || typeof m !== "object") return;
    const seq = Number.isInteger(m.seq) ? m.seq : null;
    if (STREAM.has(m.type)) {
      if (seq == null || (this.last != null && seq <= this.last)) return;
      this.last = seq;
    } else if (m.type === "welcome") {
      this.tries = 0;
      // (fresh: the numbering starts again from the welcome's seq; a
      // restarted server numbers its streams anew)
      if (m.resume !== "replay") this.last = seq || 0;
      this.o.onStatus("open", m);
    } else if (m.type === "error" && GONE[m.code]) {
      this.gone = GONE[m.code];
    }
    this.o.onMessage(m);
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ v: VERSION, ...msg }));
    return true;
  }

  close() {
    this.gone = "closed";
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
