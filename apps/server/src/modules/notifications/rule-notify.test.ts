import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRule } from '../../test/rule-factories.ts';
import { connectedUser, HeldScheduler } from '../../test/rules-sandbox.ts';
import { createSandboxTestApp, markEmailVerified, type TestApp } from '../../test/test-app.ts';
import { NOTIFY_JOBS } from './notification-dispatcher.ts';

/** A rule's notify action, run through the real rule pipeline, reaches the user's webhook and e-mail. */
describe('rule actions of type notify', () => {
  let t: TestApp;
  const held = new HeldScheduler();
  const bodies: string[] = [];
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      bodies.push(body);
      response.end();
    });
  });

  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    t = await createSandboxTestApp(
      { WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1' },
      { rules: { scheduler: held }, jobQueue: { pollingIntervalSeconds: 0.5 } },
    );
    await t.ctx.jobs.start({ work: true });
  }, 60_000);
  afterAll(async () => {
    await t.ctx.jobs.stop();
    await t.close();
    receiver.close();
  }, 60_000);

  it("sends the rule's own message on the webhook and by e-mail, once per matched campaign", async () => {
    const { session, accounts } = await connectedUser(t);
    await markEmailVerified(t, session.user.id);
    const port = (receiver.address() as AddressInfo).port;
    await t.app.inject({
      method: 'PUT',
      url: '/api/notifications',
      headers: session.auth,
      payload: { webhookUrl: `http://127.0.0.1:${port}/rules`, emailErrors: true },
    });
    const account = accounts[0]!;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/rules',
      headers: session.auth,
      payload: buildRule({
        name: 'Watch spend',
        scope: { adAccountIds: [account.id], level: 'campaign' },
        conditions: { match: 'all', items: [{ metric: 'spend', operator: 'gte', value: 0, window: 'last_7d' }] },
        actions: [{ type: 'notify', message: 'Look at this campaign <!channel> & act' }],
      }),
    });
    expect(created.statusCode).toBe(201);
    const run = await t.app.inject({
      method: 'POST',
      url: `/api/rules/${created.json().data.id}/run`,
      headers: session.auth,
    });
    expect(run.statusCode).toBe(202);
    for (let batch = held.take(); batch.length > 0; batch = held.take())
      for (const { request } of batch) await t.modules.rules.runner.run(request);

    const campaigns = (
      await t.app.inject({ method: 'GET', url: `/api/rules/${created.json().data.id}/runs`, headers: session.auth })
    ).json().data[0].actions.length as number;
    expect(campaigns).toBeGreaterThan(0);

    await t.modules.notifications.dispatcher.scanAll();
    // Until every notification job is done: then a duplicate would have arrived, and nothing more can.
    const deadline = Date.now() + 30_000;
    const names = Object.values(NOTIFY_JOBS);
    while ((bodies.length < campaigns || (await t.ctx.jobs.backlog(names)) > 0) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    expect(await t.ctx.jobs.backlog(names)).toBe(0);
    expect(bodies).toHaveLength(campaigns);
    for (const body of bodies) {
      const parsed = JSON.parse(body);
      // The entry's code in the user's language (English by default), from the catalogue the web reads too.
      expect(parsed.text).toMatch(/^Rule notification: Rule “Watch spend”: notify on “.+”\n/);
      // A notify message is the user's own text: no Slack mention or link can be smuggled through it.
      expect(parsed.text).toContain('Look at this campaign &lt;!channel&gt; &amp; act');
      expect(parsed.adpilot.entry).toMatchObject({ type: 'rule_action', code: 'rule_action_applied' });
    }
    const mails = t.mailer.sent.filter((mail) => mail.to === session.user.email);
    expect(mails).toHaveLength(campaigns);
    expect(mails[0]?.text).toContain('Look at this campaign <!channel> & act');
  }, 60_000);
});
