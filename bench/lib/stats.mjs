// Medians, not means: on a shared 2-core machine a few runs always land on a busy moment.

export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Value at quantile q (0..1) by nearest rank. */
export function quantile(values, q) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Summary kept in results.json for each sampled series. */
export function summarize(values) {
  return { n: values.length, median: median(values), p10: quantile(values, 0.1), p90: quantile(values, 0.9), min: Math.min(...values), max: Math.max(...values) };
}

/**
 * Run `reference` and `subject` alternately (ABBA order, so neither always goes first after a
 * pause), `runs` times each; each returns one sample. Warm-up runs are discarded.
 */
export async function alternate(runs, reference, subject, warmup = 1) {
  for (let i = 0; i < warmup; i++) {
    await reference();
    await subject();
  }
  const ref = [];
  const sub = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      ref.push(await reference());
      sub.push(await subject());
    } else {
      sub.push(await subject());
      ref.push(await reference());
    }
  }
  return [ref, sub];
}

/**
 * Like alternate() for any number of series: each round runs every function once, the order
 * reversed every other round. Returns one array of samples per function.
 */
export async function alternateAll(runs, fns, warmup = 1) {
  for (let i = 0; i < warmup; i++) for (const fn of fns) await fn();
  const out = fns.map(() => []);
  const order = fns.map((_, i) => i);
  for (let r = 0; r < runs; r++) for (const i of r % 2 === 0 ? order : [...order].reverse()) out[i].push(await fns[i]());
  return out;
}
