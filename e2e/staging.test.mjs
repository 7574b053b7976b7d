// Data staging on the page: the fsx-vs-s3-direct preset shows the staging and storage costs
// `gpucost eval` computes, and choosing another FSx for Lustre tier in a platform's settings
// moves its storage cost as the price table says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, cliEval, metric, openPreset, runId, waitForRun } from './harness.mjs';

const close = (got, want) => Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want));

test('fsx-vs-s3-direct: the page shows the CLI\'s staging and storage, and the storage choice moves them', async () => {
  const report = cliEval('fsx-vs-s3-direct');
  const app = await openPreset('fsx-vs-s3-direct');
  try {
    const page = app.page;
    const staging = await metric(page, 'breakdown_usd.data_staging');
    const storage = await metric(page, 'breakdown_usd.storage');
    for (const p of report.platforms) {
      assert.ok(p.breakdown_usd.data_staging > 0, `${p.name} stages its data`);
      assert.ok(close(staging[p.name] ?? 0, p.breakdown_usd.data_staging), `${p.name}: ${staging[p.name]}`);
      assert.ok(close(storage[p.name] ?? 0, p.breakdown_usd.storage), `${p.name}: ${storage[p.name]}`);
    }
    // The small file system: 2,400 GiB billed at $0.145 (125 MB/s per TiB), beside the bucket's
    // 20,000 GB at $0.023. At 250 MB/s per TiB the same capacity costs $0.215 a GiB.
    const small = report.platforms[2];
    assert.ok(close(small.breakdown_usd.storage, 20_000 * 0.023 + 2_400 * 0.145), `${small.breakdown_usd.storage}`);
    const faster = JSON.parse(cli('eval', '--preset', 'fsx-vs-s3-direct', '--set', 'platforms.2.staging.storage=fsx_lustre_persistent_250'));
    assert.ok(close(faster.platforms[2].breakdown_usd.storage, 20_000 * 0.023 + 2_400 * 0.215));
    // Twice the throughput: less staging.
    assert.ok(faster.platforms[2].breakdown_usd.data_staging < small.breakdown_usd.data_staging);
    const before = await runId(page);
    await page.evaluate(() => document.querySelectorAll('details.all-settings').forEach((d) => { d.open = true; }));
    await page.locator('#platform-2-staging-storage').selectOption('fsx_lustre_persistent_250');
    await waitForRun(page, before, 120_000);
    const moved = await metric(page, 'breakdown_usd.storage');
    assert.ok(close(moved[small.name], faster.platforms[2].breakdown_usd.storage), `${moved[small.name]}`);
    const movedStaging = await metric(page, 'breakdown_usd.data_staging');
    assert.ok(close(movedStaging[small.name], faster.platforms[2].breakdown_usd.data_staging), `${movedStaging[small.name]}`);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
