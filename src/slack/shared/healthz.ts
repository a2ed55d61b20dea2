/** GET /healthz: 200 "ok" while the HTTP receiver is up, for load balancers and start-up checks. */
import type { CustomRoute } from '@slack/bolt';

export const healthzRoute: CustomRoute = {
  path: '/healthz',
  method: ['GET'],
  handler: (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('ok');
  },
};
