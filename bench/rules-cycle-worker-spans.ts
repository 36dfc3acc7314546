// Loaded into a worker process of the rule-cycle bench (`node --import tsx --import <this> main.ts`): times the
// runner's steps as bench/rules-cycle-spans.ts does in one process (the same source modules, so the same classes the
// server builds), and on SIGUSR2 writes the totals so far to RULES_CYCLE_SPANS_FILE.
import { writeFileSync } from 'node:fs';
import { spans } from './rules-cycle-spans.ts';

const file = process.env.RULES_CYCLE_SPANS_FILE;
if (!file) throw new Error('RULES_CYCLE_SPANS_FILE names where the worker writes its spans');
process.on('SIGUSR2', () => writeFileSync(file, JSON.stringify({ at: Date.now(), totals: spans.snapshot() })));
