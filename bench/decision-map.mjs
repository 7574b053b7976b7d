// The decision map as a user meets it, in the release page (dist/) in headless Chromium: from
// choosing its inputs (opening the panel, then new inputs across) to its coarse 4 × 4 pass on
// screen (the frame after the figure says 16 cells are in) and to the whole 12 × 12 map; and
// the page's long tasks (over 50 ms) meanwhile. Exports measureDecisionMap(); `node
// bench/decision-map.mjs [<link fragment>]` prints its figures for the default scenario or the
// fragment's.
import { SUB_PATH, launchBrowser, serveDist, stopServer } from '../e2e/harness.mjs';

// A sample that timed out (2 minutes) counts as the longest.
const finite = (v) => v.map((x) => (Number.isFinite(x) ? x : Infinity));
const median = (v) => finite(v).sort((a, b) => a - b)[Math.floor(v.length / 2)];

/**
 * Opens the page on `fragment`, waits for its run, then times the map: once opening the panel
 * (its default inputs), then once for each of `across` chosen as the horizontal input.
 */
export async function measureDecisionMap(fragment = '', across = ['fte_cost', 'egress_price', 'spot_interruption_rate', 'fte_cost', 'egress_price'], distDir = process.env.DIST ?? 'dist') {
  const server = await serveDist(distDir);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(() => {
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longTasks.push(e.duration);
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(`http://127.0.0.1:${server.address().port}${SUB_PATH}${fragment ? `#${fragment}` : ''}`);
    await page.waitForFunction(() => document.querySelector('section.results')?.dataset.state === 'done'
      && document.querySelector('[data-metric="monthly_tco_usd.p50"]'), null, { timeout: 300_000 });
    await page.waitForTimeout(1500); // the tornado and break-evens after the run
    const time = (action) => page.evaluate(async ([act]) => {
      const figure = () => document.querySelector('figure.chart.decision-map');
      const before = Number(figure()?.dataset.mapId ?? 0);
      const fresh = () => figure() && Number(figure().dataset.mapId) > before;
      const cells = () => (fresh() ? Number(figure().dataset.mapCells) : 0);
      const frame = () => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      const longBefore = window.__longTasks.length;
      const t0 = performance.now();
      if (act.open) {
        document.querySelector('#decision-map > summary').click();
      } else {
        const select = document.getElementById('map-x');
        select.value = act.across;
        select.dispatchEvent(new Event('change', { bubbles: true }));
      }
      let coarse = NaN;
      let full = NaN;
      while (Number.isNaN(full)) {
        await new Promise((ok) => setTimeout(ok, 2));
        if (Number.isNaN(coarse) && cells() >= 16) { await frame(); coarse = performance.now() - t0; }
        if (fresh() && figure().dataset.mapState === 'done') { await frame(); full = performance.now() - t0; }
        if (performance.now() - t0 > 120_000) break;
      }
      const tasks = window.__longTasks.slice(longBefore);
      return { coarse, full, longTasks: tasks.length, longest: Math.max(0, ...tasks) };
    }, [action]);
    const samples = [await time({ open: true })];
    for (const id of across) samples.push(await time({ across: id }));
    return {
      samples,
      coarseMedian: median(samples.map((s) => s.coarse)),
      coarseMax: Math.max(...finite(samples.map((s) => s.coarse))),
      fullMedian: median(samples.map((s) => s.full)),
      fullMax: Math.max(...finite(samples.map((s) => s.full))),
      longTasks: samples.reduce((a, s) => a + s.longTasks, 0),
      longest: Math.max(...samples.map((s) => s.longest)),
    };
  } finally {
    await browser.close();
    await stopServer(server);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fragment = process.argv[2] ?? '';
  const across = process.argv[3]?.split(',');
  console.log(JSON.stringify(await measureDecisionMap(fragment, across), null, 2));
}
