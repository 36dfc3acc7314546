import type { Citation, ConversationMessage, SuggestedChange } from '@adpilot/contracts';
import { MessageSquarePlus, Send, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent } from '../../../components/ui/card.tsx';
import { usePlanLimitNotice } from '../../../components/plan-limit.tsx';
import { useFormat } from '../../../lib/format.ts';
import { useCan } from '../../../api/workspaces.ts';
import { useChat, useConversation, useConversations, useDeleteConversation } from '../api/ai.ts';
import { useAiErrorText } from '../hooks/use-ai-error-text.ts';
import { AnswerText } from './answer-text.tsx';
import { SuggestedChanges } from './suggested-changes.tsx';
import { LABEL, TEXTAREA } from './styles.ts';

interface Turn {
  role: 'user' | 'assistant';
  content: string;
  citations: Citation[];
}

function Citations({ citations }: { citations: Citation[] }) {
  const { t } = useTranslation('ai-studio');
  const shown = citations.filter((citation) => citation.figure);
  if (shown.length === 0) return null;
  return (
    <div className="mt-3 border-t border-gray-200 pt-2 dark:border-gray-700">
      <p className="text-xs font-medium text-gray-600 dark:text-gray-400">{t('assistant.sources')}</p>
      <ul className="mt-1 space-y-0.5 text-xs text-gray-700 dark:text-gray-300" data-testid="ai-citations">
        {shown.slice(0, 12).map((citation, index) => (
          <li key={index} className="break-words">
            {citation.href ? (
              <Link to={citation.href} className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
                {citation.name}
              </Link>
            ) : (
              citation.name
            )}
            {': '}
            {citation.figure}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The assistant (issue 29): past conversations listed beside the thread, a follow-up keeps the conversation, every
 * answer shown with its line breaks as it streams in, its citations linked to the entities' pages, and the changes
 * it suggests with from → to and a confirm button.
 */
export function AssistantTab() {
  const { t, i18n } = useTranslation('ai-studio');
  const format = useFormat();
  const id = useId();
  const errorText = useAiErrorText();
  // A plan refusal names the limit and the plan and links to the Subscription page (ADR 0058).
  const planLimit = usePlanLimitNotice();
  const chat = useChat();
  const remove = useDeleteConversation();
  const conversations = useConversations();
  const [current, setCurrent] = useState<string | null>(null);
  const thread = useConversation(current);
  const [question, setQuestion] = useState('');
  // The turns of this session until the thread is read back (and for a reply the server could not list).
  const [pending, setPending] = useState<Turn[]>([]);
  // The answer as it streams in, until the whole reply has come.
  const [streaming, setStreaming] = useState<{ question: string; text: string } | null>(null);
  // The latest answer's suggested changes (the thread read back keeps the text, not the suggestions).
  const [suggested, setSuggested] = useState<{ content: string; suggestions: SuggestedChange[] } | null>(null);
  const canWrite = useCan('editor');

  const turns: Turn[] =
    current && thread.data
      ? thread.data.messages.map((message: ConversationMessage) => ({
          role: message.role,
          content: message.content,
          citations: message.citations,
        }))
      : pending;
  const lastAnswer = [...turns].reverse().find((turn) => turn.role === 'assistant');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const message = question.trim();
    if (!message) return;
    setQuestion('');
    setStreaming({ question: message, text: '' });
    setSuggested(null);
    chat.mutate(
      {
        message,
        conversationId: current,
        language: i18n.language,
        onDelta: (text) => setStreaming((now) => (now ? { ...now, text: now.text + text } : now)),
      },
      {
        onSettled: () => setStreaming(null),
        onSuccess: (reply) => {
          setSuggested({ content: reply.response, suggestions: reply.suggestions ?? [] });
          setPending((turns) => [
            ...(current ? turns : []),
            { role: 'user', content: message, citations: [] },
            { role: 'assistant', content: reply.response, citations: reply.citations ?? [] },
          ]);
          if (reply.conversationId) setCurrent(reply.conversationId);
          toast.success(t('assistant.success'));
        },
        onError: (error) => toast.error(planLimit(error) ?? errorText(error, t('assistant.failed'))),
      },
    );
  };

  const startNew = () => {
    setCurrent(null);
    setPending([]);
    setSuggested(null);
  };

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4 md:grid-cols-[15rem_minmax(0,1fr)]">
      <nav aria-label={t('assistant.conversations')} className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <h2 className="text-sm font-semibold text-gray-900 dark:text-gray-100">{t('assistant.conversations')}</h2>
          <Button type="button" variant="secondary" size="sm" onClick={startNew}>
            <MessageSquarePlus aria-hidden="true" className="size-4" />
            {t('assistant.new')}
          </Button>
        </div>
        {conversations.data && conversations.data.length > 0 ? (
          <ul className="max-h-48 space-y-1 overflow-y-auto md:max-h-[28rem]" data-testid="ai-conversations">
            {conversations.data.map((conversation) => (
              <li key={conversation.id} className="flex items-center gap-1">
                <button
                  type="button"
                  onClick={() => setCurrent(conversation.id)}
                  aria-current={conversation.id === current ? 'true' : undefined}
                  className="min-w-0 flex-1 rounded-md px-2 py-1.5 text-left text-sm hover:bg-gray-100 aria-[current=true]:bg-blue-50 aria-[current=true]:font-medium dark:hover:bg-gray-800 dark:aria-[current=true]:bg-blue-950"
                >
                  <span className="block truncate text-gray-900 dark:text-gray-100">{conversation.title}</span>
                  <span className="block text-xs text-gray-600 dark:text-gray-400">
                    {format.dateTime(conversation.updatedAt)}
                  </span>
                </button>
                <button
                  type="button"
                  onClick={() =>
                    remove.mutate(conversation.id, {
                      onSuccess: () => {
                        if (conversation.id === current) startNew();
                      },
                    })
                  }
                  aria-label={t('assistant.delete', { title: conversation.title })}
                  className="rounded-md p-1.5 text-gray-500 hover:bg-gray-100 hover:text-red-600 dark:hover:bg-gray-800"
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-gray-500 dark:text-gray-400">{t('assistant.noConversations')}</p>
        )}
      </nav>
      <div className="min-w-0 space-y-4">
        {(turns.length > 0 || streaming) && (
          <ol className="space-y-3" aria-label={t('assistant.thread')}>
            {turns.map((turn, index) => (
              <li key={index} className={turn.role === 'user' ? 'flex justify-end' : ''}>
                {turn.role === 'user' ? (
                  <p className="max-w-[85%] rounded-lg bg-blue-600 px-3 py-2 text-sm whitespace-pre-wrap text-white">
                    {turn.content}
                  </p>
                ) : (
                  <Card>
                    <CardContent className="pt-4">
                      <p
                        {...(turn === lastAnswer ? { 'data-testid': 'ai-response' } : {})}
                        className="text-sm break-words whitespace-pre-wrap text-gray-800 dark:text-gray-200"
                      >
                        <AnswerText text={turn.content} />
                      </p>
                      <Citations citations={turn.citations} />
                      {turn === lastAnswer && suggested?.content === turn.content && (
                        <SuggestedChanges suggestions={suggested.suggestions} canWrite={canWrite} />
                      )}
                    </CardContent>
                  </Card>
                )}
              </li>
            ))}
            {streaming && (
              <>
                <li className="flex justify-end">
                  <p className="max-w-[85%] rounded-lg bg-blue-600 px-3 py-2 text-sm whitespace-pre-wrap text-white">
                    {streaming.question}
                  </p>
                </li>
                <li>
                  <Card>
                    <CardContent className="pt-4">
                      <p
                        data-testid="ai-streaming"
                        aria-live="polite"
                        className="text-sm break-words whitespace-pre-wrap text-gray-800 dark:text-gray-200"
                      >
                        {streaming.text ? <AnswerText text={streaming.text} /> : t('assistant.thinking')}
                      </p>
                    </CardContent>
                  </Card>
                </li>
              </>
            )}
          </ol>
        )}
        <form onSubmit={onSubmit} className="space-y-3">
          <label htmlFor={id} className={LABEL}>
            {t('assistant.label')}
          </label>
          <textarea
            id={id}
            rows={3}
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
      </div>
    </div>
  );
}
