import { DIAGNOSTIC_TESTS, type DiagnosticResult, type DiagnosticTest } from '@adpilot/contracts';
import { AlertTriangle, CheckCircle2, PlayCircle, ShieldOff, XCircle } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useServerMessage } from '../../../lib/server-message.ts';
import { runDiagnostic, useDiagnosticsInfo } from '../api/diagnostics.ts';
import { AdminOnly } from './admin-only.tsx';
import { EnvironmentBlock } from './environment-block.tsx';
import { LiveStatus } from './live-status.tsx';

const STATUS_ICON = {
  passed: <CheckCircle2 aria-hidden="true" className="size-5 shrink-0 text-green-600" />,
  warning: <AlertTriangle aria-hidden="true" className="size-5 shrink-0 text-yellow-500" />,
  failed: <XCircle aria-hidden="true" className="size-5 shrink-0 text-red-600" />,
} as const;

/** The words of a result, from its code and figures. */
function useResultText() {
  const { t } = useTranslation('test-connection');
  return (result: DiagnosticResult) => {
    const { latencyMs, users, plans, error } = result.params;
    const text = t(`codes.${result.code}`, { latencyMs, users, count: plans?.length ?? 0 });
    return error ? `${text}: ${error}` : text;
  };
}

function ResultItem({ result }: { result: DiagnosticResult }) {
  const { t } = useTranslation('test-connection');
  const text = useResultText();
  return (
    <li className="flex items-start gap-3 py-3" data-testid={`result-${result.test}`} data-status={result.status}>
      {STATUS_ICON[result.status]}
      <div className="min-w-0 flex-1">
        <p className="font-medium text-gray-900 dark:text-gray-100">
          {t(`tests.${result.test}`)} — <span>{t(`results.${result.status}`)}</span>
        </p>
        <p className="text-sm text-gray-600 dark:text-gray-400">{text(result)}</p>
        {result.params.plans && result.params.plans.length > 0 && (
          <p className="text-sm text-gray-600 dark:text-gray-400">
            {t('plans')}: {result.params.plans.map((plan) => plan.name).join(', ')}
          </p>
        )}
      </div>
      <span className="text-xs text-gray-500 dark:text-gray-400">
        {t('results.duration', { ms: result.durationMs })}
      </span>
    </li>
  );
}

export function TestConnectionPage() {
  const { t } = useTranslation('test-connection');
  const info = useDiagnosticsInfo();
  const text = useResultText();
  const errorMessage = useServerMessage();
  const [results, setResults] = useState<DiagnosticResult[]>([]);
  const [running, setRunning] = useState<ReadonlySet<DiagnosticTest>>(new Set());

  const run = async (test: DiagnosticTest): Promise<DiagnosticResult | null> => {
    setRunning((current) => new Set(current).add(test));
    try {
      const result = await runDiagnostic(test);
      setResults((current) => [result, ...current.filter((item) => item.test !== test)]);
      return result;
    } catch (error) {
      toast.error(errorMessage(error, t('runFailed')));
      return null;
    } finally {
      setRunning((current) => {
        const next = new Set(current);
        next.delete(test);
        return next;
      });
    }
  };
  const runOne = async (test: DiagnosticTest) => {
    const result = await run(test);
    if (!result) return;
    if (result.status === 'passed') toast.success(text(result));
    else toast.error(text(result));
  };
  // One after another, in the page's order, so the results read top to bottom like the buttons.
  const runAll = async () => {
    setResults([]);
    for (const test of DIAGNOSTIC_TESTS) await run(test);
  };

  const enabled = info.data?.enabled === true;
  // Once the instance has an administrator, the diagnostics are theirs (401 signed out, 403 for anyone else).
  const refusal = info.error instanceof ApiError && [401, 403].includes(info.error.status) ? info.error.status : null;
  const ordered = DIAGNOSTIC_TESTS.flatMap((test) => results.filter((result) => result.test === test));

  return (
    <div className="space-y-6">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          enabled && (
            <Button onClick={() => void runAll()} loading={running.size > 0}>
              <PlayCircle aria-hidden="true" className="size-4" />
              {t('runAll')}
            </Button>
          )
        }
      />
      <LiveStatus />
      {info.isPending ? (
        <Spinner />
      ) : refusal !== null ? (
        <AdminOnly signedOut={refusal === 401} />
      ) : !enabled ? (
        <Card role="alert">
          <CardContent className="flex items-start gap-3">
            <ShieldOff aria-hidden="true" className="size-6 shrink-0 text-amber-500" />
            <div>
              <h2 className="font-semibold text-gray-900 dark:text-gray-100">{t('disabled.title')}</h2>
              <p className="text-sm text-gray-600 dark:text-gray-400">{t('disabled.description')}</p>
            </div>
          </CardContent>
        </Card>
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle>{t('panel')}</CardTitle>
            </CardHeader>
            <CardContent className="flex flex-wrap gap-2">
              {DIAGNOSTIC_TESTS.map((test) => (
                <Button
                  key={test}
                  variant="secondary"
                  size="sm"
                  loading={running.has(test)}
                  onClick={() => void runOne(test)}
                >
                  {t(`tests.${test}`)}
                </Button>
              ))}
            </CardContent>
          </Card>
          {info.data?.environment && <EnvironmentBlock environment={info.data.environment} />}
          <Card className="lg:col-span-2">
            <CardHeader>
              <CardTitle>{t('results.title')}</CardTitle>
            </CardHeader>
            <CardContent>
              {ordered.length === 0 ? (
                <p className="text-sm text-gray-500 dark:text-gray-400">{t('results.empty')}</p>
              ) : (
                <ul className="divide-y divide-gray-200 dark:divide-gray-800" aria-label={t('results.title')}>
                  {ordered.map((result) => (
                    <ResultItem key={result.test} result={result} />
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
        </div>
      )}
    </div>
  );
}
