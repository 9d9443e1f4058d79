/**
 * A PostgreSQL restart under load must not end the process (issue 41): a connection checked out when its server goes
 * away emits `error` outside any query, and without a listener Node throws it as an uncaught exception.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPgPool } from './database.js';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)(
  `PostgreSQL pool connections${url ? '' : ' — skipped: TEST_DATABASE_URL is not set'}`,
  () => {
    it('a checked-out connection whose server ends it reports the error instead of crashing', async () => {
      const { pool, view } = createPgPool({ connectionString: url, max: 2 });
      const errors: Error[] = [];
      view.onConnectionError((error) => errors.push(error));
      const uncaught: unknown[] = [];
      const onUncaught = (error: unknown) => uncaught.push(error);
      process.on('uncaughtException', onUncaught);
      try {
        const client = await pool.connect();
        const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
        expect(view.stats()).toMatchObject({ inUse: 1, waiting: 0 });
        const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
        // The server ends this connection while it is checked out and between queries, as a restart does.
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
        await admin.end();
        await ended;
        expect(uncaught).toEqual([]);
        expect(errors.length).toBeGreaterThan(0);
        // The broken connection goes back and is dropped; the next query gets a fresh one.
        client.release();
        const again = await pool.query<{ one: number }>('select 1 as one');
        expect(again.rows[0]?.one).toBe(1);
      } finally {
        process.off('uncaughtException', onUncaught);
        await pool.end();
      }
    });
  },
);
