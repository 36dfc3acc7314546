import {
  parse,
  protocol,
  TransactionAbortedError,
  type PGlite,
  type QueryOptions,
  type Results,
} from '@electric-sql/pglite';
import { PgliteSession, PgliteTransaction } from 'drizzle-orm/pglite';
import type { Database, OpenTransaction } from './client.ts';
import type { Transaction } from './transactions.ts';

const wire = protocol.serialize;
type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

/** Parameter types of at most this many distinct statements are remembered (the application has a few hundred). */
const PARAMETER_TYPES_KEPT = 1000;

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** What Drizzle's PGlite session calls on its client inside a transaction. */
interface SessionClient {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
}

/**
 * The embedded database's units of work, in as few calls into the engine as the protocol allows. PGlite's own
 * `transaction` sends each protocol message in a call of its own (16 calls for `BEGIN`, the prologue, one select
 * and `COMMIT`), and each call costs a crossing into WASM and a promise. Here:
 *
 * - `begin` and the prologue are one simple query, `commit` another;
 * - a statement whose parameter types are known (the same text ran before: statements are Drizzle's, their text
 *   fixed by the code) is parse, bind, describe, execute and sync in one call; the first time, the types are asked
 *   first (parse and describe), as PGlite does, so the values are serialised exactly as PGlite would.
 *
 * The unit of work holds both of PGlite's locks, so nothing else (pg-boss, listeners, another unit of work) runs
 * on the one connection in between. The tenant is still set inside the transaction (`set_config(…, true)`,
 * ADR 0013), never on the connection.
 */
export function pgliteUnitsOfWork(pglite: PGlite, db: Database): OpenTransaction {
  const parameterTypes = new Map<string, number[]>();
  const run = async (message: Uint8Array): Promise<BackendMessage[]> =>
    pglite.execProtocolStream(message, { syncToFs: false });

  const describe = async (text: string): Promise<number[]> => {
    let messages: BackendMessage[];
    try {
      messages = await run(concat([wire.parse({ text }), wire.describe({ type: 'S' })]));
    } finally {
      // Parse and describe leave the extended protocol open: close it whatever happened (an error waits for it).
      await run(wire.sync());
    }
    const types = parse.parseDescribeStatementResults(messages);
    if (parameterTypes.size >= PARAMETER_TYPES_KEPT) parameterTypes.clear();
    parameterTypes.set(text, types);
    return types;
  };

  // PGlite merges a query's own parsers into its defaults on every query; Drizzle passes the same object for every
  // run of a statement, so the merge is kept per object.
  const merged = new WeakMap<object, typeof pglite.parsers>();
  const parsersFor = (options: QueryOptions | undefined): typeof pglite.parsers => {
    if (!options?.parsers) return pglite.parsers;
    let parsers = merged.get(options.parsers);
    if (!parsers) {
      parsers = { ...pglite.parsers, ...options.parsers };
      merged.set(options.parsers, parsers);
    }
    return parsers;
  };

  // The unit of work holds the connection; its statements still go one at a time. Code in a unit of work may start
  // two at once (`Promise.all` of two selects), and the extended protocol's messages of one must not fall between
  // another's: each waits for the one before it to have its answer.
  let previous: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const next = previous.then(work, work);
    previous = next.catch(() => undefined);
    return next;
  };

  const client: SessionClient = {
    query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
      return oneAtATime(() => statement<T>(text, params, options));
    },
  };

  async function statement<T>(text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    try {
      const known = parameterTypes.get(text);
      const types = known ?? (await describe(text));
      const values = params.map((param, i) => {
        if (param === null || param === undefined) return null;
        const oid = types[i] ?? 0;
        const serialise = options?.serializers?.[oid] ?? pglite.serializers[oid];
        return serialise ? serialise(param) : String(param);
      });
      const messages = await run(
        concat([
          wire.parse({ text }),
          wire.bind({ values }),
          wire.describe({ type: 'P' }),
          wire.execute({}),
          wire.sync(),
        ]),
      );
      return parse.parseResults(messages, parsersFor(options), { rowMode: options?.rowMode })[0] as Results<T>;
    } catch (error) {
      if (error instanceof Error && 'code' in error)
        Object.assign(error, { query: text, params, queryOptions: options });
      throw error;
    }
  }

  const dialect = (db as unknown as { dialect: ConstructorParameters<typeof PgliteSession>[1] }).dialect;
  const { schema, fullSchema, tableNamesMap } = db._;
  const relational = schema ? { schema, fullSchema, tableNamesMap } : undefined;
  const session = new PgliteSession(client as ConstructorParameters<typeof PgliteSession>[0], dialect, relational, {});
  // One transaction object for the one connection: Drizzle's query builders are not rebuilt per unit of work.
  const tx = new PgliteTransaction(dialect, session, relational) as unknown as Transaction;

  const simple = async (text: string): Promise<Results[]> => parse.parseResults(await run(wire.query(text)), {});

  return async <T>(opening: string, work: (tx: Transaction) => Promise<T>): Promise<T> =>
    pglite._runExclusiveTransaction(() =>
      pglite._runExclusiveQuery(async () => {
        await simple(`begin; ${opening}`).catch(async (error: unknown) => {
          // A failed prologue leaves the transaction open (aborted): end it before the connection serves anyone.
          await simple('rollback');
          throw error;
        });
        let result: T;
        try {
          result = await work(tx);
        } catch (error) {
          await simple('rollback');
          throw error;
        }
        const [committed] = await simple('commit');
        // A statement failed inside `work` and `work` went on: Postgres answers the commit with a rollback.
        if (committed?.command === 'ROLLBACK') throw new TransactionAbortedError();
        return result;
      }),
    );
}
