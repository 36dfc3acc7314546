/**
 * A seam of the composition root between two modules built in either order (ADR 0172). The module built first is
 * handed `port.use`; the module that answers it, built further down, is handed over once with `bind`; `assertBound`
 * at the end of the build names every port still without one. A call before the bind is refused with the port's
 * name, where a closure over a later `const` failed inside the caller with "cannot access before initialization",
 * and only once that path ran.
 */
export interface Port<T extends object> {
  readonly name: string;
  /** Stands for the bound object: each method call is passed to it (methods only; a port holds no fields). */
  readonly use: T;
  /** The bound object itself, for a caller that keeps it. */
  get(): T;
  bind(target: T): void;
  readonly bound: boolean;
}

export function port<T extends object>(name: string): Port<T> {
  let target: T | undefined;
  const get = (): T => {
    if (target === undefined)
      throw new Error(`The port "${name}" was used before the module that answers it was built`);
    return target;
  };
  const use = new Proxy({} as T, {
    get(_, key) {
      // Not a thenable, and nothing for inspection's symbols: only named methods pass through.
      if (typeof key === 'symbol' || key === 'then') return undefined;
      return (...args: unknown[]) => {
        const member = (get() as Record<string, unknown>)[key];
        if (typeof member !== 'function') throw new Error(`The port "${name}" has no method "${key}"`);
        return (member as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    name,
    use,
    get,
    bind(next) {
      if (target !== undefined) throw new Error(`The port "${name}" is bound twice`);
      target = next;
    },
    get bound() {
      return target !== undefined;
    },
  };
}

/** Refuses a build that left a port unbound, naming each, before anything can call it. */
export function assertBound(ports: Record<string, Port<object>>): void {
  const open = Object.values(ports)
    .filter((each) => !each.bound)
    .map((each) => each.name);
  if (open.length > 0) throw new Error(`Ports left unbound at the end of the build: ${open.join(', ')}`);
}
