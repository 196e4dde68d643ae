import type pg from 'pg';

/** A transaction of another session that holds rows locked until it is rolled back. */
export interface HeldLock {
  rollBack(): Promise<void>;
}

/** Locks rows in another session, as a second node would: `sql` (a `SELECT … FOR UPDATE`) in an open transaction. */
export async function holdLock(admin: pg.Pool, sql: string, params: unknown[]): Promise<HeldLock> {
  const holder = await admin.connect();
  await holder.query('BEGIN');
  await holder.query(sql, params);
  return {
    rollBack: async () => {
      await holder.query('ROLLBACK');
      holder.release();
    },
  };
}

/**
 * The backend that waits for a lock in a statement starting with `statementStart`, as soon as it waits:
 * looks every 10 ms, `tries` times at most, then throws `Error(never)`.
 */
export async function untilWaiting(
  admin: pg.Pool,
  statementStart: string,
  tries: number,
  never: string,
): Promise<number> {
  for (let tried = 0; ; tried++) {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`,
      [`${statementStart}%`],
    );
    if (rows.length === 1) return rows[0]!.pid;
    if (tried > tries) throw new Error(never);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Terminates the backend that waits for a lock in a statement starting with `statementStart` (see untilWaiting). */
export async function terminateOnceWaiting(
  admin: pg.Pool,
  statementStart: string,
  tries: number,
  never: string,
): Promise<void> {
  const pid = await untilWaiting(admin, statementStart, tries, never);
  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
}
