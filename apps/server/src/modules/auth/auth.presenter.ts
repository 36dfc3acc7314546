import type { User } from '@adpilot/contracts';
import type { UserRow } from '@adpilot/db';

/** The only shape a user leaves the server in: never the password hash. */
export function presentUser(row: UserRow): User {
  return { id: row.id, name: row.name, email: row.email, role: row.role, createdAt: row.createdAt.toISOString() };
}
