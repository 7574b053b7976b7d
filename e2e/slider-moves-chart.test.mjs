// Story: a user drags the node slider with the keyboard and the chart follows the formula
// monthly cost = nodes × price per node-hour × 730 h.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { barValue, openCalculator, usd } from './harness.mjs';

// p4d.24xlarge us-east-1 list prices shown on the page (USD per node-hour).
const ON_DEMAND = 32.7726;
const SPOT = 6.7915;
const HOURS = 730;

function assertClose(got, want) {
  assert.ok(Math.abs(got - want) < 1e-6, `got ${got}, want ${want}`);
}

test('moving the slider moves the bars by exactly the predicted amount', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const slider = page.getByLabel(/^Nodes \(p4d\.24xlarge/);
    const before = Number(await slider.inputValue());
    const onDemandBefore = await barValue(page, 'On-demand');
    assertClose(onDemandBefore, before * ON_DEMAND * HOURS);

    await slider.focus();
    for (let i = 0; i < 3; i += 1) await slider.press('ArrowRight');
    assert.equal(Number(await slider.inputValue()), before + 3);

    const onDemandAfter = await barValue(page, 'On-demand');
    // Three more nodes: +3 × $32.7726 × 730 h = +$71,771.994.
    assertClose(onDemandAfter - onDemandBefore, 71_771.994);
    assertClose(await barValue(page, 'Spot'), (before + 3) * SPOT * HOURS);
    // The label above the bar shows the same number, in dollars with thousands separators.
    const labels = await page.locator('text.bar-value').allTextContents();
    assert.deepEqual(labels, [
      usd((before + 3) * ON_DEMAND * HOURS),
      usd((before + 3) * SPOT * HOURS),
    ]);
    // The number field beside the slider follows it.
    assert.equal(await page.locator('#nodes-number').inputValue(), String(before + 3));

    // End jumps to the maximum, 64 nodes.
    await slider.press('End');
    assertClose(await barValue(page, 'On-demand'), 64 * ON_DEMAND * HOURS);
    await page.screenshot({ path: 'e2e/artifacts/slider-at-max.png', fullPage: true });
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('a number outside the range is refused with a message and the chart keeps its value', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const before = await barValue(page, 'On-demand');
    const field = page.locator('#nodes-number');
    await field.fill('0');
    await field.press('Enter');
    await field.blur();
    assert.equal(
      await page.getByTestId('nodes-error').textContent(),
      'Nodes must be from 1 to 64; got 0.',
    );
    assert.equal(await barValue(page, 'On-demand'), before);

    await field.fill('12');
    await field.blur();
    assert.equal(await page.getByTestId('nodes-error').textContent(), '');
    assertClose(await barValue(page, 'On-demand'), 12 * ON_DEMAND * HOURS);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
