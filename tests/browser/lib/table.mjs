// Helpers over the pages' DOM hooks (the contract of issue 28: body's
// data-* attributes, window.dilotiTable, #moves, #hand, ...). Every wait
// is bounded (harness.WAIT unless told).
import { WAIT, ctx, newPage } from './harness.mjs';
import assert from 'node:assert/strict';

/** Makes a room through the lobby's WebSocket from a page of the server's
 * origin (not the lobby under test): the `created` answer. */
export async function createRoom(page, msg) {
  return page.evaluate(async ({ m, wait }) => {
    const url = new URL('/ws', location.href).href.replace(/^http/, 'ws');
    const ws = new WebSocket(url, 'diloti.v1');
    try {
      return await new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error('no answer to create')), wait);
        ws.onopen = () => ws.send(JSON.stringify({ v: 1, type: 'create', ...m }));
        ws.onmessage = (e) => {
          const f = JSON.parse(e.data);
          clearTimeout(t);
          if (f.type === 'created') resolve(f); else reject(new Error(`create: ${e.data}`));
        };
        ws.onerror = () => { clearTimeout(t); reject(new Error('the WebSocket failed')); };
      });
    } finally { ws.close(); }
  }, { m: msg, wait: WAIT });
}

/** Opens a link (play or watch) in a new context: the page once connected. */
export async function openTable(link, opts = {}) {
  const page = await newPage(opts);
  await page.goto(link, { timeout: WAIT });
  await connected(page);
  return page;
}

export async function connected(page) {
  await page.waitForSelector('body[data-page="table"][data-connected="true"]', { timeout: WAIT });
  await page.waitForFunction(() => window.dilotiTable && window.dilotiTable.state, null, { timeout: WAIT });
}

/** window.dilotiTable, copied out of the page. */
export async function table(page) {
  return page.evaluate(() => JSON.parse(JSON.stringify(window.dilotiTable || null)));
}

/** Waits until the page has applied a frame past seq (body data-seq). */
export async function pastSeq(page, seq, timeout = WAIT) {
  await page.waitForFunction((s) => Number(document.body.dataset.seq || 0) > s, seq, { timeout });
}

/** Waits until it is this page's turn, or the round or match is over
 * (a #result shown, or no turn at all): 'turn' | 'result' | 'none'. */
export async function waitMyTurnOrEnd(page, timeout = WAIT) {
  const h = await page.waitForFunction(() => {
    const b = document.body.dataset;
    const res = document.querySelector('#result');
    const shown = res && !res.hidden && (res.open === undefined || res.open) && res.offsetParent !== null;
    if (shown) return 'result';
    if (b.myTurn === 'true' && document.querySelector('#moves button[data-move]')) return 'turn';
    return false;
  }, null, { timeout, polling: 50 });
  return h.jsonValue();
}

/** The seat's legal moves as the page offers them (#moves buttons). */
export async function offeredMoves(page) {
  return page.$$eval('#moves button[data-move]', (bs) => bs.map((b) => b.dataset.move));
}

/** Every card code in the page's DOM (data-card) and the aria-labels. */
export async function domCards(page) {
  return page.evaluate(() => ({
    html: document.documentElement.outerHTML,
    cards: [...document.querySelectorAll('[data-card]')].map((e) => e.dataset.card),
  }));
}

/** Records every frame the page receives on its WebSockets (what the server
 * said, to check the page against): call before the page connects. */
export function wire(page) {
  const w = { frames: [] };
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => {
      try { w.frames.push(JSON.parse(String(f.payload))); } catch { /* not ours */ }
    });
  });
  w.sent = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => {
      try { w.sent.push(JSON.parse(String(f.payload))); } catch { /* not ours */ }
    });
  });
  w.last = (pred) => { for (let i = w.frames.length - 1; i >= 0; i--) if (pred(w.frames[i])) return w.frames[i]; return null; };
  w.lastState = () => w.last((f) => f.type === 'state');
  w.find = (pred) => w.frames.find(pred);
  return w;
}

/** Waits (bounded, polling) until fn() is truthy: its value. */
export async function until(fn, what, timeout = WAIT) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the page rests on the server's newest state: body data-seq
 * is the seq of the last state the wire carried, and window.dilotiTable
 * holds that state. The state. */
export async function settled(page, w, timeout = WAIT) {
  return until(async () => {
    const st = w.lastState();
    if (!st) return null;
    const ok = await page.evaluate((seq) => Number(document.body.dataset.seq) >= seq
      && window.dilotiTable && window.dilotiTable.state && window.dilotiTable.state.seq === seq, st.seq);
    return ok && w.lastState() === st ? st : null;
  }, 'the page to apply the last state', timeout);
}

