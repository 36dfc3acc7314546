import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setLanguageChoice } from '../../../../lib/i18n.ts';
import { fakeApi, ok, TEMPLATES } from '../../test/fake-api.ts';
import { renderRulesRoute } from '../../test/render-page.tsx';
import { NewRulePage } from '../rule-builder-page.tsx';

async function openBlankRule(blank: RegExp) {
  fakeApi({ 'GET /rules/templates': ok(TEMPLATES), 'GET /ad-accounts': ok([]) });
  const rendered = renderRulesRoute('/rules/new', '/rules/new', <NewRulePage />);
  await rendered.user.click(await screen.findByRole('button', { name: blank }));
  return rendered;
}

describe('the rule in plain words', () => {
  it('follows the form as it changes, in English', async () => {
    setLanguageChoice('en');
    const { user } = await openBlankRule(/Blank rule/);
    const summary = screen.getByRole('region', { name: 'The rule in plain words' });
    expect(summary).toHaveTextContent('Looks at active ads in every connected ad account.');
    expect(summary).toHaveTextContent('When all of these hold:CPA (the last 7 days) is greater than 500');
    expect(summary).toHaveTextContent('Then, for each match:Pause it');
    expect(summary).toHaveTextContent("Checks every 60 minutes, in each ad account's time zone.");

    const condition = screen.getByRole('group', { name: 'Condition 1' });
    await user.selectOptions(within(condition).getByLabelText('Comparison'), 'lt');
    const value = within(condition).getByLabelText('Value');
    await user.clear(value);
    await user.type(value, '300');
    await user.click(within(condition).getByLabelText('Include today'));
    expect(summary).toHaveTextContent('CPA (the last 7 days, including today) is less than 300');

    await user.selectOptions(screen.getByLabelText('Match'), 'any');
    expect(summary).toHaveTextContent('When any of these holds:');
    await user.selectOptions(screen.getByLabelText('Level'), 'campaign');
    expect(summary).toHaveTextContent('Looks at active campaigns in every connected ad account.');
    await user.selectOptions(
      within(screen.getByRole('group', { name: 'Action 1' })).getByLabelText('Action'),
      'notify',
    );
    expect(summary).toHaveTextContent('Then, for each match:Send a notification');
    expect(summary).not.toHaveTextContent('Pause it');
  });

  it('follows the form in Thai, and says a half-typed number as a blank', async () => {
    const { user } = await openBlankRule(/กฎเปล่า/);
    const summary = screen.getByRole('region', { name: 'สรุปกฎนี้เป็นคำพูด' });
    expect(summary).toHaveTextContent('ตรวจสอบโฆษณาที่ใช้งานอยู่ ในทุกบัญชีโฆษณาที่เชื่อมต่อ');
    expect(summary).toHaveTextContent('CPA (7 วันล่าสุด) มากกว่า 500');
    const condition = screen.getByRole('group', { name: 'เงื่อนไขที่ 1' });
    await user.clear(within(condition).getByLabelText('ค่า'));
    expect(summary).toHaveTextContent('CPA (7 วันล่าสุด) มากกว่า …');
    expect(summary).not.toHaveTextContent('NaN');
    await user.selectOptions(within(condition).getByLabelText('การเปรียบเทียบ'), 'between');
    expect(summary).toHaveTextContent('CPA (7 วันล่าสุด) ระหว่าง 0 ถึง 0');
  });
});

