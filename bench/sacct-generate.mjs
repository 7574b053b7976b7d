// A generated Slurm `sacct -P` history of `jobs` allocations, each with its .batch step (so
// 2 × jobs records), 1–8 GPUs in TRES, run times from a minute to ten hours, all COMPLETED:
// the input of the import benchmark (bench/history-import.mjs) and the page's large-import
// test (e2e/history-import.test.mjs). The same text for the same count.
export function generateSacct(jobs) {
  const lines = ['JobID|State|Submit|Start|End|ElapsedRaw|AllocTRES'];
  const t = (s) => new Date(s * 1000).toISOString().slice(0, 19);
  for (let i = 0; i < jobs; i++) {
    const submit = 1_740_960_000 + i * 12;
    const run = 60 + (i * 7919) % 36_000;
    const gpus = [1, 1, 1, 2, 4, 8][i % 6];
    const tres = `cpu=8,gres/gpu=${gpus},node=1`;
    lines.push(`${i + 1}|COMPLETED|${t(submit)}|${t(submit + 30)}|${t(submit + 30 + run)}|${run}|${tres}`);
    lines.push(`${i + 1}.batch|COMPLETED|${t(submit + 30)}|${t(submit + 30)}|${t(submit + 30 + run)}|${run}|${tres}`);
  }
  return lines.join('\n') + '\n';
}
