// The lobby loads, makes a room, and the table page connects to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ctx, newPage, WAIT } from '../lib/harness.mjs';
import { connected, table } from '../lib/table.mjs';

test('smoke: the lobby makes a Diloti room and its table connects', { timeout: 90000 }, async () => {
  const lobby = await newPage();
  try {
    await lobby.goto(`${ctx.base}/`);
    await lobby.waitForSelector('body[data-page="lobby"] #create-form');
    await lobby.selectOption('select#game', 'diloti-2');
    await lobby.waitForSelector('select[name="seat-1"]');
    await lobby.selectOption('select[name="seat-0"]', 'person');
    const ai = await lobby.$$eval('select[name="seat-1"] option', (os) => os.map((o) => o.value).filter((v) => v.startsWith('ai')));
    assert.ok(ai.length > 0, 'seat 1 offers an AI');
    await lobby.selectOption('select[name="seat-1"]', ai[0]);
    await lobby.click('#create');
    const invite = await lobby.waitForSelector('a.invite[data-seat="0"]');
    const link = await invite.getAttribute('href');
    assert.match(link, /\/play#[0-9a-f]{64}:[0-9a-f]{64}$/);
    const watch = await lobby.getAttribute('a#watch-link', 'href');
    assert.match(watch, /\/watch#[0-9a-f]{64}:[0-9a-f]{64}$/);
    await lobby.goto(link);
    await connected(lobby);
    const t = await table(lobby);
    assert.equal(t.welcome.seat, 0);
    assert.equal(t.welcome.game, 'diloti');
    assert.equal(await lobby.getAttribute('body', 'data-connected'), 'true');
    assert.deepEqual(lobby.errors, [], 'no script error on the pages');
  } finally {
    await lobby.context().close();
  }
});
void WAIT;
