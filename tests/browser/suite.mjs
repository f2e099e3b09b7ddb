// The browser suite (make test runs it: node --test-reporter=tap suite.mjs).
// One server and one browser for every scenario; each scenario has a timeout.
import { before, after } from 'node:test';
import * as h from './lib/harness.mjs';

before(async () => {
  console.log(`# temporary folder: ${h.tmp}`);
  h.ctx.base = await h.startServer();
  await h.launch();
}, { timeout: 60000 });

after(async () => {
  await h.shutdown();
  console.log(`# artefacts: ${h.artefacts}`);
}, { timeout: 60000 });

if (!process.env.ONLY || process.env.ONLY === 'smoke') await import('./scenarios/smoke.mjs');
if (!process.env.ONLY || process.env.ONLY === 'lobby') await import('./scenarios/lobby.mjs');
if (!process.env.ONLY || process.env.ONLY === 'pilotta') await import('./scenarios/pilotta.mjs');
if (!process.env.ONLY || process.env.ONLY === 'diloti') await import('./scenarios/diloti.mjs');
if (!process.env.ONLY || process.env.ONLY === 'table') await import('./scenarios/table.mjs');
