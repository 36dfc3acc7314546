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
    <Card className="flex items-center gap-4 p-6">
      <span className="flex size-12 shrink-0 items-center justify-center rounded-lg bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-300">
        <Icon aria-hidden="true" className="size-6" />
      </span>
      <div>
        <p className="text-sm font-medium text-gray-600 dark:text-gray-400">{label}</p>
        <p className="text-2xl font-bold text-gray-900 dark:text-white">{format.number(value)}</p>
      </div>
    </Card>
  );
}
