// One full evaluation cycle of the rules over the accounts × 500 ads: wall time and the Graph calls the sandbox counts
// (refreshes per account, reads and writes, batched), and where the time went. By default 100 rules over 10 accounts
// at one worker's concurrency; RULES_CYCLE_ACCOUNTS, RULES_CYCLE_RULES and RULES_CYCLE_WORKERS scale it, and
// TEST_DATABASE_URL puts it on a Postgres server.
//
// On Postgres the cycle runs on RULES_CYCLE_WORKERS real worker processes of the server (bench/rules-cycle-processes.ts);
// RULES_CYCLE_MODE=in-process runs it in this one process instead (bench/rules-cycle-in-process.ts, the only variant
// on PGlite, and the one to profile with --cpu-prof).
const mode = process.env.RULES_CYCLE_MODE ?? (process.env.TEST_DATABASE_URL ? 'processes' : 'in-process');
if (mode === 'processes') {
  if (!process.env.TEST_DATABASE_URL)
    throw new Error('worker processes share a Postgres database: set TEST_DATABASE_URL');
  await import('./rules-cycle-processes.ts');
} else if (mode === 'in-process') {
  await import('./rules-cycle-in-process.ts');
} else {
  throw new Error(`RULES_CYCLE_MODE is processes or in-process, not ${mode}`);
}

export {};
