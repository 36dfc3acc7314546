import { REPORT_SCHEDULE_MESSAGES } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { addAddresses } from './recipients.ts';

describe('addAddresses', () => {
  it('adds pasted addresses lower-cased, each once', () => {
    expect(addAddresses(['a@example.com'], ' Client@Example.com, b@example.com;a@example.com  ')).toEqual({
      recipients: ['a@example.com', 'client@example.com', 'b@example.com'],
    });
  });

  it('keeps every address out when one is not an address', () => {
    expect(addAddresses([], 'ok@example.com, not-an-address')).toEqual({
      invalid: REPORT_SCHEDULE_MESSAGES.recipientInvalid,
    });
  });
});
