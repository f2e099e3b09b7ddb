// The boards' pictures in the README and docs/server.md: a server of its
// own on a free loopback port (data in a temporary folder), a Diloti room
// and a Pilotta room each with one person and AIs, a few moves played by
// the first legal move, then the page at desktop and phone widths.
//   node tools/screenshots.mjs [OUT_DIR]     (default docs/images)
// Needs the browser suite's packages: make test-browser-deps (npm ci).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '../tests/browser/node_modules/playwright-core/index.mjs';

const out = path.resolve(process.argv[2] || 'docs/images');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'diloti-shots-'));
const server = spawn('build/diloti', ['serve', '--port', '0', '--static', 'web', '--data', path.join(tmp, 'data')],
  { stdio: ['ignore', 'pipe', 'pipe'] });
const base = await new Promise((resolve, reject) => {
  const t = setTimeout(() => reject(new Error('the server did not start')), 20000);
  const seen = (b) => {
    const m = String(b).match(/listening on (http:\/\/[\d.]+:\d+)/);
    if (m) { clearTimeout(t); resolve(m[1]); }
  };
  server.stdout.on('data', seen);
  server.stderr.on('data', seen);
});

const ROOMS = {
  diloti: { rules: 'diloti', players: 2, seats: ['person', 'ai:builder'], names: ['Ann', ''], seed: 7, moves: 3 },
  pilotta: { rules: 'pilotta', players: 4, seats: ['person', 'ai', 'ai', 'ai'], names: ['Ann', '', '', ''], seed: 3,
    moves: 6 },
};

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true });
try {
  for (const [name, room] of Object.entries(ROOMS)) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(base + '/');
    const made = await page.evaluate(async (o) => {
      const ws = new WebSocket(location.origin.replace('http', 'ws') + '/ws', 'diloti.v1');
      await new Promise((r) => { ws.onopen = r; });
      ws.send(JSON.stringify({ v: 1, type: 'create', pace: 0.3, ...o }));
      const m = await new Promise((r) => { ws.onmessage = (e) => r(JSON.parse(e.data)); });
      ws.close();
      return m;
    }, { rules: room.rules, players: room.players, seats: room.seats, names: room.names, seed: room.seed });
    await page.goto(made.seats[0].link);
    for (let i = 0; i <= room.moves; i++) {
      await page.waitForSelector('body[data-my-turn="true"]', { timeout: 30000 });
      if (i === room.moves) break;
      await page.click('#moves button[data-move]');
      await page.waitForFunction(() => document.body.dataset.myTurn !== 'true', null, { timeout: 30000 });
    }
    await page.screenshot({ path: path.join(out, `${name}-board.png`) });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(out, `${name}-board-375.png`) });
    await page.close();
    console.log(`${name}: ${path.join(out, `${name}-board.png`)}, ${name}-board-375.png`);
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
}
