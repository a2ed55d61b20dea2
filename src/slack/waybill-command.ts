/** /waybill: the subcommands the features declare, in the order its help lists them, each answered by its feature. */
import type { App } from '@slack/bolt';
import { addressesVerb } from './addresses/index.js';
import { attentionVerb } from './attention/index.js';
import { rebookVerb } from './book/index.js';
import type { Core } from './core.js';
import { digestVerb } from './digest/index.js';
import { findVerb } from './find/index.js';
import { requires } from './guards/access.js';
import { exportVerb } from './home/index.js';
import { type CommandArgs, readVerb, type WaybillVerb } from './kit/command-request.js';
import { labelVerb, manifestVerb } from './labels/index.js';
import { assignVerb } from './owners/index.js';
import { recogniseVerb } from './recognise/index.js';
import { codVerb, remittanceVerb } from './remittance/index.js';
import { reportVerb } from './report/index.js';
import { statusVerb } from './status/index.js';
import { helpVerb, showVerb, updateVerb } from './update/index.js';

// The order a mistyped word's close verbs are named in.
const verbs: readonly WaybillVerb<unknown, Core>[] = [
  showVerb,
  findVerb,
  updateVerb,
  rebookVerb,
  addressesVerb,
  exportVerb,
  statusVerb,
  assignVerb,
  labelVerb,
  manifestVerb,
  digestVerb,
  attentionVerb,
  remittanceVerb,
  codVerb,
  recogniseVerb,
  reportVerb,
  helpVerb,
];

export function register(app: App, core: Core): void {
  app.command(
    '/waybill',
    requires(core, (body) =>
      'command' in body ? readVerb(verbs, helpVerb, body.text).verb.permission : 'nothing',
    ),
    async (args: CommandArgs) => {
      const { verb, request } = readVerb(verbs, helpVerb, args.command.text);
      await verb.answer(core, args, request);
    },
  );
}
