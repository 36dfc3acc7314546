import { describe, expect, it } from 'vitest';
import { effectiveStatusOf, type StatusLine } from './effective-status.ts';

const line = (over: Partial<StatusLine>): StatusLine => ({
  status: 'ACTIVE',
  effectiveStatus: 'ACTIVE',
  campaignStatus: 'ACTIVE',
  adsetStatus: 'ACTIVE',
  ...over,
});

describe('the effective status Meta derives', () => {
  it('is the own status of an entity that is not active', () => {
    for (const status of ['PAUSED', 'ARCHIVED', 'DELETED'])
      expect(effectiveStatusOf(line({ status, campaignStatus: 'PAUSED' }))).toBe(status);
  });

  it('names the paused parent of an active entity, the campaign first', () => {
    expect(effectiveStatusOf(line({ campaignStatus: 'PAUSED', adsetStatus: 'PAUSED' }))).toBe('CAMPAIGN_PAUSED');
    expect(effectiveStatusOf(line({ adsetStatus: 'PAUSED' }))).toBe('ADSET_PAUSED');
    expect(effectiveStatusOf(line({ campaignStatus: 'ARCHIVED' }))).toBe('ARCHIVED');
    expect(effectiveStatusOf(line({ campaignStatus: null, adsetStatus: null }))).toBe('ACTIVE');
  });

  it("delivers when nothing above holds it, and keeps a state of Meta's own (review, issues)", () => {
    expect(effectiveStatusOf(line({ effectiveStatus: 'ADSET_PAUSED' }))).toBe('ACTIVE');
    expect(effectiveStatusOf(line({ effectiveStatus: 'PAUSED' }))).toBe('ACTIVE');
    expect(effectiveStatusOf(line({ effectiveStatus: 'PENDING_REVIEW' }))).toBe('PENDING_REVIEW');
    expect(effectiveStatusOf(line({ effectiveStatus: 'WITH_ISSUES' }))).toBe('WITH_ISSUES');
  });
});
