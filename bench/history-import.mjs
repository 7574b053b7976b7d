// The job-history import's speed: records per second reading a generated sacct file of
// 1,000,000 jobs (2,000,000 records with their steps) with the native CLI, and one of
// 200,000 jobs dropped into the page (read in its import worker, until the fit table shows).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropFile, openCalculator, openFilesPanel } from '../e2e/harness.mjs';
import { generateSacct } from './sacct-generate.mjs';

/** Native: seconds for `gpucost history` on 1,000,000 jobs (best of 3), and records/s. */
export function measureNativeImport(bin, jobs = 1_000_000) {
  const dir = mkdtempSync(join(tmpdir(), 'gpucost-import-'));
  try {
    const file = join(dir, 'sacct.txt');
    const text = generateSacct(jobs);
    writeFileSync(file, text);
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const start = process.hrtime.bigint();
      const run = spawnSync(bin, ['history', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
      const s = Number(process.hrtime.bigint() - start) / 1e9;
      if (run.status !== 0) throw new Error(run.stderr);
      best = Math.min(best, s);
    }
    return { jobs, records: 2 * jobs, bytes: Buffer.byteLength(text), seconds: best, recordsPerSecond: (2 * jobs) / best };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The page: ms from the drop to the fit table for 200,000 jobs, and records/s. */
export async function measurePageImport(jobs = 200_000) {
  const text = generateSacct(jobs);
  const app = await openCalculator();
  try {
    const { page } = app;
    await openFilesPanel(page);
    const start = Date.now();
    await dropFile(page, 'sacct.txt', text, 'text/plain');
    await page.locator('.fit-summary').waitFor({ timeout: 300_000 });
    const ms = Date.now() - start;
    return { jobs, records: 2 * jobs, bytes: Buffer.byteLength(text), ms, recordsPerSecond: (2 * jobs) / (ms / 1000) };
  } finally {
    await app.close();
  }
}
