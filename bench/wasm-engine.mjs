// The simulation core in WebAssembly: the same scenarios (bench/scenarios/engine.json) and
// replications as the native criterion benches (benches/engine.rs), run through pkg/ in
// headless Chromium, timed in the page. Exports measureWasm(); `node bench/wasm-engine.mjs`
// prints its figures for every scenario.
import { readFileSync } from 'node:fs';
import { SUB_PATH, launchBrowser, serveDist, stopServer } from '../e2e/harness.mjs';

export const REPLICATIONS = 8; // as benches/engine.rs
const RUNS = 25;

/** The benchmark scenario and its per-mechanism variants, as benches/engine.rs reads them:
 * [{ name, file }] from bench/scenarios/engine.json. */
export const ENGINE_SCENARIOS = JSON.parse(readFileSync(new URL('./scenarios/engine.json', import.meta.url)));
export const MIXED = ENGINE_SCENARIOS[0].name;

/** { name: { medianMs, jobRuns, events } } in Chromium, for the scenarios of engine.json named
 * in `names` (by default all of them), each in turn in one page. */
export async function measureWasm(names = ENGINE_SCENARIOS.map((s) => s.name)) {
  const scenarios = names.map((name) => {
    const listed = ENGINE_SCENARIOS.find((s) => s.name === name);
    if (!listed) throw new Error(`"${name}" is not in bench/scenarios/engine.json`);
    const scenario = JSON.parse(readFileSync(new URL(`./scenarios/${listed.file}`, import.meta.url)));
    scenario.replications = REPLICATIONS;
    return { name, scenario };
  });
  const server = await serveDist('.');
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const base = `http://127.0.0.1:${server.address().port}${SUB_PATH}`;
    await page.goto(`${base}bench/scenarios/engine.json`);
    return await page.evaluate(async ({ pkg, scenarios, runs }) => {
      const m = await import(pkg);
      await m.default();
      const out = {};
      for (const { name, scenario } of scenarios) {
        // Warm-up: compile, first-touch memory, and let V8 move the hot functions from its
        // baseline compiler to the optimising one. That happens in the background, and the
        // run's outer loop only switches at its next call (WebAssembly has no on-stack
        // replacement); after three warm-up runs the first timed runs were often 10-30 %
        // slower than the rest. So each scenario warms up for at least two seconds, then
        // times 25 runs: this machine also has spells of about half a second where every run
        // is ~45 % slower (seen with V8's eager optimising compilation too), which the median
        // of 25 rides out.
        const warmUntil = performance.now() + 2000;
        for (let i = 0; i < 5 || performance.now() < warmUntil; i++) m.simulate(scenario);
        const times = [];
        let counts;
        for (let i = 0; i < runs; i++) {
          const t0 = performance.now();
          counts = m.simulate(scenario);
          times.push(performance.now() - t0);
        }
        times.sort((a, b) => a - b);
        out[name] = {
          medianMs: times[Math.floor(times.length / 2)],
          jobRuns: counts.job_runs,
          events: counts.events,
        };
      }
      return out;
    }, { pkg: `${base}pkg/gpucost.js`, scenarios, runs: RUNS });
  } finally {
    await browser.close();
    await stopServer(server);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = await measureWasm();
  for (const [name, r] of Object.entries(out)) {
    const perS = (n) => (n / (r.medianMs / 1000) / 1e6).toFixed(3);
    console.log(`${name}: ${r.medianMs.toFixed(1)} ms, ${perS(r.jobRuns)} M job-runs/s, ${perS(r.events)} M events/s`);
  }
}
