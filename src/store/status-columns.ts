// The columns a person chose for a courier's status export, kept by the file's headers.
import type { Context, Scope } from './context.js';
import type { StatusColumnsTable } from './types.js';

export function statusColumns({ db }: Scope, context: Context): StatusColumnsTable {
  return {
    async get(headers) {
      const row = await db
        .selectFrom('status_file_columns')
        .select('columns')
        .where('headers', '=', headers)
        .executeTakeFirst();
      return row ? JSON.parse(row.columns) : undefined;
    },
    async put({ headers, columns, userId }) {
      const values = { columns: JSON.stringify(columns), user_id: userId, chosen_at: context.now() };
      await db
        .insertInto('status_file_columns')
        .values({ headers, ...values })
        .onConflict((conflict) => conflict.column('headers').doUpdateSet(values))
        .execute();
    },
  };
}
