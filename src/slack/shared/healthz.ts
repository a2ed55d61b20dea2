/** GET /healthz: 200 "ok" while the HTTP receiver is up and the database answers, else 503, for load balancers. */
import type { CustomRoute } from '@slack/bolt';
import type { Logger } from 'pino';
import type { Store } from '../../store/index.js';

/**
 * Ready means able to do the work: a replica whose database does not answer is taken out of the
 * balancer's rotation (503) until it answers again, and its peers take the requests.
 */
export function healthzRoute({ store, logger }: { store: Pick<Store, 'ping'>; logger: Logger }): CustomRoute {
  return {
    path: '/healthz',
    method: ['GET'],
    handler: async (_req, res) => {
      const ready = await store.ping().then(
        () => true,
        (err: unknown) => {
          logger.warn({ err }, 'not ready: the database did not answer');
          return false;
        },
      );
      res.writeHead(ready ? 200 : 503, { 'Content-Type': 'text/plain' });
      res.end(ready ? 'ok' : 'database unavailable');
    },
  };
}
