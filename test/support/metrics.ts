/** Reading the bot's metrics in tests: a metric's value by labels, and waiting for one to reach a value. */
import type { Metrics } from '../../src/metrics.js';

/** The sum of a metric's samples whose labels include `labels` (a histogram's: of `suffix`, e.g. `_count`). */
export async function sample(
  metrics: Metrics,
  name: string,
  labels: Record<string, string> = {},
  suffix = '',
): Promise<number> {
  const metric = metrics.registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  return values
    .filter((v) => (suffix ? (v as { metricName?: string }).metricName === `${name}${suffix}` : true))
    .filter((v) => Object.entries(labels).every(([key, value]) => v.labels[key] === value))
    .reduce((sum, v) => sum + v.value, 0);
}

/** Polls `read` until it gives `expected`, for at most 5 s. */
export async function until(read: () => Promise<number>, expected: number): Promise<void> {
  const deadline = performance.now() + 5000;
  for (;;) {
    const value = await read();
    if (value === expected) return;
    if (performance.now() > deadline) throw new Error(`still ${value}, expected ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
