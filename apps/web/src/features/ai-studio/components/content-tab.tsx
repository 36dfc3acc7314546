import { PLATFORMS, type Platform } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { Copy, PenLine } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { useGenerateAdCopy } from '../api/ai.ts';
import { useAiErrorText } from '../hooks/use-ai-error-text.ts';
import { readPastedJson } from '../lib/pasted-json.ts';
import { JsonField } from './json-field.tsx';
import { LABEL, SELECT } from './styles.ts';
import { usePlanLimitNotice } from '../../../components/plan-limit.tsx';

/** Spec §2: platform (Instagram included), product JSON, then numbered variations each with a Copy button. */
export function ContentTab() {
  const { t } = useTranslation('ai-studio');
  const id = useId();
  const errorText = useAiErrorText();
  // A plan refusal names the limit and the plan and links to the Subscription page (ADR 0058).
  const planLimit = usePlanLimitNotice();
  const generate = useGenerateAdCopy();
  const [platform, setPlatform] = useState<Platform>('facebook');
  const [product, setProduct] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [variations, setVariations] = useState<string[] | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const pasted = readPastedJson(product);
    if (!pasted.ok) {
      setError(t(`content.${pasted.reason}`));
      return;
    }
    setError(null);
    generate.mutate(
      { productInfo: pasted.value, platform },
      {
        onSuccess: (result) => {
          setVariations(result);
          toast.success(t('content.success'));
        },
        onError: (failure) => toast.error(planLimit(failure) ?? errorText(failure, t('content.failed'))),
      },
    );
  };

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(t('content.copied'));
    } catch {
      toast.error(t('content.copyFailed'));
    }
  };

  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} className="space-y-3" noValidate>
        <div>
          <label htmlFor={`${id}-platform`} className={LABEL}>
            {t('content.platform')}
          </label>
          <select
            id={`${id}-platform`}
            value={platform}
            onChange={(event) => setPlatform(event.target.value as Platform)}
            className={clsx(SELECT, 'mt-1')}
          >
            {PLATFORMS.map((option) => (
              <option key={option} value={option}>
                {t(`platforms.${option}`)}
              </option>
            ))}
          </select>
        </div>
        <label htmlFor={id} className={LABEL}>
          {t('content.label')}
        </label>
        <JsonField
          id={id}
          rows={8}
          value={product}
          onChange={setProduct}
          placeholder={t('content.placeholder')}
          error={error}
        />
        <Button type="submit" loading={generate.isPending}>
          <PenLine aria-hidden="true" className="size-4" />
          {t('content.submit')}
        </Button>
      </form>
      {variations && (
        <section aria-label={t('content.variationsTitle')} className="space-y-3">
          <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">{t('content.variationsTitle')}</h2>
          <ol className="space-y-3">
            {variations.map((variation, index) => (
              <li
                key={index}
                data-testid="ad-copy-variation"
                className="flex items-start justify-between gap-4 rounded-lg border border-gray-200 bg-white p-4 dark:border-gray-800 dark:bg-gray-900"
              >
                <div>
                  <p className="text-xs font-medium text-gray-500 uppercase dark:text-gray-400">
                    {t('content.variation', { number: index + 1 })}
                  </p>
                  <p className="mt-1 text-sm whitespace-pre-wrap text-gray-900 dark:text-gray-100">{variation}</p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => void copy(variation)}
                  aria-label={`${t('content.copy')} ${t('content.variation', { number: index + 1 })}`}
                >
                  <Copy aria-hidden="true" className="size-4" />
                  {t('content.copy')}
                </Button>
              </li>
            ))}
          </ol>
        </section>
      )}
    </div>
  );
}
