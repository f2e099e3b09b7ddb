// Issue 28: a Pilotta room with three AIs played through a whole round by
// clicking (the auction's buttons, the cards of the hand, the announce,
// show and belote prompts), the board checked at each of the seat's turns
// (so after every trick) against the state the server sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ctx, newPage, screenshot, WAIT } from '../lib/harness.mjs';
import { createRoom, connected, wire, nextTurn, settled, until, namesCard, lateWatcher, lateLog } from '../lib/table.mjs';

// Seed 27 deals seat 0 the run Jc Qc Kc Ac (and so the belote in clubs);
// seat 2 opens 80d, seat 0 bids 90c, everyone passes: clubs are trumps,
// seat 0 announces its run in trick 1, shows it in trick 2 and plays the
// Queen of clubs with the belote.
const SEED = 27;
const BID = '90c';

/** A Pilotta room of seed SEED, a person at seat 0 and three AIs at pace
 * 0, and seat 0's page connected: the room and the page's wire. */
async function seatZero(page, extra = {}) {
  await page.goto(`${ctx.base}/`);
  const cr = await createRoom(page, { rules: 'pilotta', players: 4, seats: ['person', 'ai', 'ai', 'ai'], pace: 0, seed: SEED, ...extra });
  const w = wire(page);
  await page.goto(cr.seats[0].link);
  await connected(page);
  return { cr, w };
}

async function boardDom(page) {
  return page.evaluate(() => {
    const cards = (sel) => [...document.querySelectorAll(sel)].map((e) => e.dataset.card);
    const text = (sel) => { const e = document.querySelector(sel); return e ? e.textContent.replace(/\s+/g, ' ') : null; };
    return {
      hand: cards('#hand .card[data-card]'),
      trick: [...document.querySelectorAll('#trick .card[data-card][data-seat]')].map((e) => ({
        card: e.dataset.card, seat: e.dataset.seat,
        winning: e.hasAttribute('data-winning') && e.dataset.winning !== 'false' })),
      teams: Object.fromEntries([...document.querySelectorAll('#team-tricks [data-team]')].map((e) => [e.dataset.team, e.textContent.replace(/\s+/g, ' ')])),
      contract: text('#contract'),
      announcements: document.querySelector('#announcements')?.innerHTML ?? null,
      calls: [...document.querySelectorAll('#auction .call[data-seat]')].map((e) => e.dataset.seat),
      auctionMoves: [...document.querySelectorAll('#auction button[data-move]')].map((e) => e.dataset.move),
      sheet: text('#score-sheet'),
    };
  });
}

// The page's board against the view the server sent.
function checkBoard(dom, st) {
  const v = st.view;
  assert.deepEqual([...dom.hand].sort(), [...(v.hand || [])].sort(), `the hand (seq ${st.seq})`);
  if (v.phase === 'auction') {
    assert.equal(dom.calls.length, v.calls.length, 'every call so far is shown');
    if (st.moves) assert.deepEqual([...dom.auctionMoves].sort(), [...st.moves].sort(), 'the legal calls as buttons, and only those');
    return;
  }
  const trick = v.trick || [];
  assert.deepEqual(dom.trick.map((c) => c.card), trick, `the trick in the middle (seq ${st.seq})`);
  dom.trick.forEach((c, i) => assert.equal(Number(c.seat), (v.leader + i) % 4, `who played ${c.card}`));
  if (trick.length) {
    const w = dom.trick.filter((c) => c.winning);
    assert.equal(w.length, 1, 'one card is marked winning');
    assert.equal(Number(w[0].seat), v.winning, 'the winning card');
  }
  for (const t of ['0', '1']) {
    assert.ok(dom.teams[t] !== undefined, `#team-tricks [data-team=${t}]`);
    assert.match(dom.teams[t], new RegExp(`\\b${v.tricks_won[t]}\\b`), `team ${t}'s tricks`);
    assert.match(dom.teams[t], new RegExp(`\\b${v.trick_points[t]}\\b`), `team ${t}'s trick points`);
  }
  assert.ok(dom.contract && dom.contract.includes(String(v.contract.value)), `the contract ${v.contract.bid}: ${dom.contract}`);
  for (const a of v.announcements) {
    if (a.shown) for (const c of a.cards) assert.ok(dom.announcements.includes(`data-card="${c}"`), `shown ${c}`);
  }
}

