/**
 * `/waybill` verbs typed without the words they need: each answers with its own usage and an example, in
 * one line, not the whole help.
 */
import { afterEach, expect, it } from 'vitest';
import { startTestBot, type TestBot } from '../support/bot-harness.js';

let bot: TestBot;

afterEach(async () => {
  await bot.stop();
});

it('a verb missing its tracking number says how it is typed, in one line with an example', async () => {
  bot = await startTestBot();
  const examples = {
    show: '/waybill show WB000123',
    update: '/waybill update WB000123',
    rebook: '/waybill rebook WB000123',
    assign: '/waybill assign WB000123 @maria',
    label: '/waybill label WB000123 zpl',
    status: '/waybill status WB000123 failed attempt receiver not home',
  };
  for (const [verb, example] of Object.entries(examples)) {
    for (const typed of [verb, `${verb.toUpperCase()}  #  `]) {
      const answer = await bot.command('/waybill', typed);
      const text = String(answer.body.text);
      expect(answer.body.response_type, typed).toBe('ephemeral');
      expect(text, typed).toMatch(new RegExp(`^\`/waybill ${verb} <tracking number>`));
      expect(text, typed).toContain(`For example: \`${example}\``);
      expect(text, typed).not.toContain('\n');
      expect(text, typed).not.toContain('What this bot does');
    }
  }
  expect(bot.fake.callsTo('views.open')).toHaveLength(0);
});
