import { Send } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { useChat } from '../api/ai.ts';
import { useAiErrorText } from '../hooks/use-ai-error-text.ts';
import { LABEL, TEXTAREA } from './styles.ts';
import { usePlanLimitNotice } from '../../../components/plan-limit.tsx';

/** Spec §2/§5: a question box (blank cannot be sent, cleared once sent) and the answer with its line breaks. */
export function AssistantTab() {
  const { t } = useTranslation('ai-studio');
  const id = useId();
  const errorText = useAiErrorText();
  // A plan refusal names the limit and the plan and links to the Subscription page (ADR 0058).
  const planLimit = usePlanLimitNotice();
  const chat = useChat();
  const [question, setQuestion] = useState('');
  const [response, setResponse] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const message = question.trim();
    if (!message) return;
    setQuestion('');
    chat.mutate(message, {
      onSuccess: (reply) => {
        setResponse(reply.response);
        toast.success(t('assistant.success'));
      },
      onError: (error) => toast.error(planLimit(error) ?? errorText(error, t('assistant.failed'))),
    });
  };

  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} className="space-y-3">
        <label htmlFor={id} className={LABEL}>
          {t('assistant.label')}
        </label>
        <textarea
          id={id}
          rows={4}
          value={question}
          onChange={(event) => setQuestion(event.target.value)}
          placeholder={t('assistant.placeholder')}
          className={TEXTAREA.replace('font-mono ', '')}
        />
        <Button type="submit" disabled={!question.trim()} loading={chat.isPending}>
          <Send aria-hidden="true" className="size-4" />
          {t('assistant.submit')}
        </Button>
      </form>
      {response && (
        <Card>
          <CardHeader>
            <CardTitle>{t('assistant.responseTitle')}</CardTitle>
          </CardHeader>
          <CardContent>
            <p data-testid="ai-response" className="text-sm whitespace-pre-wrap text-gray-800 dark:text-gray-200">
              {response}
            </p>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
