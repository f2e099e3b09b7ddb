// Issue 28, Diloti: two browsers play a round while a third watches (and
// holds no card of a hand in its DOM); the board against the server's state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ctx, newPage, WAIT } from '../lib/harness.mjs';
import { createRoom, wire, connected, settled, until, namesCard } from '../lib/table.mjs';
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

