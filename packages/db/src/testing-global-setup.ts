// The node test project's global setup: makes the one migrated database every test file copies (ADR 0068) before
// the workers start, so they do not each make it at once. `createTestDatabase` makes it too when it is missing.
import { prepareTestDatabases } from './testing.ts';

export default async function setup(): Promise<void> {
  await prepareTestDatabases();
}
