// The README's example, type-checked by `make pkg` against the generated declarations.
import init, { presets, evaluate, encodeLink, decodeLink, fitHistory } from "./gpucost.js";
import type { EvalReport, Scenario } from "./gpucost.js";

export async function example(history: string): Promise<void> {
  await init(); // fetches gpucost_bg.wasm next to gpucost.js
  const first = presets()[0];
  const scenario: Scenario = { ...first.scenario, replications: 50 };
  const report: EvalReport = evaluate(scenario);
  for (const p of report.platforms) {
    console.log(p.name, p.monthly_tco_usd.p50, p.usd_per_useful_gpu_hour?.p50);
  }
  // A link reproduces the scenario anywhere; notices say what a damaged link lost.
  const link = encodeLink(scenario, first.name);
  const { scenario: again, notices } = decodeLink(`https://example.org/calc/#${link}`);
  console.log(notices.length === 0, again.replications);
  // Job classes fitted to a job history (CSV text), bad rows by line.
  const fitted = fitHistory(history, scenario);
  fitted.bad_rows.forEach((row) => console.log(`line ${row.line}: ${row.reason}`));
  console.log(fitted.summary.join("\n"), fitted.scenario.job_classes?.length);
}
