/** The Home tab drawn when someone opens it, and redrawn after their own bookings and updates. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { HomeRefresher } from './refresh.js';
import { publishHome } from './send.js';

export function register(app: App, deps: Core): void {
  const refresher = new HomeRefresher(
    deps.inFlight,
    (userId) =>
      publishHome(deps, app.client, userId).catch((err: unknown) => {
        deps.logger.warn({ err, user: userId }, 'a Home tab could not be drawn');
      }),
    deps.homeRefresh,
  );
  deps.activity.onChange((userId) => refresher.changed(userId));
  app.event('app_home_opened', requires(deps, 'nothing'), async ({ event }) => {
    // The Messages tab opens this event too; only the Home tab is drawn.
    if (event.tab === 'home') refresher.opened(event.user);
  });
}
