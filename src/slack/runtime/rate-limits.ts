/** Slack's rate limits (429) waited out at the network edge, so a burst of posts is delayed, never lost. */

/** How long one Web API call may spend waiting out rate limits, in all, by default. */
export const RATE_LIMIT_WAIT_MS = 5 * 60_000;

/**
 * `fetch` that waits as long as a 429's Retry-After says and sends the request again, until the
 * waits would pass `budgetMs`; then the 429 goes to the WebClient, whose own retries follow. The
 * WebClient alone counts each 429 against the few retries meant for failures, so a burst in one
 * channel (1 post a second) used them up and dropped the rest. Each wait counts at least a second
 * against the budget, so a `Retry-After: 0` cannot spin.
 */
export function waitOutRateLimits(fetchImpl: typeof fetch, budgetMs = RATE_LIMIT_WAIT_MS): typeof fetch {
  return async (input, init) => {
    let spent = 0;
    for (;;) {
      const response = await fetchImpl(input, init);
      const seconds = Number(response.headers.get('retry-after') ?? Number.NaN);
      if (response.status !== 429 || !Number.isFinite(seconds) || seconds < 0) return response;
      const waitMs = seconds * 1000;
      spent += Math.max(waitMs, 1000);
      if (spent > budgetMs) return response;
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  };
}