/** The seat's next moment: its turn (the newest state, past seq `after`,
 * offers it moves) or the end of the round (a result frame after index
 * `from`). After a move, `after` is its event's seq: the state before it
 * offered moves too. */
export async function nextTurn(page, w, from, after = 0, timeout = WAIT) {
  return until(async () => {
    const res = w.frames.slice(from).find((f) => f.type === 'result');
    if (res) return { result: res };
    const st = w.lastState();
    if (st && st.seq > after && st.moves && st.moves.length) {
      const s = await settled(page, w, timeout);
      if (s === st && (await page.getAttribute('body', 'data-my-turn')) === 'true') return { state: st };
    }
    return null;
  }, 'the seat\'s turn or the round\'s end', timeout);
}

const SUITS = { c: 'clubs', d: 'diamonds', h: 'hearts', s: 'spades' };
const RANKS = { A: 'ace', J: 'jack', Q: 'queen', K: 'king' };
const SYMBOLS = { c: '♣', d: '♦', h: '♥', s: '♠' };

/** The ways a page could name a card: its code (7h), with a suit symbol
 * (7♥), its spoken name (7 of hearts, ace of spades). */
export function cardForms(code) {
  const m = code.match(/^(10|[2-9AJQK])([cdhs])$/);
  if (!m) return [code];
  const [, r, s] = m;
  return [code, r + SYMBOLS[s], `${RANKS[r] || r} of ${SUITS[s]}`];
}

/** Where a text names the card: a code or symbol form standing alone (not
 * inside a longer word or a hex token), or its name. Matches whose
 * surroundings are also in `staticText` (the page's own file, as served:
 * an example in a placeholder) are the page's, not the game's. The first
 * other match with its surroundings, or null. */
export function namesCard(text, code, staticText = '') {
  for (const f of cardForms(code)) {
    const esc = f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const re = f.includes(' ') ? new RegExp(`\\b${esc}\\b`, 'gi') : new RegExp(`(?<![0-9A-Za-z])${esc}(?![0-9A-Za-z])`, 'g');
    for (const m of text.matchAll(re)) {
      const near = text.slice(Math.max(0, m.index - 12), m.index + f.length + 12);
      if (staticText && staticText.includes(near)) continue;
      return text.slice(Math.max(0, m.index - 60), m.index + f.length + 60);
    }
  }
  return null;
}

/**
 * A room of AIs at pace 0 (they play the match out at once, far past the
 * 256 frames a stream keeps), watched late from a browser of its own (a
 * page keeps its last number): the page and its welcome, a fresh one with
 * the history, as a latecomer gets it (o.over: once the match is over).
 */
export async function lateWatcher(msg, o = {}) {
  let page = await newPage();
  await page.goto(`${ctx.base}/`);
  const cr = await createRoom(page, msg);
  await page.context().close();
  let welcome = null;
  for (let i = 0; i < 20; i++) {
    page = await newPage();
    const w = wire(page);
    await page.goto(cr.watch);
    await connected(page);
    welcome = await until(() => w.frames.find((f) => f.type === 'welcome'), 'the welcome');
    // (o.over: only once the match is over, so that no live event follows)
    const over = !o.over || await until(() => w.frames.find((f) => f.type === 'state'), 'the state')
      .then((f) => f.view && f.view.phase === 'match-over');
    if (over && welcome.resume === 'fresh' && (welcome.history || []).length) break;
    await page.context().close();
    await new Promise((r) => setTimeout(r, 500));
  }
  return { page, welcome };
}

/** A late watcher's log (lateWatcher with o.over): checks that its welcome
 * is a fresh one with moves in its history, waits for the log to hold them
 * (its last 300 lines, fewer once cut) with nothing live after them, and
 * gives the history's moves and the log's lines. */
export async function lateLog(page, welcome) {
  assert.equal(welcome.resume, 'fresh', 'the backlog no longer reaches back');
  const moves = welcome.history.filter((h) => h && h.kind && Number.isInteger(h.seat));
  assert.ok(moves.length >= 2, 'moves in the history');
  await page.waitForFunction((k) => document.querySelectorAll('#log li').length >= k, Math.min(moves.length, 250));
  assert.equal(await page.evaluate(() => window.dilotiTable.state.view.phase), 'match-over', 'nothing live after the history');
  return { moves, log: await page.$$eval('#log li', (es) => es.map((e) => e.textContent)) };
}
