// Issue 28, the lobby: the server's catalogue on the page (games, house
// rules with their descriptions, AIs), a Pilotta room made with a house
// rule and a target, the invitation copied and opened, the room remembered
// in this browser and rejoined by pasting its link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ctx, newPage } from '../lib/harness.mjs';
import { connected, table, wire, until } from '../lib/table.mjs';

async function catalogue(page) {
  return page.evaluate(async () => {
    const ws = new WebSocket(new URL('/ws', location.href).href.replace(/^http/, 'ws'), 'diloti.v1');
    try {
      return await new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error('no catalogue')), 15000);
        ws.onopen = () => ws.send(JSON.stringify({ v: 1, type: 'catalogue' }));
        ws.onmessage = (e) => { clearTimeout(t); resolve(JSON.parse(e.data)); };
      });
    } finally { ws.close(); }
  });
}

test('lobby: a Pilotta room with a house rule, its invitation copied, opened, remembered and rejoined', { timeout: 120000 }, async () => {
  const page = await newPage();
  try {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ctx.base });
    const w = wire(page);
    await page.goto(`${ctx.base}/`);
    const cat = await catalogue(page);
    assert.equal(cat.type, 'catalogue');
    // only the house rules the chosen table can be played with
    const variants = async () => page.$$eval('#house-rules input[name=variant]', (is) => is.map((i) => i.value));
    await page.selectOption('select#game', 'diloti-2');
    await until(async () => (await variants()).includes('soy'), 'Diloti\'s house rules');
    assert.ok(!(await variants()).includes('points'), 'not Kontsina\'s points at Diloti');
    assert.ok(!(await variants()).includes('teams'), 'no partnerships for two');
    await page.selectOption('select#game', 'kontsina-4');
    await until(async () => (await variants()).includes('teams'), 'partnerships at Kontsina for four');
    assert.ok(!(await variants()).includes('soy'), 'not Diloti\'s soy at Kontsina');
    await page.selectOption('select#game', 'pilotta');
    // every house rule of the catalogue, with its one-line description
    const house = cat.house_rules.pilotta;
    await until(async () => (await page.$$('#house-rules input[name=variant]')).length === house.length, 'the house rules');
    const shown = await page.$$eval('#house-rules input[name=variant]', (is) => is.map((i) => ({
      name: i.value, text: (i.closest('.variant') || i.parentElement).textContent })));
    for (const v of house) {
      const s = shown.find((x) => x.name === v.name);
      assert.ok(s, `the house rule ${v.name} is offered`);
      assert.ok(s.text.includes(v.description), `${v.name} says what it does`);
    }
    // the AIs: every level and every shipped AI at a seat
    const offered = await page.$$eval('select[name="seat-1"] option', (os) => os.map((o) => o.value));
    for (const l of cat.ai.pilotta.levels) assert.ok(offered.includes(`ai:${l}`), `ai:${l} offered`);
    for (const a of cat.ai.pilotta.shipped) assert.ok(offered.includes(`ai:${a.name}`), `ai:${a.name} offered`);
    const rule = house.find((v) => !v.arg);
    await page.check(`input[name=variant][value="${rule.name}"]`);
    await page.fill('#target', '501');
    await page.selectOption('select[name="seat-0"]', 'person');
    for (const s of [1, 2, 3]) await page.selectOption(`select[name="seat-${s}"]`, `ai:${cat.ai.pilotta.levels[0]}`);
    await page.selectOption('#pace', '1.5');
    await page.selectOption('#takeover', '300');
    await page.click('#create');
    const created = await until(() => w.find((f) => f.type === 'created'), 'the room');
    const asked = w.sent.find((f) => f.type === 'create');
    assert.deepEqual([asked.pace, asked.takeover], [1.5, 300], "the AIs' pace and the stand-in's wait");
    assert.ok(created.rules.includes(rule.name), `the room's rules (${created.rules}) have ${rule.name}`);
    const invite = page.locator('a.invite[data-seat="0"]');
    const link = await invite.getAttribute('href');
    assert.equal(link, created.seats[0].link);
    assert.equal(await page.getAttribute('a#watch-link', 'href'), created.watch);
    await invite.locator('xpath=..').locator('button.copy').click();
    const copied = await until(() => page.evaluate(() => navigator.clipboard.readText()), 'the clipboard');
    assert.equal(copied, link, 'the invitation is copied');
    // opened: the table, seat 0, the target and the house rule
    await invite.click();
    await connected(page);
    const t = await table(page);
    assert.equal(t.welcome.seat, 0);
    assert.equal(t.welcome.rules.target, 501, 'the target');
    const kinds = await page.$$eval('#seats [data-seat]', (es) => es.map((e) => e.dataset.kind));
    assert.deepEqual(kinds, ['person', 'ai', 'ai', 'ai'], 'who is an AI');
    // remembered in this browser; rejoined by pasting the link
    await page.goto(`${ctx.base}/`);
    await page.waitForSelector(`#my-rooms a[href="${link}"]`);
    // once, though the invitation and the table's own address spell it apart
    const frag = link.slice(link.indexOf('#'));
    const same = await page.$$eval('#my-rooms a', (es, f) => es.filter((e) => (e.getAttribute('href') || '').endsWith(f)).length, frag);
    assert.equal(same, 1, 'the seat is listed once');
    await page.fill('#rejoin-link', link);
    await page.press('#rejoin-link', 'Enter');
    await connected(page);
    assert.equal((await table(page)).welcome.seat, 0, 'the same seat again');
    assert.deepEqual(page.errors, [], 'no script error');
  } finally {
    await page.context().close();
  }
});

test('lobby: only an http(s) room link is followed or listed, never a javascript: text that ends like one', { timeout: 60000 }, async () => {
  const page = await newPage();
  try {
    const hex = 'ab'.repeat(32);
    const evil = `javascript:void(window.PW=1)//play#${hex}:${hex}`;
    await page.goto(`${ctx.base}/`);
    await page.evaluate((l) => localStorage.setItem('diloti.rooms',
      JSON.stringify([{ link: l, title: 'a trap', kind: 'play', seat: 0, when: Date.now() }])), evil);
    await page.reload();
    await page.waitForSelector('#my-rooms li');
    assert.equal(await page.$$eval('#my-rooms a', (es) => es.length), 0, 'the saved javascript: link is not listed');
    await page.fill('#rejoin-link', evil);
    await page.press('#rejoin-link', 'Enter');
    await until(async () => (await page.textContent('#rejoin-error')).includes('Not a room'), 'the refusal');
    assert.equal(await page.evaluate(() => window.PW), undefined, 'nothing ran');
    assert.equal(new URL(page.url()).pathname, '/', 'still at the lobby');
    assert.deepEqual(page.errors, [], 'no script error');
  } finally {
    await page.context().close();
  }
});
