// The Diloti board's DOM (the contract: #hand, #table-cards,
// .declaration, [data-hand-count], #pack) read, checked against a view,
// and played by clicking.
import assert from 'node:assert/strict';
import { until } from './table.mjs';

export async function dilotiDom(page) {
  return page.evaluate(() => ({
    hand: [...document.querySelectorAll('#hand .card[data-card]')].map((e) => e.dataset.card),
    loose: [...document.querySelectorAll('#table-cards .card[data-card]')].map((e) => e.dataset.card),
    decls: [...document.querySelectorAll('.declaration[data-owner][data-value]')].map((e) => ({ owner: e.dataset.owner, value: e.dataset.value })),
    counts: [...document.querySelectorAll('[data-hand-count]')].map((e) => ({ seat: e.dataset.seat ?? e.closest('[data-seat]')?.dataset.seat, n: e.dataset.handCount })),
    pack: document.querySelector('#pack')?.dataset.count ?? null,
  }));
}

// A Diloti page against the view the server sent it.
export function checkDiloti(dom, v, who) {
  if (v.hand) assert.deepEqual([...dom.hand].sort(), [...v.hand].sort(), `${who}: the hand`);
  else assert.deepEqual(dom.hand, [], `${who}: no hand`);
  assert.deepEqual([...dom.loose].sort(), [...v.table.loose].sort(), `${who}: the loose cards`);
  assert.deepEqual(dom.decls.map((d) => `${d.owner}:${d.value}`).sort(),
    v.table.declarations.map((d) => `${d.owner}:${d.value}`).sort(), `${who}: the declarations`);
  assert.equal(Number(dom.pack), v.pack_count, `${who}: the pack`);
  for (const [seat, n] of Object.entries(v.hand_counts)) {
    if (v.hand && Number(seat) === v.seat) { assert.equal(dom.hand.length, n, `${who}: its own hand's size`); continue; }
    assert.ok(dom.counts.some((c) => c.seat === seat && Number(c.n) === n), `${who}: seat ${seat} holds ${n} (${JSON.stringify(dom.counts)})`);
  }
}

// Plays a move the way a person does: the card of the hand, then each
// loose card or declaration it takes or builds on (the board plays the move
// once only one fits), else the move among the board's choices.
export async function clickMove(page, w, move) {
  const words = move.trim().split(/\s+/);
  const items = [];
  if (words[1] === 'x' || words[1] === '+') for (let i = 2; i < words.length && words[i] !== '='; i++) items.push(words[i]);
  const sent = () => w.sent.slice(before).some((m) => m.type === 'move');
  const before = w.sent.length;
  await page.click(`#hand .card[data-card="${words[0]}"]`);
  for (const it of items) {
    if (sent()) break;
    const sel = /^[PG]\d+@\d+$/.test(it) ? `#board .declaration[data-ref="${it}"]` : `#table-cards .card[data-card="${it}"]`;
    await page.click(sel);
  }
  if (!sent()) await page.click(`#choices button[data-move="${move}"]`);
  await until(sent, `the page to send ${move}`);
  const m = w.sent.slice(before).find((x) => x.type === 'move');
  assert.equal(m.move, move, 'the move the clicks made');
}

