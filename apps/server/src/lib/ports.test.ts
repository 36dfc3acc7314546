import { describe, expect, it } from 'vitest';
import { assertBound, port } from './ports.ts';

interface Greeter {
  greet(name: string): string;
}

class Polite implements Greeter {
  constructor(private readonly word: string) {}
  greet(name: string): string {
    return `${this.word}, ${name}`;
  }
}

describe('a port between modules built in either order', () => {
  it('refuses a call before its bind, naming the port, and passes calls to the bound object after', () => {
    const greeter = port<Greeter>('greeter');
    // Handed over before the answering module exists, as the composition root does.
    const handed = greeter.use;
    expect(() => handed.greet('Ann')).toThrow(
      'The port "greeter" was used before the module that answers it was built',
    );
    expect(() => greeter.get()).toThrow('"greeter"');
    greeter.bind(new Polite('Hello'));
    // The method runs on the bound object (its `this`), through the reference handed out earlier.
    expect(handed.greet('Ann')).toBe('Hello, Ann');
    expect(greeter.get().greet('Bo')).toBe('Hello, Bo');
  });

  it('is bound once, is not a thenable, and names a method the bound object lacks', async () => {
    const greeter = port<Greeter>('greeter');
    greeter.bind(new Polite('Hi'));
    expect(() => greeter.bind(new Polite('Yo'))).toThrow('The port "greeter" is bound twice');
    // Awaiting the stand-in must not call a `then` on it.
    expect(await Promise.resolve(greeter.use)).toBe(greeter.use);
    expect(() => (greeter.use as unknown as { wave(): void }).wave()).toThrow(
      'The port "greeter" has no method "wave"',
    );
  });

  it('fails the build that leaves a port unbound, naming each one left', () => {
    const ports = { a: port<Greeter>('first'), b: port<Greeter>('second'), c: port<Greeter>('third') };
    ports.b.bind(new Polite('Hey'));
    expect(() => assertBound(ports)).toThrow('Ports left unbound at the end of the build: first, third');
    ports.a.bind(new Polite('Hey'));
    ports.c.bind(new Polite('Hey'));
    expect(() => assertBound(ports)).not.toThrow();
  });
});
