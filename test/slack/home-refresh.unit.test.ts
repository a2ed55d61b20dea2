/** The Home tab's refresher: bursts coalesce, tabs never opened are left alone, publishes spaced. */
// The Home tab's refresher: bursts of changes coalesce, people who never opened it are left alone, publishes are spaced.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { HomeRefresher } from '../../src/slack/home/refresh.js';
import { InFlight } from '../../src/slack/runtime/in-flight.js';

function refresher(timing: { perPersonMs: number; spacingMs: number }) {
  const inFlight = new InFlight(pino({ level: 'silent' }));
  const published: { userId: string; at: number }[] = [];
  const home = new HomeRefresher(
    inFlight,
    async (userId) => {
      published.push({ userId, at: performance.now() });
    },
    timing,
  );
  return { home, published, idle: () => inFlight.idle() };
}

describe('Home tab refresher', () => {
  it('draws a tab when opened, then shows a burst of changes in one more publish', async () => {
    const { home, published, idle } = refresher({ perPersonMs: 150, spacingMs: 0 });
    const openedAt = performance.now();
    home.opened('U1');
    await idle();
    expect(published.map((p) => p.userId)).toEqual(['U1']);
    for (let i = 0; i < 50; i++) home.changed('U1');
    await idle();
    expect(published.map((p) => p.userId)).toEqual(['U1', 'U1']);
    // The second waited until the person's interval had passed since the first began, which was after
    // openedAt (counted from the first's own stamp, a busy machine pausing the test between the
    // refresher's clock and that stamp would shorten the interval measured).
    expect((published[1]?.at ?? 0) - openedAt).toBeGreaterThanOrEqual(145);
  });

  it('leaves alone the tabs of people who have not opened theirs', async () => {
    const { home, published, idle } = refresher({ perPersonMs: 0, spacingMs: 0 });
    home.changed('U2');
    home.opened('U1');
    home.changed('U3');
    await idle();
    expect(published.map((p) => p.userId)).toEqual(['U1']);
  });

  it('spaces out everyone’s publishes', async () => {
    const { home, published, idle } = refresher({ perPersonMs: 0, spacingMs: 40 });
    const people = Array.from({ length: 6 }, (_, i) => `U${i}`);
    const openedAt = performance.now();
    for (const person of people) home.opened(person);
    await idle();
    expect(published.map((p) => p.userId).sort()).toEqual(people.sort());
    // The n-th publish came n spacings after the tabs were opened (from openedAt, as above).
    published.forEach((publish, n) => {
      expect(publish.at - openedAt, `publish ${n}`).toBeGreaterThanOrEqual(n * 38);
    });
  });

  it('a change while a publish is under way gets a publish of its own', async () => {
    const inFlight = new InFlight(pino({ level: 'silent' }));
    const published: string[] = [];
    let home: HomeRefresher | undefined;
    home = new HomeRefresher(
      inFlight,
      async (userId) => {
        published.push(userId);
        // Someone books while the first tab is being drawn.
        if (published.length === 1) home?.changed(userId);
      },
      { perPersonMs: 0, spacingMs: 0 },
    );
    home.opened('U1');
    await inFlight.idle();
    expect(published).toEqual(['U1', 'U1']);
  });
});
