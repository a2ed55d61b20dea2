/** The type-ahead's options: saved parties matching what the dispatcher has typed so far. */

import type { Middleware, SlackOptionsMiddlewareArgs } from '@slack/bolt';
import type { Store } from '../../store/index.js';
import type { Core } from '../core.js';
import { MAX_OPTIONS } from '../kit/forms.js';
import { partyOptions } from './blocks.js';

/** Slack gives up on an options request after 3 s; an answer after this is no use to anyone. */
const ANSWER_WITHIN_MS = 2_500;

/**
 * The answer to a party type-ahead (the menus on /quote and on each party's /book step): each form's
 * feature registers it for its menu, with what its form needs.
 */
export function partyOptionsAnswer(
  deps: Pick<Core, 'logger'> & { store: Pick<Store, 'parties'> },
): Middleware<SlackOptionsMiddlewareArgs<'block_suggestion'>> {
  return async ({ ack, options }) => {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ANSWER_WITHIN_MS);
    });
    const found = await Promise.race([deps.store.parties.find(options.value ?? '', MAX_OPTIONS), late])
      .catch((err: unknown) => {
        deps.logger.error({ err }, 'saved parties could not be searched');
        return [];
      })
      .finally(() => clearTimeout(timer));
    if (found === undefined) deps.logger.warn('saved parties: the search took too long; answered with none');
    deps.logger.debug(
      { ms: Math.round(performance.now() - started), found: found?.length ?? 0 },
      'type-ahead answered',
    );
    await ack(partyOptions(found ?? []));
  };
}
