// Tracking numbers recognised in channel messages: the channels that turned it on, and each number answered once a thread.
import { toBooking } from './bookings.js';
import type { Context, Scope } from './context.js';
import type { Recognition } from './types.js';

export function recognition({ db }: Scope, context: Context): Recognition {
  return {
    async turn(channelId, on, userId) {
      if (!on)
        return void (await db.deleteFrom('recognise_channels').where('channel_id', '=', channelId).execute());
      await db
        .insertInto('recognise_channels')
        .values({ channel_id: channelId, user_id: userId, at: context.now() })
        .onConflict((conflict) => conflict.column('channel_id').doNothing())
        .execute();
    },
    async isOn(channelId) {
      const row = await db
        .selectFrom('recognise_channels')
        .select('channel_id')
        .where('channel_id', '=', channelId)
        .executeTakeFirst();
      return row !== undefined;
    },
    async bookingsIn(channelId, trackingNumbers) {
      if (trackingNumbers.length === 0) return [];
      // One statement on two primary keys: the bookings named, only where the channel turned recognition on.
      const rows = await db
        .selectFrom('bookings')
        .selectAll('bookings')
        .where('tracking_number', 'in', [...trackingNumbers])
        .where((eb) =>
          eb.exists(
            eb.selectFrom('recognise_channels').select('channel_id').where('channel_id', '=', channelId),
          ),
        )
        .execute();
      return rows.map((row) => toBooking(row));
    },
    async claim(channelId, threadTs, trackingNumbers) {
      const claimed: string[] = [];
      for (const trackingNumber of trackingNumbers) {
        // The primary key decides, across replicas: a number is answered once in a thread.
        const row = await db
          .insertInto('recognised_replies')
          .values({
            channel_id: channelId,
            thread_ts: threadTs,
            tracking_number: trackingNumber,
            at: context.now(),
          })
          .onConflict((conflict) =>
            conflict.columns(['channel_id', 'thread_ts', 'tracking_number']).doNothing(),
          )
          .returning('tracking_number')
          .executeTakeFirst();
        if (row) claimed.push(trackingNumber);
      }
      return claimed;
    },
    async release(channelId, threadTs, trackingNumbers) {
      if (trackingNumbers.length === 0) return;
      await db
        .deleteFrom('recognised_replies')
        .where('channel_id', '=', channelId)
        .where('thread_ts', '=', threadTs)
        .where('tracking_number', 'in', [...trackingNumbers])
        .execute();
    },
  };
}
