import type { PlanLimits } from '@adpilot/contracts';
import { Check } from 'lucide-react';
import { planFeatureCodes, usePlanFeatureText } from '../lib/plan-features.ts';

/** A plan's features as a ticked list, in the reader's language: the Subscription page's cards and the landing's. */
export function PlanFeatureList({ plan }: { plan: { features: readonly string[]; limits: PlanLimits } }) {
  const featureText = usePlanFeatureText();
  return (
    <ul className="mt-5 flex-1 space-y-2 text-sm text-gray-700 dark:text-gray-300">
      {planFeatureCodes(plan.features).map((code) => (
        <li key={code} className="flex gap-2">
          <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-green-600" />
          {featureText(code, plan.limits)}
        </li>
      ))}
    </ul>
  );
}
