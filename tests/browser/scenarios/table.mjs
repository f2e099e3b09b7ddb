// Issue 28, around the game (a Diloti room, one person against an AI at
// pace 0): a reload mid-round returns to the same seat and state; a
// refused move shows its rule id and the link opens that rule; keyboard
// alone plays a few moves; screenshots at 375 px and on a desktop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ctx, newPage, screenshot, WAIT } from '../lib/harness.mjs';
import { createRoom, wire, connected, settled, nextTurn, until, lateWatcher, lateLog } from '../lib/table.mjs';
import { checkDiloti, dilotiDom } from '../lib/diloti.mjs';

/** A Diloti room (person at seat 0, an AI at seat 1; extra: other fields
 * of the create) and seat 0's page. */
async function dilotiRoom(seed, viewport, extra = {}) {
  const page = await newPage({ viewport });
  await page.goto(`${ctx.base}/`);
  const cr = await createRoom(page, { rules: 'diloti', players: 2, seats: ['person', 'ai'], names: ['Ann', ''], pace: 0, seed, ...extra });
  const w = wire(page);
  await page.goto(cr.seats[0].link);
  await connected(page);
  return { page, w, cr };
}

/** Plays the seat's move with its #moves button; the next turn's state. */
async function playButton(page, w, move) {
  const before = w.frames.length;
  await page.click(`#moves button[data-move="${move}"]`);
  const ev = await until(() => w.frames.slice(before).find((f) => ['event', 'refusal', 'error'].includes(f.type)), `the answer to ${move}`);
  assert.equal(ev.type, 'event', JSON.stringify(ev));
  return nextTurn(page, w, before, ev.seq);
}

test('reload: mid-round, the page comes back to the same seat and state', { timeout: 120000 }, async () => {
  const { page, w } = await dilotiRoom(11);
  try {
    let r = await nextTurn(page, w, 0);
    for (let i = 0; i < 3; i++) r = await playButton(page, w, r.state.moves[0]);
    const before = await settled(page, w);
    const dom = await dilotiDom(page);
    const lastMove = await page.innerText('#last-move');
    assert.match(lastMove, /Last move:/, 'the last move is said');
    const seq = Number(await page.getAttribute('body', 'data-seq'));
    const last = await page.evaluate(() => JSON.stringify(sessionStorage));
    assert.match(last, new RegExp(`\\b${seq}\\b`), 'the last seq is kept in sessionStorage');
    const n = w.frames.length;
    await page.reload();
    await connected(page);
    const welcome = await until(() => w.frames.slice(n).find((f) => f.type === 'welcome'), 'the welcome after the reload');
    assert.equal(welcome.seat, 0, 'the same seat');
    const hello = w.sent.filter((m) => m.type === 'hello').pop();
    assert.equal(hello.last, seq, 'the hello says the last seq seen');
    assert.equal(welcome.resume, 'replay', 'the server replays what the page missed (nothing)');
    const t = await page.evaluate(() => JSON.parse(JSON.stringify({ seat: window.dilotiTable.welcome.seat, state: window.dilotiTable.state })));
    assert.equal(t.seat, 0);
    assert.deepEqual(t.state.view, before.view, 'the same state');
    assert.deepEqual(t.state.moves, before.moves, 'the same legal moves');
    await page.waitForSelector('body[data-my-turn="true"]');
    assert.deepEqual(await dilotiDom(page), dom, 'the same board');
    assert.equal(await page.innerText('#last-move'), lastMove, 'the last move is still said');
    // and it plays on from there
    await playButton(page, w, t.state.moves[0]);
    assert.deepEqual(page.errors, [], 'no script error');
  } finally {
    await page.context().close();
  }
});

