// Helpers over the pages' DOM hooks (the contract of issue 28: body's
// data-* attributes, window.dilotiTable, #moves, #hand, ...). Every wait
// is bounded (harness.WAIT unless told).
import { WAIT, newPage } from './harness.mjs';

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
