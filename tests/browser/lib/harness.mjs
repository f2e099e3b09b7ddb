// The suite's harness: one temporary folder, one `diloti serve` of its own
// on a free loopback port, one chromium (Debian's) driven by playwright-core.
// Everything the suite writes is inside the folder (the server's data, the
// browser's profiles and caches, the screenshots); the server and the
// browser are stopped at the end whatever happens, and every wait is bounded.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../../..');
const bin = path.resolve(root, process.env.DILOTI_BIN || 'build/diloti');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

// A bound for each single wait (a page's element, a server's frame); a
// loaded machine gets the same answer, only later.
export const WAIT = 30000;

/** The suite's temporary folder: made once, under the system's own. */
export const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'diloti-browser-'));
export const artefacts = path.join(tmp, 'artefacts');
fs.mkdirSync(artefacts);
// playwright-core puts the browser's profiles under os.tmpdir(): ours.
const sysTmp = path.join(tmp, 'sys');
fs.mkdirSync(sysTmp);
process.env.TMPDIR = sysTmp;

let server = null;
let browser = null;

function stopServer() {
  if (server && server.exitCode === null && server.signalCode === null) {
    try { server.kill('SIGTERM'); } catch { /* already gone */ }
  }
}

// Whatever ends the process, the server ends with it (playwright-core
// closes its browser on these signals by itself).
process.on('exit', stopServer);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    console.log(`# stopped by ${sig}`);
    const t = setTimeout(() => process.exit(1), 8000);
    shutdown().finally(() => { clearTimeout(t); process.exit(1); });
  });
}

/** Starts the server: resolves to its base address (http://127.0.0.1:PORT). */
export function startServer() {
  const data = path.join(tmp, 'data');
  const log = fs.openSync(path.join(tmp, 'server.log'), 'w');
  server = spawn(bin, ['serve', '--listen', '127.0.0.1', '--port', '0', '--static', 'web', '--data', data,
    '--room-rate', '6000', '--rate', '1000', '--advice-rate', '6000'],
  { cwd: root, stdio: ['ignore', 'pipe', log] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => { stopServer(); reject(new Error(`the server did not start within ${WAIT} ms: ${out}`)); }, WAIT);
    server.stdout.on('data', (chunk) => {
      fs.writeSync(log, chunk);
      out += chunk;
      const m = out.match(/listening on (http:\/\/[\d.]+:\d+)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    server.on('exit', (code, sig) => { clearTimeout(timer); reject(new Error(`the server exited (${code ?? sig}): ${out}`)); });
    server.on('error', (e) => { clearTimeout(timer); reject(e); });
  });
}

/** Stops the server and waits (bounded) until it is gone. */
export async function shutdown() {
  if (browser) {
    await Promise.race([browser.close(), new Promise((r) => setTimeout(r, 10000))]).catch(() => {});
    browser = null;
  }
  if (server && server.exitCode === null && server.signalCode === null) {
    const gone = new Promise((r) => { server.once('exit', r); });
    stopServer();
    const t = setTimeout(() => { try { server.kill('SIGKILL'); } catch { /* gone */ } }, 5000);
    await gone;
    clearTimeout(t);
  }
  // The artefacts (screenshots, the server's log) stay; the rest goes.
  for (const d of ['sys', 'data', 'home']) fs.rmSync(path.join(tmp, d), { recursive: true, force: true });
  if (fs.existsSync(path.join(tmp, 'server.log'))) fs.renameSync(path.join(tmp, 'server.log'), path.join(artefacts, 'server.log'));
}

/** The one browser of the suite (headless Debian chromium). */
export async function launch() {
  const home = path.join(tmp, 'home');
  fs.mkdirSync(home, { recursive: true });
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    timeout: WAIT,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache') },
  });
  return browser;
}

/** A fresh browser context (its own storage: a separate person) and a page in it. */
export async function newPage(opts = {}) {
  const context = await browser.newContext({ viewport: opts.viewport || { width: 1280, height: 900 } });
  context.setDefaultTimeout(WAIT);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.errors = errors;
  return page;
}

/** Saves a screenshot among the artefacts and prints its path. */
export async function screenshot(page, name) {
  const file = path.join(artefacts, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, timeout: WAIT });
  console.log(`# screenshot: ${file}`);
  return file;
}

/** What the scenarios share: base (the server's address), set by suite.mjs. */
export const ctx = {};