test('a late spectator: the moves it is sent (past the backlog) are told in sentences, as live', { timeout: 120000 }, async () => {
  const { page, welcome } = await lateWatcher({ rules: 'diloti', players: 2, seats: ['ai', 'ai'], pace: 0, seed: 21 },
    { over: true });
  try {
    const { moves, log } = await lateLog(page, welcome);
    assert.equal(log.filter((t) => /^[^:]+: \S+ (x|lay|\+)\b/.test(t)).length, 0, `no line in raw notation: ${JSON.stringify(log)}`);
    assert.ok(log.filter((t) => / (captured|laid|declared a plain|raised|made a group)/.test(t)).length >= Math.min(moves.length, 2),
      `sentences: ${JSON.stringify(log)}`);
    await screenshot(page, 'late-spectator-log');
    assert.deepEqual(page.errors, [], 'no script error');
  } finally {
    await page.context().close();
  }
});

test('refusal: a refused move shows its rule id, and the link opens that rule', { timeout: 120000 }, async () => {
  const { page, w } = await dilotiRoom(12);
  try {
    let r = await nextTurn(page, w, 0);
    // a capture the rules refuse: a hand card on a loose card it cannot take
    let bad = null;
    for (let i = 0; i < 10 && !bad; i++) {
      const v = r.state.view;
      for (const h of v.hand) {
        for (const l of v.table.loose) {
          const t = `${h} x ${l}`;
          if (!r.state.moves.includes(t) && h.replace(/.$/, '') !== l.replace(/.$/, '')) { bad = t; break; }
        }
        if (bad) break;
      }
      if (!bad) r = await playButton(page, w, r.state.moves.find((m) => m.endsWith(' lay')) || r.state.moves[0]);
    }
    assert.ok(bad, 'a refusable capture came up');
    const n = w.frames.length;
    await page.fill('#movebox', bad);
    await page.press('#movebox', 'Enter');
    const refusal = await until(() => w.frames.slice(n).find((f) => f.type === 'refusal' || f.type === 'event'), `the answer to ${bad}`);
    assert.equal(refusal.type, 'refusal', `${bad} is refused`);
    assert.ok(refusal.rule, `the refusal names a rule: ${refusal.reason}`);
    await page.waitForSelector('#refusal', { state: 'visible' });
    const text = await page.innerText('#refusal');
    assert.ok(text.includes(refusal.rule), `#refusal shows ${refusal.rule}: ${text}`);
    const link = page.locator(`#refusal a.rule[href="/rules#${refusal.rule}"]`);
    assert.equal(await link.count() > 0, true, `#refusal a.rule[href="/rules#${refusal.rule}"]`);
    // (the link may open a new tab)
    const target = await link.first().getAttribute('target');
    let rules = page;
    if (target === '_blank') {
      [rules] = await Promise.all([page.context().waitForEvent('page', { timeout: WAIT }), link.first().click()]);
    } else {
      await link.first().click();
    }
    await rules.waitForSelector('body[data-page="rules"]');
    await rules.waitForFunction((id) => location.hash === `#${id}`, refusal.rule);
    const anchor = await rules.evaluate((id) => {
      const e = document.getElementById(id);
      const t = document.querySelector(':target');
      return e && { target: t === e, text: e.closest('section, article, li, dt, div')?.textContent || e.textContent,
        inView: e.getBoundingClientRect().top < window.innerHeight && e.getBoundingClientRect().bottom > 0 };
    }, refusal.rule);
    assert.ok(anchor, `the rules page has an anchor ${refusal.rule}`);
    assert.ok(anchor.target, 'it is the :target');
    assert.ok(anchor.inView, 'scrolled into view');
    assert.ok(anchor.text.includes(refusal.rule), 'the anchor is the rule\'s entry');
    assert.deepEqual(page.errors, [], 'no script error');
    assert.deepEqual(rules.errors || [], [], 'no script error on the rules page');
  } finally {
    await page.context().close();
  }
});

/** A move clicked twice, its answer come (sent and before: w.sent's and
 * w.frames' lengths before the clicks): sent once, and no error for a
 * second send. */
