/** The place type-ahead's options (block_suggestion): official names, narrowed by the parts above. */
import type { App } from '@slack/bolt';
import type { PlainTextOption } from '@slack/types';
import { type PlaceLevel, suggestPlaces } from '../../waybill/places.js';
import { addressesIds } from '../addresses/index.js';
import { bookIds } from '../book/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import type { SlackRequest } from '../guards/request-parts.js';
import {
  getPath,
  MAX_OPTIONS,
  pathOfBlock,
  placeOption,
  readFormState,
  type StateValues,
  VALUE_ACTION,
} from '../kit/forms.js';
import type { Permission } from '../kit/listener.js';
import { quoteIds } from '../quote/index.js';
import { updateIds } from '../update/index.js';

/** The party field a place input holds, by the last part of its path. */
const levels: Record<string, PlaceLevel> = { region: 'province', city: 'city', barangay: 'barangay' };

/** A place input's path (its block id without a `#suffix`): `consignee.city`, `party.barangay`. */
const PLACE_PATH = /^([A-Za-z]+)\.(region|city|barangay)$/;

/** Each form with places asks what that form needs; a menu in any other view is no form of ours. */
const formPermission: Record<string, Permission> = {
  [quoteIds.quoteForm]: 'quote',
  [bookIds.bookingStep]: 'book',
  [updateIds.updateForm]: 'update',
  [addressesIds.addressesEditForm]: 'addresses',
};

function permissionOf(body: SlackRequest): Permission {
  const callbackId =
    'view' in body ? (body.view as { callback_id?: string } | undefined)?.callback_id : undefined;
  return formPermission[callbackId ?? ''] ?? 'nothing';
}

/**
 * The options for one place input. The part above is read from the view's state, as chosen or
 * pre-filled at this moment. The typed text itself is offered first where places are not refused
 * for not being on the list: a party outside the Philippines, or WAYBILL_PLACE_CHECK=warn.
 */
export function placeOptions(
  blockId: string,
  typed: string,
  values: StateValues | undefined,
  placeCheck: Core['waybill']['placeCheck'],
): PlainTextOption[] {
  const [, party, field] = PLACE_PATH.exec(pathOfBlock(blockId)) ?? [];
  const level = levels[field ?? ''];
  if (!party || !level) return [];
  const form = readFormState(values);
  const part = (key: string) => {
    const value = getPath(form, `${party}.${key}`);
    return typeof value === 'string' ? value : '';
  };
  const country = part('country').trim().toUpperCase();
  const abroad = country !== '' && country !== 'PH';
  const asTyped =
    typed.trim() === '' ? [] : [placeOption(typed.trim(), abroad ? 'As typed' : 'As typed, not on the list')];
  if (abroad) return asTyped;
  const found = suggestPlaces(level, typed, { region: part('region'), city: part('city') }, MAX_OPTIONS).map(
    ({ name, where }) => placeOption(name, where),
  );
  if (placeCheck !== 'warn' || found.some((option) => option.value === typed.trim())) return found;
  return [...asTyped, ...found].slice(0, MAX_OPTIONS);
}

/** Every form's province, city and barangay inputs ask here (their action id is every input's). */
export function register(app: App, deps: Core): void {
  app.options<'block_suggestion'>(
    { type: 'block_suggestion', action_id: VALUE_ACTION },
    requires(deps, permissionOf),
    async ({ ack, body }) => {
      const started = performance.now();
      const options = placeOptions(
        body.block_id,
        body.value ?? '',
        body.view?.state?.values as StateValues | undefined,
        deps.waybill.placeCheck,
      );
      deps.logger.debug(
        { ms: Math.round(performance.now() - started), found: options.length },
        'place type-ahead answered',
      );
      await ack({ options });
    },
  );
}
