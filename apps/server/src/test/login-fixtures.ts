import type { TestApp } from './test-app.ts';

/** A wrong password that passes the password rules, so each guess is checked (and counted) rather than refused. */
export const WRONG_PASSWORD = 'Wrong-passw0rd';

export interface LoginAttempt {
  email: string;
  password: string;
  /** The client address the sign-in comes from. */
  address: string;
  /** A sign-in code mailed to the owner. */
  code?: string;
  /** A `name=value` cookie to send back (the device cookie). */
  cookie?: string;
}

/**
 * Sign-ins against the app `app()` returns (made in the suite's beforeAll), from client addresses of their own:
 * `network` is the first two octets, one per suite, so no two suites or tests share an address bucket.
 */
export function signIns(app: () => TestApp, network: string) {
  let addresses = 0;
  /** A fresh client address per caller. */
  const newAddress = () => {
    addresses += 1;
    return `${network}.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
  };
  const login = ({ email, password, address, code, cookie }: LoginAttempt) =>
    app().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: address,
      headers: cookie ? { cookie } : {},
      payload: code === undefined ? { email, password } : { email, password, code },
    });
  /** The statuses of attempts sent at once. */
  const parallel = async (attempts: LoginAttempt[]): Promise<number[]> =>
    (await Promise.all(attempts.map(login))).map((response) => response.statusCode);
  return { newAddress, login, parallel };
}