async function sentOnce(page, w, sent, before) {
  await until(() => w.frames.slice(before).find((f) => f.type === 'event'), 'the move\'s event');
  await settled(page, w);
  assert.equal(w.sent.slice(sent).filter((m) => m.type === 'move').length, 1, 'one move sent');
  assert.equal(w.frames.slice(before).filter((f) => f.type === 'error').length, 0, 'no error for a second send');
}

test('a move button clicked twice sends the move once (the second click waits for the server)', { timeout: 120000 }, async () => {
  const { page, w } = await dilotiRoom(13);
  try {
    const r = await nextTurn(page, w, 0);
    const sent = w.sent.length;
    const before = w.frames.length;
    await page.dblclick(`#moves button[data-move="${r.state.moves[0]}"]`);
    await sentOnce(page, w, sent, before);
    assert.equal(await page.isVisible('#refusal'), false, 'nothing refused');
    // and the next turn's move is taken as usual
    const r2 = await nextTurn(page, w, 0, w.last((f) => f.type === 'event').seq);
    await playButton(page, w, r2.state.moves[0]);
    assert.deepEqual(page.errors, [], 'no script error');
  } finally {
    await page.context().close();
  }
});

test('a second click between the move\'s event and the state after it sends nothing (the race forced)', { timeout: 120000 }, async () => {
  const { page, w } = await dilotiRoom(13);
  try {
    // (the page's socket clicks the button again right after it has handled
    // the event of a move, before the state frame that follows it: the
    // moment a fast double click fell into on a loaded machine)
    await page.addInitScript(() => {
      const Real = window.WebSocket;
      window.againSel = null;
      window.againClicked = 0;
      window.WebSocket = class extends Real {
        set onmessage(fn) {
          super.onmessage = (e) => {
            fn(e);
            let m;
            try { m = JSON.parse(e.data); } catch { return; }
            if (!window.againSel || m.type !== 'event' || !m.event || m.event.type !== 'move') return;
            const b = document.querySelector(window.againSel);
            window.againSel = null;
            if (b && !b.disabled) { b.click(); window.againClicked += 1; }
          };
        }
      };
    });
    await page.reload();
    await connected(page);
    const r = await nextTurn(page, w, 0);
    await settled(page, w);
    const sel = `#moves button[data-move="${r.state.moves[0]}"]`;
    const sent = w.sent.length;
    const before = w.frames.length;
    await page.evaluate((s) => { window.againSel = s; }, sel);
    await page.click(sel);
    await sentOnce(page, w, sent, before);
    assert.equal(await page.evaluate(() => window.againClicked), 1, 'the second click came between the event and the state');
    const r2 = await nextTurn(page, w, 0, w.last((f) => f.type === 'event').seq);
    await playButton(page, w, r2.state.moves[0]);
    assert.deepEqual(page.errors, [], 'no script error');
  } finally {
    await page.context().close();
  }
});

test('move box: a refused move stays to be mended; the move played clears it, the refusal and the hint', { timeout: 120000 }, async () => {
  const { page, w } = await dilotiRoom(12);
  try {
    const r = await nextTurn(page, w, 0);
    let n = w.frames.length;
    await page.fill('#movebox', 'zz');
    await page.press('#movebox', 'Enter');
    const refusal = await until(() => w.frames.slice(n).find((f) => ['event', 'refusal', 'error'].includes(f.type)), 'the answer to zz');
    assert.equal(refusal.type, 'refusal', JSON.stringify(refusal));
    await page.waitForSelector('#refusal', { state: 'visible' });
    assert.equal(await page.inputValue('#movebox'), 'zz', 'the refused text stays in the box');
    await page.click('#hint');
    await page.waitForFunction(() => /Hint/.test(document.querySelector('#advice').textContent));
    const move = r.state.moves[0];
    n = w.frames.length;
    await page.fill('#movebox', move);
    await page.press('#movebox', 'Enter');
    const ev = await until(() => w.frames.slice(n).find((f) => ['event', 'refusal', 'error'].includes(f.type)), `the answer to ${move}`);
    assert.equal(ev.type, 'event', JSON.stringify(ev));
    await page.waitForFunction(() => document.querySelector('#movebox').value === '');
    assert.equal(await page.isVisible('#refusal'), false, 'the refusal is gone');
    assert.equal((await page.textContent('#advice')).trim(), '', 'the hint went with the move it was for');
    assert.deepEqual(page.errors, [], 'no script error');
  } finally {
    await page.context().close();
  }
});