// Clicks the move: a call in #auction, a prompt of the board, or a card of
// the hand (and then the board's belote prompt if it asks).
async function click(page, move, phase) {
  if (phase !== 'play') {
    await page.click(`#auction button[data-move="${move}"]`);
    return 'auction';
  }
  if (/^(10|[7-9JQKA])[cdhs]$/.test(move)) { await page.click(`#hand .card[data-card="${move}"]`); return 'card'; }
  const prompt = await page.$(`#board [data-move="${move}"]:not(#hand *)`);
  if (prompt) { await prompt.click(); return 'prompt'; }
  throw new Error(`no element of the board offers "${move}"`);
}

test('pilotta: a round with three AIs, played by clicking, the board checked after every trick', { timeout: 180000 }, async () => {
  const page = await newPage();
  const spec = await newPage();
  try {
    const { cr, w } = await seatZero(page);
    // a spectator: the server's state as everyone may see it
    const sw = wire(spec);
    await spec.goto(cr.watch);
    await connected(spec);
    const staticText = await spec.evaluate(async () => (await fetch(location.pathname)).text());
    let bid = false; const done = { announce: false, show: false, belote: false }; const how = {};
    let from = 0; let turns = 0; let shots = false; let after = 0;
    for (;;) {
      const r = await nextTurn(page, w, from, after);
      if (r.result) {
        if (r.result.result.round.thrown_in) { from = w.frames.length; continue; }
        break;
      }
      assert.ok(++turns <= 40, 'the round ends');
      const st = r.state;
      checkBoard(await boardDom(page), st);
      // the spectator at the same point: its board against its own state,
      // the public part of the seat's state against the spectator's, and
      // no card of seat 0's hand the rules keep hidden in its page
      const sst = await until(() => { const x = sw.lastState(); return x && x.view.ply === st.view.ply && x; },
        `the spectator at ply ${st.view.ply}`);
      await settled(spec, sw);
      assert.equal(sst.view.hand, undefined, 'the server sends the spectator no hand');
      checkBoard(await boardDom(spec), sst);
      for (const k of ['trick', 'tricks_won', 'trick_points', 'contract', 'calls', 'hand_count', 'score', 'trumps', 'belote']) {
        assert.deepEqual(st.view[k], sst.view[k], `the seat's ${k} is the spectator's`);
      }
      const shownCards = new Set(st.view.announcements.filter((a) => a.shown).flatMap((a) => a.cards));
      const hidden = st.view.hand.filter((c) => !shownCards.has(c));
      const html = await spec.evaluate(() => document.documentElement.outerHTML
        + [...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')).join('\n'));
      for (const c of hidden) {
        const where = namesCard(html, c, staticText);
        assert.equal(where, null, `the spectator's page names ${c} of seat 0's hand at ply ${st.view.ply}: …${where}…`);
      }
      if (st.phase === 'play' && st.view.tricks.length === 3 && !shots) {
        shots = true;
        for (const [name, vp] of [['375px', { width: 375, height: 812 }], ['desktop', { width: 1366, height: 900 }]]) {
          await page.setViewportSize(vp);
          const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(over <= 0, `no sideways scrolling at ${name} (${over} px too wide)`);
          await screenshot(page, `pilotta-${name}`);
        }
      }
      let move;
      if (st.phase === 'auction') { move = bid ? 'pass' : BID; bid = true; } else {
        move = st.moves.find((m) => m.startsWith('announce')) || st.moves.find((m) => m.startsWith('show'))
          || st.moves.find((m) => m.endsWith(' belote')) || st.moves[0];
      }
      for (const k of Object.keys(done)) if (move.startsWith(k) || move.endsWith(` ${k}`)) done[k] = true;
      const before = w.frames.length;
      how[await click(page, move, st.phase)] = true;
      // the server's answer: our own event (a refusal would fail here)
      const ev = await until(() => w.frames.slice(before).find((f) => f.type === 'event' || f.type === 'refusal' || f.type === 'error'), `the answer to ${move}`);
      assert.equal(ev.type, 'event', `${move}: ${JSON.stringify(ev)}`);
      assert.equal(ev.event.move, move);
      after = ev.seq;
    }
    assert.deepEqual(done, { announce: true, show: true, belote: true }, 'announced, shown, belote');
    assert.deepEqual(how, { auction: true, card: true, prompt: true }, 'calls, cards and prompts were clicked');
    const res = w.last((f) => f.type === 'result');
    await page.waitForSelector('#result', { state: 'visible', timeout: WAIT });
    const shown = await page.innerText('#result');
    for (const t of ['0', '1']) {
      assert.match(shown, new RegExp(`\\b${res.result.round[t].total}\\b`), `the round's total for team ${t} in #result`);
    }
    const sheet = await page.innerText('#score-sheet');
    for (const t of ['0', '1']) assert.match(sheet, new RegExp(`\\b${res.result.score[t]}\\b`), `the sheet (tens) for team ${t}`);
    await settled(page, w).catch(() => {});
    assert.ok(shots, 'screenshots taken mid-round');
    await spec.waitForSelector('#result', { state: 'visible', timeout: WAIT });
    assert.deepEqual(page.errors, [], 'no script error');
    assert.deepEqual(spec.errors, [], 'no script error on the spectator\'s page');
  } finally {
    await page.context().close();
    await spec.context().close();
  }
});

// Long names at three widths, in the auction and once it is done (then a
// box beside others): every column head of the auction shows the name, or
// its short form with the full name in its title and for screen readers,
// never cut off and no word broken across lines; each value's row of bid
// buttons stays on one line; nothing scrolls sideways; at 1280 px the trick
// has room beside the side panel (half the window at least) and no label
// around it wraps.
const LONG = ['Αλεξάνδρα', 'Christopher', 'Konstantinos', 'Maximiliana'];
const WIDTHS = [{ width: 1280, height: 800 }, { width: 800, height: 900 }, { width: 375, height: 812 }];

async function checkRoom(p, who, phase) {
  for (const vp of WIDTHS) {
    await p.setViewportSize(vp);
    const at = `${who} at ${vp.width} px in the ${phase}`;
    const m = await p.evaluate(() => {
      const box = (e) => e.getBoundingClientRect();
      const lines = (e) => Math.round(box(e).height / parseFloat(getComputedStyle(e).lineHeight || '0'));
      // (what shows: the head's text but for a part clipped away or not displayed)
      const shows = (n) => n.nodeType === 3 || (getComputedStyle(n).display !== 'none' && getComputedStyle(n).clip === 'auto');
      const textNodes = (n) => (n.nodeType === 3 ? [n] : [...n.childNodes].flatMap(textNodes));
      // (a word over two lines has two boxes)
      const broken = (th) => [...th.childNodes].filter(shows).flatMap(textNodes).flatMap((t) => {
        const out = [];
        for (const m of t.data.matchAll(/\S+/g)) {
          const r = document.createRange();
          r.setStart(t, m.index);
          r.setEnd(t, m.index + m[0].length);
          if (new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1) out.push(m[0]);
        }
        return out;
      });
      return {
        over: document.documentElement.scrollWidth - window.innerWidth,
        heads: [...document.querySelectorAll('#auction th[data-seat]')].map((th) => ({
          seat: th.dataset.seat, title: th.title,
          full: [...th.childNodes].filter((n) => n.nodeType === 3 || n.getAttribute('aria-hidden') !== 'true')
            .map((n) => n.textContent).join(''),
          shown: [...th.childNodes].filter(shows).map((n) => n.textContent).join(''),
          broken: broken(th),
          cut: th.scrollWidth - th.clientWidth })),
        rows: [...document.querySelectorAll('#auction .pl-bids .pl-callrow')].map((row) =>
          new Set([...row.querySelectorAll('button')].map((c) => Math.round(box(c).top))).size),
        trick: box(document.querySelector('#trick')).width,
        labels: [...document.querySelectorAll('#trick .pl-seatname')].map((e) => ({ text: e.textContent, lines: lines(e) })),
      };
    });
    assert.ok(m.over <= 0, `no sideways scrolling for ${at} (${m.over} px too wide)`);
    assert.equal(m.heads.length, 4, `four heads for ${at}`);
    for (const h of m.heads) {
      const want = who === 'the seat' && h.seat === '0' ? 'You' : LONG[Number(h.seat)];
      assert.equal(h.full, want, `the auction's head for seat ${h.seat} for ${at}, for screen readers`);
      assert.equal(h.title, want, `its title for ${at}`);
      // the name itself, or its short form: each word whole or its start and a full stop
      const words = want.split(' ');
      assert.ok(h.shown.split(' ').every((x, i) => x === words[i] || (x.endsWith('.') && x.length >= 5
        && words[i].startsWith(x.slice(0, -1)))), `the head "${h.shown}" for seat ${h.seat} (${want}) for ${at}`);
      assert.ok(h.cut <= 0, `the auction's head "${h.shown}" for ${at} is cut by ${h.cut} px`);
      assert.deepEqual(h.broken, [], `no word of the head "${h.shown}" broken across lines for ${at}`);
    }
    for (const [i, n] of m.rows.entries()) assert.equal(n, 1, `bid row ${i + 1} on one line for ${at}`);
    if (vp.width === 1280) {
      assert.ok(m.trick >= vp.width / 2, `the trick for ${at} is ${m.trick} px wide, under half the window`);
      for (const l of m.labels) assert.equal(l.lines, 1, `"${l.text}" around the trick on one line for ${at}`);
    }
    await screenshot(p, `pilotta-names-${who === 'the seat' ? 'seat' : 'watch'}-${phase}-${vp.width}`);
  }
  await p.setViewportSize(WIDTHS[0]);
}

test('pilotta: a card clicked in trick 2 before the announced run is shown is asked about once (P38)', { timeout: 120000 }, async () => {
  const page = await newPage();
  try {
    const { w } = await seatZero(page);
    let from = 0; let after = 0; let bid = false;
    for (let turns = 0; ; turns++) {
      assert.ok(turns < 12, 'trick 2 comes');
      const r = await nextTurn(page, w, from, after);
      assert.ok(!r.result || r.result.result.round.thrown_in, 'the round goes on');
      if (r.result) { from = w.frames.length; continue; }
      const st = r.state;
      const show = st.moves.find((m) => m.startsWith('show '));
      if (show) {
        const card = st.moves.find((m) => /^(10|[7-9JQKA])[cdhs]$/.test(m));
        const before = w.sent.length;
        // (asked the same from the list of legal moves and from the hand)
        await page.click(`#moves button[data-move="${card}"]`);
        const note = await page.waitForSelector('#prompts .pl-doubt', { state: 'visible', timeout: WAIT });
        assert.match(await note.innerText(), /^P38: you announced a declaration and have not shown it: playing \S+ now loses it\. Show it first, or play \S+ again to play it all the same\.$/);
        assert.equal(w.sent.length, before, 'the first click sends nothing');
        await screenshot(page, 'pilotta-p38-asked');
        const frames = w.frames.length;
        await page.click(`#hand .card[data-card="${card}"]`);
        const ev = await until(() => w.frames.slice(frames).find((f) => f.type === 'event' || f.type === 'refusal' || f.type === 'error'), 'the card played');
        assert.equal(ev.type, 'event', JSON.stringify(ev));
        assert.equal(ev.event.move, card);
        await page.waitForFunction(() => /lost: not shown in trick 2 \(P38\)/.test(document.querySelector('#announcements').textContent));
        return;
      }
      let move;
      if (st.phase === 'auction') { move = bid ? 'pass' : BID; bid = true; } else {
        move = st.moves.find((m) => m.startsWith('announce')) || st.moves.find((m) => /^(10|[7-9JQKA])[cdhs]$/.test(m));
      }
      const before = w.frames.length;
      await click(page, move, st.phase);
      const ev = await until(() => w.frames.slice(before).find((f) => f.type === 'event' || f.type === 'refusal' || f.type === 'error'), `the answer to ${move}`);
      assert.equal(ev.type, 'event', `${move}: ${JSON.stringify(ev)}`);
      after = ev.seq;
    }
  } finally {
    await page.close();
  }
});

test('pilotta: long names in the auction and the trick\'s room at 1280, 800 and 375 px', { timeout: 120000 }, async () => {
  const page = await newPage({ viewport: WIDTHS[0] });
  const spec = await newPage({ viewport: WIDTHS[0] });
  try {
    const { cr, w } = await seatZero(page, { names: LONG });
    const sw = wire(spec);
    await spec.goto(cr.watch);
    await connected(spec);
    // seat 0 passes throughout (seat 2 opens, so the round is played)
    const seen = new Set();
    let after = 0;
    for (let turns = 0; seen.size < 2; turns++) {
      assert.ok(turns < 10, 'the auction ends');
      const r = await nextTurn(page, w, 0, after);
      assert.ok(r.state, 'the round goes on');
      const phase = r.state.phase;
      if (!seen.has(phase)) {
        seen.add(phase);
        await settled(spec, sw);
        await checkRoom(page, 'the seat', phase);
        await checkRoom(spec, 'the spectator', phase);
      }
      if (phase === 'play') break;
      const before = w.frames.length;
      await page.click('#auction button[data-move="pass"]');
      const ev = await until(() => w.frames.slice(before).find((f) => f.type === 'event' || f.type === 'refusal'), 'the answer to pass');
      assert.equal(ev.type, 'event', JSON.stringify(ev));
      after = ev.seq;
    }
    assert.deepEqual([...seen], ['auction', 'play'], 'checked in the auction and in the play');
    assert.deepEqual(page.errors, [], 'no script error');
    assert.deepEqual(spec.errors, [], 'no script error on the spectator\'s page');
  } finally {
    await page.context().close();
    await spec.context().close();
  }
});

test('pilotta: in the auction a card typed in the move box is not taken for a bid', { timeout: 120000 }, async () => {
  const page = await newPage();
  try {
    const { w } = await seatZero(page);
    const r = await nextTurn(page, w, 0);
    assert.equal(r.state.view.phase, 'auction');
    const sent = w.sent.length;
    await page.fill('#movebox', '9d');
    await page.press('#movebox', 'Enter');
    await page.waitForSelector('#refusal', { state: 'visible' });
    const text = await page.innerText('#refusal');
    assert.match(text, /9d names a card, and this is the auction: to bid 90 in diamonds type 90d/);
    assert.equal(w.sent.slice(sent).filter((m) => m.type === 'move').length, 0, 'nothing was sent');
    assert.equal(await page.inputValue('#movebox'), '9d', 'the text stays, to be mended');
    // a number alone is PC7's bid in tens there, not the list's eleventh call
    await page.fill('#movebox', '11');
    await page.press('#movebox', 'Enter');
    await page.waitForFunction(() => /11 is a bid of 110 \(PC7\)/.test(document.querySelector('#refusal').textContent));
    assert.equal(w.sent.slice(sent).filter((m) => m.type === 'move').length, 0, 'nothing was sent for 11 either');
    await screenshot(page, 'pilotta-auction-number-refused-1280');
    // a no-trump bid goes to the server, which refuses it with P7, linked
    await page.fill('#movebox', '90 nt');
    await page.press('#movebox', 'Enter');
    await page.waitForFunction(() => /Refused: 90 nt\. P7: every contract has a trump suit/.test(document.querySelector('#refusal').textContent));
    assert.equal(await page.getAttribute('#refusal a.rule', 'href'), '/rules#P7', 'the rule is linked');
    await screenshot(page, 'pilotta-auction-no-trump-refused-1280');
    assert.equal((await page.innerText('#conn')).trim(), 'connected', 'the connection says so');
    // a bid typed in full is played, and the box and the refusal are cleared
    const bid = r.state.moves.find((m) => /^\d+[cdhs]$/.test(m));
    const before = w.frames.length;
    await page.fill('#movebox', bid);
    await page.press('#movebox', 'Enter');
    const ev = await until(() => w.frames.slice(before).find((f) => ['event', 'refusal', 'error'].includes(f.type)), `the answer to ${bid}`);
    assert.equal(ev.type, 'event', JSON.stringify(ev));
    await page.waitForFunction(() => document.querySelector('#movebox').value === '');
    assert.equal(await page.isVisible('#refusal'), false, 'the refusal is gone');
    assert.deepEqual(page.errors, [], 'no script error');
  } finally {
    await page.context().close();
  }
});

test('pilotta: a late spectator is told the moves it was sent (past the backlog) in sentences, as live', { timeout: 120000 }, async () => {
  const { page, welcome } = await lateWatcher({ rules: 'pilotta', players: 4, seats: ['ai', 'ai', 'ai', 'ai'], pace: 0, seed: SEED },
    { over: true });
  try {
    const { moves, log } = await lateLog(page, welcome);
    const raw = /^AI \w+ \(\d\): (pass|contra|recontra|announce|show|capot|\d|[0-9JQKA]{1,2}[cdhs]\b)/;
    assert.equal(log.filter((t) => raw.test(t)).length, 0, `no line in raw notation: ${JSON.stringify(log)}`);
    assert.ok(log.filter((t) => / (passed|bid|played|announced|showed|said contra)/.test(t)).length >= Math.min(moves.length, 2),
      `sentences: ${JSON.stringify(log)}`);
    assert.equal(log.filter((t) => /undefined|NaN|declaration \(0\)/.test(t)).length, 0, `no hole in a sentence: ${JSON.stringify(log)}`);
    assert.deepEqual(page.errors, [], 'no script error');
  } finally {
    await page.context().close();
  }
});

test('pilotta: a history\'s announcements in words: one\'s own side\'s with its worth, as live; another side\'s hidden', { timeout: 60000 }, async () => {
  const page = await newPage();
  try {
    await page.goto(`${ctx.base}/`);
    const said = await page.evaluate(async () => {
      const m = await import('/js/boards/pilotta.js');
      const b = m.createBoard(document.createElement('div'), {
        seat: 0, welcome: { names: { 0: 'Ann', 1: 'Bob' } }, cardElement: () => document.createElement('span'),
      });
      const say = (seat, move) => b.describeHistory({ seat, kind: 'announce', move });
      return [say(0, 'announce 7h 8h 9h'), say(0, 'announce 9c 10c Jc Qc'), say(0, 'announce 7d 8d 9d 10d Jd'),
        say(0, 'announce Jc Jd Jh Js'), say(0, 'announce 9c 9d 9h 9s'), say(1, 'announce (run of 4, 50)')];
    });
    assert.deepEqual(said, ['Ann announced a run of 3 (20).', 'Ann announced a run of 4 (50).',
      'Ann announced a run of 5 (100).', 'Ann announced four Jacks (200).', 'Ann announced four Nines (150).',
      'Bob announced a run of 4 (50).']);
    assert.deepEqual(page.errors, [], 'no script error');
  } finally {
    await page.context().close();
  }
});
