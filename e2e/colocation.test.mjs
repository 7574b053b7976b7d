// Stories: a platform engineer weighing one Kubernetes cluster for training and serving
// against node groups of their own opens train-sagemaker-serve-eks, reads how many training
// jobs the replicas preempt as `gpucost eval` counts them, and turns the sharing off to see
// the one cluster become its twin again; the link carries the switch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, cliEval, metric, openPreset, runId, settledHash, waitForRun } from './harness.mjs';

const PRESET = 'train-sagemaker-serve-eks';
const ONE = 'EKS, one cluster for both';
const TWIN = 'EKS + Karpenter';

test(`${PRESET}: one cluster for both shows the preemptions and costs gpucost eval computes; off, it is its twin`, async () => {
  const app = await openPreset(PRESET);
  try {
    const { page } = app;
    const cli0 = cliEval(PRESET);
    const one = cli0.platforms.find((p) => p.name === ONE);
    const tco = await metric(page, 'monthly_tco_usd.p50');
    for (const p of cli0.platforms) {
      assert.ok(Math.abs(tco[p.name] - p.monthly_tco_usd.p50) <= 1e-9 * tco[p.name], p.name);
    }
    // Only the platform sharing its training nodes counts preemptions.
    const preempted = await metric(page, 'preemptions.mean');
    assert.deepEqual(Object.keys(preempted), [ONE]);
    assert.equal(preempted[ONE], one.preemptions.mean);
    // Its training and serving do not come apart: no split names it.
    const splits = await page.locator('[data-metric="split.monthly_tco_usd.p50"]').evaluateAll((els) =>
      els.map((e) => [e.dataset.trains, e.dataset.serves]));
    assert.ok(splits.length > 0 && splits.every(([t, s]) => t !== ONE && s !== ONE), JSON.stringify(splits));

    // Off: the same nodes for training, nodes of their own for the replicas, as its twin.
    const id = 'platform-2-shares-training-nodes';
    const details = page.locator(`details.all-settings:has(#${id})`);
    await details.locator('> summary').click();
    assert.equal(await page.locator(`#${id}`).isChecked(), true);
    const before = await runId(page);
    await page.locator(`#${id}`).uncheck();
    await waitForRun(page, before, 300_000);
    const off = await metric(page, 'monthly_tco_usd.p50');
    assert.equal(off[ONE], off[TWIN]);
    const cliOff = JSON.parse(cli('eval', '--preset', PRESET, '--set', 'platforms.2.serving.shares_nodes_with_training=false'));
    assert.ok(Math.abs(off[ONE] - cliOff.platforms[2].monthly_tco_usd.p50) <= 1e-9 * off[ONE]);
    assert.deepEqual(await metric(page, 'preemptions.mean'), {});
    // The link carries the switch: the CLI opens it with the same numbers.
    const hash = await settledHash(page);
    const fromLink = JSON.parse(cli('eval', '--url', `#${hash}`));
    assert.equal(fromLink.platforms[2].monthly_tco_usd.p50, cliOff.platforms[2].monthly_tco_usd.p50);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
