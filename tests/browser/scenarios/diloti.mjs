// Issue 28, Diloti: two browsers play a round while a third watches (and
// holds no card of a hand in its DOM); the board against the server's state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ctx, newPage, WAIT } from '../lib/harness.mjs';
import { createRoom, wire, connected, settled, until, nextTurn, namesCard } from '../lib/table.mjs';
import { dilotiDom, checkDiloti, clickMove } from '../lib/diloti.mjs';

// The spectator's page names no card that is in a hand now.
async function checkNoHiddenCard(spec, hidden, ply, staticText) {
  const { html, labels } = await spec.evaluate(() => ({
    html: document.documentElement.outerHTML,
    labels: [...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')).join('\n'),
  }));
  for (const c of hidden) {
    const where = namesCard(html, c, staticText) || namesCard(labels, c, staticText);
    assert.equal(where, null, `the spectator's page names ${c}, in a hand at ply ${ply}: …${where}…`);
  }
}

test('diloti: two browsers play a round while a third watches and sees no hidden card', { timeout: 240000 }, async () => {
  const helper = await newPage();
  const pages = [];
  try {
    await helper.goto(`${ctx.base}/`);
    const cr = await createRoom(helper, { rules: 'diloti', players: 2, seats: ['person', 'person'], names: ['Ann', 'Bo'], seed: 7 });
    const seats = [];
    for (const s of cr.seats) {
      const p = await newPage(); pages.push(p);
      const w = wire(p);
      await p.goto(s.link); await connected(p);
      seats[s.seat] = { page: p, w };
    }
    const spec = await newPage(); pages.push(spec);
    const sw = wire(spec);
    await spec.goto(cr.watch); await connected(spec);
    assert.equal((await spec.evaluate(() => window.dilotiTable.welcome.spectator)), true);
    // (the page's own file: its examples are not cards of the game)
    const staticText = await spec.evaluate(async () => (await fetch(location.pathname)).text());
    let moves = 0;
    for (;;) {
      // the seat to move, from the newest states
      const turn = await until(async () => {
        if (seats[0].w.find((f) => f.type === 'result')) return { over: true };
        for (const s of [0, 1]) {
          const st = seats[s].w.lastState();
          if (st && st.moves && st.moves.length) return { s, st };
        }
        return null;
      }, 'a seat to move or the round\'s end');
      if (turn.over) break;
      assert.ok(++moves <= 60, 'the round ends');
      const ply = turn.st.view.ply;
      // every page at this ply: the mover's, the other's, the spectator's
      for (const s of [0, 1]) {
        const st = await until(() => { const x = seats[s].w.lastState(); return x && x.view.ply === ply && x; }, `seat ${s} at ply ${ply}`);
        await settled(seats[s].page, seats[s].w);
        checkDiloti(await dilotiDom(seats[s].page), st.view, `seat ${s}`);
      }
      const sst = await until(() => { const x = sw.lastState(); return x && x.view.ply === ply && x; }, `the spectator at ply ${ply}`);
      await settled(spec, sw);
      assert.equal(sst.view.hand, undefined, 'the server sends the spectator no hand');
      checkDiloti(await dilotiDom(spec), sst.view, 'the spectator');
      const hidden = [...seats[0].w.lastState().view.hand, ...seats[1].w.lastState().view.hand];
      await checkNoHiddenCard(spec, hidden, ply, staticText);
      // the mover plays its first legal move with the page's button
      const { page, w } = seats[turn.s];
      const move = turn.st.moves[0];
      const before = w.frames.length;
      await clickMove(page, w, move);
      const ev = await until(() => w.frames.slice(before).find((f) => ['event', 'refusal', 'error'].includes(f.type)), `the answer to ${move}`);
      assert.equal(ev.type, 'event', JSON.stringify(ev));
      await until(() => { const x = w.lastState(); return x && x.view.ply > ply && x; }, 'the next state');
    }
    assert.ok(moves >= 24, `a whole round (${moves} moves)`);
    for (const p of [seats[0].page, seats[1].page, spec]) {
      await p.waitForSelector('#result', { state: 'visible', timeout: WAIT });
    }
    const res = seats[0].w.find((f) => f.type === 'result');
    const text = await spec.innerText('#result');
    for (const s of ['0', '1']) assert.match(text, new RegExp(`\\b${res.result.score[s]}\\b`), `the spectator's result shows seat ${s}'s score`);
    
    for (const p of pages) assert.deepEqual(p.errors, [], 'no script error');
  } finally {
    for (const p of [helper, ...pages]) await p.context().close().catch(() => {});
  }
});


// Kontsina for three and Diloti for four (partners): the same board, a
// person against AIs; the board checked at each turn, moves made by clicking.
for (const [rules, players] of [['kontsina', 3], ['diloti', 4]]) {
  test(`${rules} for ${players}: the board at each turn, moves by clicking`, { timeout: 120000 }, async () => {
    const page = await newPage();
    try {
      await page.goto(`${ctx.base}/`);
      const seats = ['person', ...Array(players - 1).fill('ai')];
      const cr = await createRoom(page, { rules, players, seats, names: ['Ann'], pace: 0, seed: 21 });
      const w = wire(page);
      await page.goto(cr.seats[0].link);
      await connected(page);
      const welcome = await page.evaluate(() => window.dilotiTable.welcome);
      assert.equal(welcome.players, players);
      let after = 0;
      for (let i = 0; i < 8; i++) {
        const r = await nextTurn(page, w, 0, after);
        if (r.result) break;
        checkDiloti(await dilotiDom(page), r.state.view, `${rules} ${players}, turn ${i + 1}`);
        const move = r.state.moves[i % r.state.moves.length];
        const n = w.frames.length;
        await clickMove(page, w, move);
        const ev = await until(() => w.frames.slice(n).find((f) => ['event', 'refusal', 'error'].includes(f.type)), `the answer to ${move}`);
        assert.equal(ev.type, 'event', JSON.stringify(ev));
        after = ev.seq;
      }
      const chips = await page.$$eval('#seats [data-seat]', (es) => es.map((e) => e.dataset.kind));
      assert.deepEqual(chips, seats.map((s) => (s === 'person' ? 'person' : 'ai')));
      assert.deepEqual(page.errors, [], 'no script error');
    } finally {
      await page.context().close();
    }
  });
}