test('round and match over: the summary says the next round has begun; then the panel leads back to the lobby', { timeout: 240000 }, async () => {
  const { page, w } = await dilotiRoom(3, undefined, { rules: 'kontsina+rounds=2' });
  try {
    let r = await nextTurn(page, w, 0);
    for (let i = 0; i < 40 && r.state; i++) r = await playButton(page, w, r.state.moves[0]);
    assert.ok(r.result, 'round 1 ended');
    // the summary: its button only closes it, and it says the table went on
    await page.waitForSelector('#result', { state: 'visible' });
    assert.equal((await page.innerText('#result-close')).trim(), 'Back to the table');
    await page.waitForSelector('#result-body .next-round');
    assert.match(await page.innerText('#result-body .next-round'), /Round 2.*It goes on behind this box\./s);
    await page.click('#result-close');
    const from = w.frames.length;
    r = await nextTurn(page, w, from);
    for (let i = 0; i < 40 && r.state; i++) r = await playButton(page, w, r.state.moves[0]);
    assert.ok(r.result, 'round 2, and so the match, ended');
    await page.waitForFunction(() => window.dilotiTable.state && window.dilotiTable.state.phase === 'match-over');
    const link = page.locator('#moves a.to-lobby');
    await link.waitFor();
    assert.match(await page.innerText('#moves'), /The match is over/);
    assert.equal(new URL(await link.getAttribute('href'), ctx.base).pathname, '/', 'to the lobby');
    assert.deepEqual(page.errors, [], 'no script error');
  } finally {
    await page.context().close();
  }
});

test('a seat opened in a second page: the first says it has left the table and offers no move', { timeout: 120000 }, async () => {
  const { page, w, cr } = await dilotiRoom(12);
  const second = await newPage();
  try {
    await nextTurn(page, w, 0);
    await second.goto(cr.seats[0].link);
    await connected(second);
    await page.waitForSelector('#turn-banner.gone');
    assert.match(await page.innerText('#turn-banner'), /This page has left the table: .*Back to the lobby/s);
    assert.equal(await page.isDisabled('#movebox'), true, 'the move box is off');
    assert.equal(await page.isDisabled('#hint'), true, 'no hint');
    assert.equal(await page.$$eval('#moves button', (bs) => bs.length), 0, 'no move buttons');
    assert.equal(await page.getAttribute('body', 'data-my-turn'), 'false');
    await screenshot(page, 'seat-opened-elsewhere');
    assert.deepEqual(page.errors, [], 'no script error');
  } finally {
    await page.context().close();
    await second.context().close();
  }
});

// Tab (bounded) until the focused element matches: whether it did.
async function tabTo(page, pred, arg, max = 80) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate(pred, arg)) return true;
    await page.keyboard.press('Tab');
  }
  return page.evaluate(pred, arg);
}

