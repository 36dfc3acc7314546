import type { LucideIcon } from 'lucide-react';
import { Card } from '../../../components/ui/card.tsx';
import { useFormat } from '../../../lib/format.ts';

interface StatCardProps {
  label: string;
  value: number;
  icon: LucideIcon;
}

export function StatCard({ label, value, icon: Icon }: StatCardProps) {
  const format = useFormat();
  return (
    // Two to a row on a phone: the icon gives way, the label may wrap, the figure stays whole.
    <Card className="flex min-w-0 items-center gap-3 p-4 sm:gap-4 sm:p-6">
      <span className="hidden size-12 shrink-0 items-center justify-center rounded-lg bg-blue-100 text-blue-700 sm:flex dark:bg-blue-950 dark:text-blue-300">
        <Icon aria-hidden="true" className="size-6" />
      </span>
      <div className="min-w-0">
        <p className="text-sm font-medium break-words text-gray-600 dark:text-gray-400">{label}</p>
        <p className="text-2xl font-bold text-gray-900 dark:text-white">{format.number(value)}</p>
      </div>
    </Card>
  );
}
