/** /waybill: each subcommand, the permission it needs, and the feature that answers it. */
import type { App } from '@slack/bolt';
import { addressesCommand } from './addresses/index.js';
import { attentionCommand } from './attention/index.js';
import { rebookCommand } from './book/index.js';
import type { Core } from './core.js';
import { digestCommand } from './digest/index.js';
import { findCommand } from './find/index.js';
import { requires } from './guards/access.js';
import { exportCommand } from './home/index.js';
import {
  type CommandAnswer,
  type CommandArgs,
  readCommand,
  type WaybillKind,
} from './kit/command-request.js';
import type { Permission } from './kit/listener.js';
import { labelCommand, manifestCommand } from './labels/index.js';
import { assignCommand } from './owners/index.js';
import { recogniseCommand } from './recognise/index.js';
import { codCommand, remittanceCommand } from './remittance/index.js';
import { reportCommand } from './report/index.js';
import { statusCommand } from './status/index.js';
import { helpCommand, showCommand, updateCommand } from './update/index.js';

type Subcommands = { [K in WaybillKind]: { requires: Permission; answer: CommandAnswer<K> } };

const subcommands: Subcommands = {
  help: { requires: 'nothing', answer: helpCommand },
  show: { requires: 'show', answer: showCommand },
  find: { requires: 'show', answer: findCommand },
  update: { requires: 'update', answer: updateCommand },
  rebook: { requires: 'book', answer: rebookCommand },
  // Exports, labels, manifests and the digest show what is stored: whoever may look waybills up may have them.
  export: { requires: 'show', answer: exportCommand },
  label: { requires: 'show', answer: labelCommand },
  manifest: { requires: 'show', answer: manifestCommand },
  digest: { requires: 'show', answer: digestCommand },
  attention: { requires: 'show', answer: attentionCommand },
  // Recording a parcel's status changes what is known of a booking: the update permission.
  status: { requires: 'update', answer: statusCommand },
  // So does handing it to someone else.
  assign: { requires: 'update', answer: assignCommand },
  addresses: { requires: 'addresses', answer: addressesCommand },
  remittance: { requires: 'remittance', answer: remittanceCommand },
  // Money owed by the courier: whoever may reconcile its files.
  cod: { requires: 'remittance', answer: codCommand },
  // Whether the bot answers a channel's messages changes what it posts there: the update permission.
  recognise: { requires: 'update', answer: recogniseCommand },
  report: { requires: 'remittance', answer: reportCommand },
};

/** What `/waybill` was asked, help when its words are no subcommand. */
function subcommandOf(text: string) {
  const request = readCommand('/waybill', text);
  return request && request.kind in subcommands
    ? (request as Extract<typeof request, { kind: WaybillKind }>)
    : ({ kind: 'help' } as const);
}

export function register(app: App, core: Core): void {
  app.command(
    '/waybill',
    requires(core, (body) =>
      'command' in body ? subcommands[subcommandOf(body.text).kind].requires : 'nothing',
    ),
    async (args: CommandArgs) => {
      const request = subcommandOf(args.command.text);
      const { answer } = subcommands[request.kind] as { answer: CommandAnswer<typeof request.kind> };
      await answer(core, args, request);
    },
  );
}
