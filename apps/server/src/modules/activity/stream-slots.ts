/**
 * How many live streams each user holds open in this process, capped (ADR 0086). Taking a slot is synchronous, so
 * parallel opens cannot all read "one left": each is counted before the request awaits anything. The count is this
 * process's: with several API processes a user may hold the cap in each.
 */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly perUser: number) {}

  /** A slot for `userId`, or null when the user already holds the cap; the release gives it back once, however often called. */
  take(userId: string): (() => void) | null {
    const held = this.open.get(userId) ?? 0;
    if (held >= this.perUser) return null;
    this.open.set(userId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(userId) ?? 1) - 1;
      if (left > 0) this.open.set(userId, left);
      else this.open.delete(userId);
    };
  }

  /** How many streams the user holds open here. */
  held(userId: string): number {
    return this.open.get(userId) ?? 0;
  }
}
