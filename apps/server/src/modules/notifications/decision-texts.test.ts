import type { ActivityLogRow } from '@adpilot/db';
import { describe, expect, it } from 'vitest';
import { decisionLines, entryMail, webhookBody } from './notification-texts.ts';

/** A proposal's approve and reject links in each message that carries them (ADR 0073), in the reader's language. */
const proposed = {
  id: '00000000-0000-4000-8000-000000000002',
  level: 'info',
  category: 'rule_action',
  description: 'Rule “Stop loss” proposes to pause “Ad <1>”: waiting for approval',
  adAccountId: null,
  metadata: {
    code: 'rule_action_proposed',
    params: { ruleName: 'Stop loss', action: 'pause', target: 'Ad <1>' },
  },
  createdAt: new Date('2026-03-01T05:00:00Z'),
} as unknown as ActivityLogRow;

const links = {
  approve: 'https://ads.example/proposals/decide?token=a.b',
  reject: 'https://ads.example/proposals/decide?token=c.d',
};
const options = { timeZone: 'Asia/Bangkok', publicUrl: 'https://ads.example' };

describe('the decision links of a proposal', () => {
  it('are two lines in the reader’s language, and none without links', () => {
    expect(decisionLines(links, 'en')).toEqual([`Approve this change: ${links.approve}`, `Reject it: ${links.reject}`]);
    expect(decisionLines(links, 'th')).toEqual([`อนุมัติการเปลี่ยนแปลงนี้: ${links.approve}`, `ปฏิเสธ: ${links.reject}`]);
    expect(decisionLines(null, 'en')).toEqual([]);
  });

  it('end the e-mail’s text, after the way to the activity log', () => {
    const mail = entryMail(proposed, null, { ...options, language: 'en', extraLines: decisionLines(links, 'en') });
    const lines = mail.text.split('\n');
    expect(lines.indexOf(`Approve this change: ${links.approve}`)).toBeGreaterThan(
      lines.findIndex((line) => line.startsWith('Open your activity log')),
    );
    expect(entryMail(proposed, null, { ...options, language: 'en' }).text).not.toContain('decide?token');
  });

  it('are Slack links in the webhook’s text and plain addresses in its `adpilot` part', () => {
    const body = JSON.parse(
      webhookBody(
        { kind: 'entry', entry: proposed, message: null },
        {
          language: 'th',
          publicUrl: options.publicUrl,
          sentAt: new Date('2026-03-01T05:00:01Z'),
          links,
        },
      ),
    ) as { text: string; adpilot: { links?: typeof links } };
    expect(body.text).toContain(`<${links.approve}|อนุมัติการเปลี่ยนแปลงนี้> · <${links.reject}|ปฏิเสธ>`);
    // What users wrote stays escaped, so a name cannot forge a link.
    expect(body.text).toContain('Ad &lt;1&gt;');
    expect(body.adpilot.links).toEqual(links);
    const without = JSON.parse(
      webhookBody(
        { kind: 'entry', entry: proposed, message: null },
        { ...options, language: 'en', sentAt: new Date() },
      ),
    ) as { text: string; adpilot: object };
    expect(without.text).not.toContain('decide?token');
    expect(without.adpilot).not.toHaveProperty('links');
  });
});