describe('the builder by keyboard', () => {
  it('adds and removes conditions and groups with the keyboard, and focus follows', async () => {
    setLanguageChoice('en');
    const { user } = await openBlankRule(/Blank rule/);
    const top = screen.getByRole('group', { name: 'Conditions' });
    const addCondition = within(top).getAllByRole('button', { name: 'Add condition' }).at(-1) as HTMLElement;

    addCondition.focus();
    await user.keyboard('{Enter}');
    const second = await screen.findByRole('group', { name: 'Condition 2' });
    expect(within(second).getByLabelText('Metric')).toHaveFocus();
    // The row is read, and tabbed, as a sentence: metric, window, today, comparison, compare with, value, remove.
    for (const label of ['Time window', 'Include today', 'Comparison', 'Compare with', 'Value']) {
      await user.tab();
      expect(within(second).getByLabelText(label)).toHaveFocus();
    }
    await user.tab();
    expect(within(second).getByRole('button', { name: 'Remove condition 2' })).toHaveFocus();

    // Removing the last row moves focus to the row before it.
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('group', { name: 'Condition 2' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Condition 1' })).getByLabelText('Metric')).toHaveFocus();

    within(top).getAllByRole('button', { name: 'Add group' }).at(-1)?.focus();
    await user.keyboard(' ');
    const group = await screen.findByRole('group', { name: 'Group 2' });
    expect(within(group).getByLabelText('Match')).toHaveFocus();
    await user.tab();
    expect(within(group).getByRole('button', { name: 'Remove group' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('group', { name: 'Group 2' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Condition 1' })).getByLabelText('Metric')).toHaveFocus();

    // With nothing left, focus waits on the button that adds a condition.
    within(screen.getByRole('group', { name: 'Condition 1' }))
      .getByRole('button', { name: 'Remove condition 1' })
      .focus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('group', { name: 'Condition 1' })).not.toBeInTheDocument();
    expect(within(top).getByRole('button', { name: 'Add condition' })).toHaveFocus();
  });

  it('gives a pause a resume after some hours or at a local time, said in the summary', async () => {
    setLanguageChoice('en');
    const { user } = await openBlankRule(/Blank rule/);
    const summary = screen.getByRole('region', { name: 'The rule in plain words' });
    const action = screen.getByRole('group', { name: 'Action 1' });
    expect(within(action).getByLabelText('Resume')).toHaveValue('never');
    await user.selectOptions(within(action).getByLabelText('Resume'), 'hours');
    const hours = within(action).getByLabelText('Hours (1–168)');
    expect(hours).toHaveValue(6);
    await user.clear(hours);
    await user.type(hours, '12');
    expect(summary).toHaveTextContent('Pause it, then resume it after 12 hours');
    await user.selectOptions(within(action).getByLabelText('Resume'), 'time');
    expect(within(action).getByLabelText('Time (account’s time zone)')).toHaveValue('00:00');
    expect(summary).toHaveTextContent('Pause it, then resume it at 00:00 in the ad account’s time zone');
    await user.selectOptions(within(action).getByLabelText('Resume'), 'never');
    expect(summary).toHaveTextContent('Then, for each match:Pause it');
    expect(within(action).queryByLabelText('Time (account’s time zone)')).not.toBeInTheDocument();
  });

  it('keeps focus on an action whose type changes, and moves it on add and remove', async () => {
    setLanguageChoice('en');
    const { user } = await openBlankRule(/Blank rule/);
    const type = within(screen.getByRole('group', { name: 'Action 1' })).getByLabelText('Action');
    type.focus();
    // A new type is a new row; its type select takes the focus back.
    await user.selectOptions(type, 'notify');
    expect(within(screen.getByRole('group', { name: 'Action 1' })).getByLabelText('Action')).toHaveFocus();

    screen.getByRole('button', { name: 'Add action' }).focus();
    await user.keyboard('{Enter}');
    expect(within(await screen.findByRole('group', { name: 'Action 2' })).getByLabelText('Action')).toHaveFocus();

    within(screen.getByRole('group', { name: 'Action 1' }))
      .getByRole('button', { name: 'Remove action 1' })
      .focus();
    await user.keyboard('{Enter}');
    // The row that took its place (now the first) gets the focus.
    expect(screen.queryByRole('group', { name: 'Action 2' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Action 1' })).getByLabelText('Action')).toHaveFocus();
  });
});
