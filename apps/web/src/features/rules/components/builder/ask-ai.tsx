import type { RuleDraft } from '@adpilot/contracts';
import { Wand2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../../components/ui/button.tsx';
import { Input } from '../../../../components/ui/input.tsx';
import { useDraftRule } from '../../api/draft-rule.ts';
import { useApiErrorText } from '../../hooks/use-api-error-text.ts';

interface AskAiProps {
  onDraft: (draft: RuleDraft) => void;
}

/** A sentence in, a draft rule out: the draft opens in the form below for review and is saved only from there. */
export function AskAi({ onDraft }: AskAiProps) {
  const { t } = useTranslation('rules');
  const id = useId();
  const errorText = useApiErrorText();
  const draft = useDraftRule();
  const [prompt, setPrompt] = useState('');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!prompt.trim()) return;
    draft.mutate(prompt.trim(), {
      onSuccess: onDraft,
      onError: (error) => toast.error(errorText(error, t('builder.askAi.failed'))),
    });
  };

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="space-y-3 rounded-xl border border-blue-200 bg-blue-50/50 p-4 dark:border-blue-900 dark:bg-blue-950/20"
    >
      <h2 id={`${id}-title`} className="flex items-center gap-2 font-semibold text-gray-900 dark:text-gray-100">
        <Wand2 aria-hidden="true" className="size-5 text-blue-600 dark:text-blue-400" />
        {t('builder.askAi.title')}
      </h2>
      <form onSubmit={onSubmit} className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor={id} className="sr-only">
          {t('builder.askAi.label')}
        </label>
        <Input
          id={id}
          value={prompt}
          maxLength={500}
          onChange={(event) => setPrompt(event.target.value)}
          placeholder={t('builder.askAi.placeholder')}
        />
        <Button type="submit" disabled={!prompt.trim()} loading={draft.isPending} className="shrink-0">
          {t('builder.askAi.submit')}
        </Button>
      </form>
      <p className="text-xs text-gray-600 dark:text-gray-400">{t('builder.askAi.hint')}</p>
    </section>
  );
}