test('keyboard: a few moves with the keyboard alone (the move box, the cards)', { timeout: 120000 }, async () => {
  const { page, w } = await dilotiRoom(13);
  try {
    let r = await nextTurn(page, w, 0);
    // two moves typed in the move box, reached with Tab
    for (let i = 0; i < 2; i++) {
      const move = r.state.moves[r.state.moves.length - 1];
      assert.ok(await tabTo(page, () => document.activeElement?.id === 'movebox'), 'Tab reaches the move box');
      await page.keyboard.type(move);
      const n = w.frames.length;
      await page.keyboard.press('Enter');
      const ev = await until(() => w.frames.slice(n).find((f) => ['event', 'refusal', 'error'].includes(f.type)), `the answer to ${move}`);
      assert.equal(ev.type, 'event', JSON.stringify(ev));
      assert.equal(ev.event.move, move);
      r = await nextTurn(page, w, n, ev.seq);
    }
    // one by the cards: Tab to a hand card that can be laid, Enter, then
    // Tab to its "lay" choice, Enter
    const lay = r.state.moves.find((m) => m.endsWith(' lay'));
    assert.ok(lay, 'a card to lay');
    const card = lay.split(' ')[0];
    assert.ok(await tabTo(page, (c) => document.activeElement?.matches(`#hand .card[data-card="${c}"]`), card),
      `Tab reaches the hand's ${card}`);
    await page.keyboard.press('Enter');
    assert.ok(await tabTo(page, (m) => document.activeElement?.dataset?.move === m, lay, 40), `Tab reaches "${lay}"`);
    const n = w.frames.length;
    await page.keyboard.press('Enter');
    const ev = await until(() => w.frames.slice(n).find((f) => ['event', 'refusal', 'error'].includes(f.type)), `the answer to ${lay}`);
    assert.equal(ev.type, 'event', JSON.stringify(ev));
    assert.equal(ev.event.move, lay);
    // every card of the hand is focusable and labelled for a screen reader
    await nextTurn(page, w, n, ev.seq);
    const cards = await page.$$eval('#hand .card[data-card]', (es) => es.map((e) => ({
      card: e.dataset.card, label: e.getAttribute('aria-label'), focusable: e.tabIndex >= 0 })));
    assert.ok(cards.length > 0);
    for (const c of cards) {
      assert.ok(c.focusable, `${c.card} is focusable`);
      assert.match(c.label || '', /^(10|[2-9]|ace|jack|queen|king) of (clubs|diamonds|hearts|spades)$/i, `${c.card}'s label`);
    }
    assert.deepEqual(page.errors, [], 'no script error');
  } finally {
    await page.context().close();
  }
});

for (const [name, viewport] of [['375px', { width: 375, height: 812 }], ['desktop', { width: 1366, height: 900 }]]) {
  test(`layout: a Diloti table mid-round at ${name}, screenshot saved`, { timeout: 90000 }, async () => {
    const { page, w } = await dilotiRoom(14, viewport);
    try {
      let r = await nextTurn(page, w, 0);
      for (let i = 0; i < 4; i++) r = await playButton(page, w, r.state.moves[0]);
      const st = await settled(page, w);
      checkDiloti(await dilotiDom(page), st.view, name);
      const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(over <= 0, `no sideways scrolling at ${name} (${over} px too wide)`);
      // the hand and the move box are on screen, side by side with nothing
      const box = await page.locator('#hand').boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= viewport.width + 1, 'the hand fits the width');
      await screenshot(page, `diloti-${name}`);
      assert.deepEqual(page.errors, [], 'no script error');
    } finally {
      await page.context().close();
    }
  });
}

test('the coach: a word on each of one\'s own moves, once switched on, kept over a reload', { timeout: 120000 }, async () => {
  const { page, w } = await dilotiRoom(15, undefined, { pace: 0.2 });
  try {
    let r = await nextTurn(page, w, 0);
    // (off: a move draws no question). The next turn is the one past this
    // move's own event: the wire's last event right after the click may be
    // an older one (the answer not in yet), and the state before the move
    // still offers moves, so the second move would be read off it.
    r = await playButton(page, w, r.state.moves[0]);
    assert.equal(w.sent.filter((f) => f.type === 'explain').length, 0, 'no coach while it is off');
    await page.check('#coach');
    const n = w.frames.length;
    const move = r.state.moves[0];
    await page.click(`#moves button[data-move="${move}"]`);
    const a = await until(() => w.frames.slice(n).find((f) => f.type === 'advice' || f.type === 'error'), 'the coach\'s word');
    assert.equal(a.type, 'advice', JSON.stringify(a));
    await until(async () => {
      const t = await page.innerText('#advice');
      return t.includes('Coach') && t.includes(`Your move ${move}`);
    }, 'the coach on the page');
    await page.reload();
    await connected(page);
    assert.equal(await page.isChecked('#coach'), true, 'the coach stays on');
    assert.deepEqual(page.errors, [], 'no script error');
  } finally {
    await page.context().close();
  }
});

