// LLM serving in tokens: the llm-70b-chat preset shows the CLI's $ per million output tokens,
// TTFT and TPOT and its verdict; a user turns a service into an LLM, sees a model too big for
// its GPUs refused with both figures, shards it until it fits, and the link keeps it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cliEval, metric, openCalculator, openPreset, runId, settledHash, typeNumber, waitForRun,
} from './harness.mjs';

const close = (got, want) => Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want));

test('llm-70b-chat: the CLI\'s tokens, latencies and verdict on the cards', async () => {
  const report = cliEval('llm-70b-chat');
  const app = await openPreset('llm-70b-chat');
  try {
    const page = app.page;
    const perToken = await metric(page, 'usd_per_million_output_tokens.p50');
    const service = {
      cost: await metric(page, 'services.0.llm.usd_per_million_output_tokens.p50'),
      ttft: await metric(page, 'services.0.llm.ttft_p95_ms.p50'),
      tpot: await metric(page, 'services.0.llm.tpot_p95_ms.p50'),
    };
    for (const p of report.platforms) {
      const llm = p.services[0].llm;
      assert.ok(close(perToken[p.name], p.usd_per_million_output_tokens.p50), `${p.name}: ${perToken[p.name]}`);
      assert.ok(close(service.cost[p.name], llm.usd_per_million_output_tokens.p50), p.name);
      assert.ok(close(service.ttft[p.name], llm.ttft_p95_ms.p50), p.name);
      assert.ok(close(service.tpot[p.name], llm.tpot_p95_ms.p50), p.name);
    }
    const verdict = (await page.locator('.verdict').textContent()).trim();
    assert.ok(verdict.startsWith(report.verdict), `page: ${verdict}\ncli:  ${report.verdict}`);
    assert.match(verdict, /per million output tokens/);
    assert.equal(await page.locator('#service-0-llm-model').inputValue(), 'llama-3.1-70b');
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('a service made an LLM: a model too big is refused with both figures, sharded it fits, the link keeps it', async () => {
  const app = await openCalculator();
  try {
    const page = app.page;
    if (await page.locator('#service-0-llm-model').count() === 0) {
      const before = await runId(page);
      await page.getByRole('button', { name: 'Add service' }).click();
      await waitForRun(page, before);
    }
    // The measured capacity is in view until the service is an LLM.
    assert.equal(await page.locator('fieldset.service').first().getByLabel('Capacity per replica').count(), 1);
    await page.locator('#service-0-llm-model').selectOption('llama-3.1-70b');
    // 70.6 B parameters in bf16 on one GPU: refused, naming its weights and the GPU's memory.
    const error = page.locator('.scenario-error');
    await page.waitForFunction(() => document.querySelector('.scenario-error').textContent.includes('does not fit'));
    const text = await error.textContent();
    assert.match(text, /141\.2 GB per GPU/);
    assert.match(text, /GB usable/);
    const fieldset = page.locator('fieldset.service').first();
    assert.equal(await fieldset.getByLabel('Capacity per replica').count(), 0);
    const run = await runId(page);
    const tp = await fieldset.getByLabel('GPUs per replica (tensor parallel)').getAttribute('id');
    await typeNumber(page, tp, 8);
    await waitForRun(page, run);
    assert.equal((await error.textContent()).trim(), '');
    const ttft = await metric(page, 'services.0.llm.ttft_p95_ms.p50');
    assert.ok(Object.values(ttft).every((v) => v > 0), JSON.stringify(ttft));
    // The link reopens the same LLM service.
    const hash = await settledHash(page);
    const again = await openCalculator({ hash: `#${hash}` });
    try {
      assert.equal(await again.page.locator('#service-0-llm-model').inputValue(), 'llama-3.1-70b');
      const field = again.page.locator('fieldset.service').first().getByLabel('GPUs per replica (tensor parallel)');
      assert.equal(await field.inputValue(), '8');
      assert.deepEqual(again.problems, []);
    } finally {
      await again.close();
    }
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