test('around the game: seats (who is an AI, connected, whose turn, thinking), hint/why/explain, four colours', { timeout: 120000 }, async () => {
  // (a pace of 1.5 s: the AI's turn lasts long enough to be seen thinking)
  const { page, w } = await dilotiRoom(15, undefined, { pace: 1.5 });
  try {
    let r = await nextTurn(page, w, 0);
    const seats = await page.$$eval('#seats [data-seat]', (es) => es.map((e) => ({
      seat: e.dataset.seat, kind: e.dataset.kind, connected: e.dataset.connected, turn: e.classList.contains('turn') })));
    assert.deepEqual(seats, [{ seat: '0', kind: 'person', connected: 'true', turn: true },
      { seat: '1', kind: 'ai', connected: 'true', turn: false }]);
    // (Why? with nothing in the box asks the server nothing and says what it needs)
    {
      const n = w.frames.length;
      await page.fill('#movebox', '');
      await page.click('#why');
      await until(async () => (await page.innerText('#advice')).includes('Type a move'), 'what Why? needs');
      assert.equal(w.frames.slice(n).filter((f) => f.type === 'error').length, 0);
    }
    // advice for one's own seat: each answer's lines on the page
    for (const kind of ['hint', 'why']) {
      const n = w.frames.length;
      // (why: about the move in the box)
      if (kind === 'why') await page.fill('#movebox', r.state.moves[0]);
      await page.click(`#${kind}`);
      const a = await until(() => w.frames.slice(n).find((f) => f.type === 'advice' || f.type === 'error'), `the ${kind}`);
      assert.equal(a.type, 'advice', JSON.stringify(a));
      await until(async () => (await page.innerText('#advice')).includes(a.lines[0].slice(0, 30)), `the ${kind}'s lines on the page`);
    }
    // four colours: diamonds change colour, and the choice outlives a reload
    const colour = () => page.$eval('#hand .card[data-card], #table-cards .card[data-card]', () => {
      const probe = document.createElement('span');
      probe.className = 'card suit-d';
      document.querySelector('#board').append(probe);
      const c = getComputedStyle(probe).color;
      probe.remove();
      return c;
    });
    const two = await colour();
    await page.check('#four-colour');
    const four = await colour();
    assert.notEqual(four, two, 'diamonds change colour with four colours');
    // a move, then the AI thinks (its seat says so), then explain
    const move = r.state.moves[0];
    await page.fill('#movebox', '');
    const n = w.frames.length;
    await page.click(`#moves button[data-move="${move}"]`);
    await page.waitForSelector('#seats [data-seat="1"].turn.thinking', { timeout: WAIT });
    r = await nextTurn(page, w, n, w.last((f) => f.type === 'event')?.seq || 0);
    const m = w.frames.length;
    await page.click('#explain');
    const a = await until(() => w.frames.slice(m).find((f) => f.type === 'advice' || f.type === 'error'), 'the explanation');
    assert.equal(a.type, 'advice', JSON.stringify(a));
    await page.reload();
    await connected(page);
    assert.equal(await page.isChecked('#four-colour'), true, 'four colours kept');
    assert.equal(await colour(), four);
    assert.deepEqual(page.errors, [], 'no script error');
  } finally {
    await page.context().close();
  }
});
