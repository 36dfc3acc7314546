import type {
  CreateReportScheduleInput,
  ReportDelivery,
  ReportSchedule,
  UpdateReportScheduleInput,
} from '@adpilot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { openFile } from '../../../lib/download.ts';

/*
 * The workspace's scheduled reports: the list, its changes (each answer put into the list), "Send now" (the
 * delivery it made, the list read again for its last delivery) and the preview (the PDF the next report would be).
 */
export const REPORT_SCHEDULES_QUERY_KEY = ['report-schedules'] as const;

const schedulePath = (id: string) => `/reports/schedules/${encodeURIComponent(id)}`;

export function reportSchedulesQueryOptions() {
  return queryOptions({
    queryKey: REPORT_SCHEDULES_QUERY_KEY,
    queryFn: ({ signal }) => api.get<ReportSchedule[]>('/reports/schedules', { signal }),
  });
}

export const useReportSchedules = () => useQuery(reportSchedulesQueryOptions());

function useListUpdate() {
  const queryClient = useQueryClient();
  return (change: (list: ReportSchedule[]) => ReportSchedule[]) =>
    queryClient.setQueryData<ReportSchedule[]>(REPORT_SCHEDULES_QUERY_KEY, (list) => list && change(list));
}

export function useCreateReportSchedule() {
  const update = useListUpdate();
  return useMutation({
    mutationFn: (body: CreateReportScheduleInput) => api.post<ReportSchedule>('/reports/schedules', body),
    onSuccess: (schedule) => update((list) => [...list, schedule]),
  });
}

export function useUpdateReportSchedule() {
  const update = useListUpdate();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateReportScheduleInput }) =>
      api.patch<ReportSchedule>(schedulePath(id), body),
    onSuccess: (schedule) => update((list) => list.map((item) => (item.id === schedule.id ? schedule : item))),
  });
}

export function useDeleteReportSchedule() {
  const update = useListUpdate();
  return useMutation({
    mutationFn: (schedule: ReportSchedule) => api.delete<void>(schedulePath(schedule.id)),
    onSuccess: (_answer, schedule) => update((list) => list.filter((item) => item.id !== schedule.id)),
  });
}

/** "Send now": the report of the last full period, mailed at once; the answer is the delivery it made. */
export function useSendReportNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (schedule: ReportSchedule) => api.post<ReportDelivery>(`${schedulePath(schedule.id)}/send`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: REPORT_SCHEDULES_QUERY_KEY }),
  });
}

/** The PDF a schedule's next report would carry, opened in a new tab: `adpilot-report-weekly.pdf` if downloaded. */
export function previewReport(schedule: ReportSchedule): Promise<void> {
  return openFile(`${schedulePath(schedule.id)}/preview`, `adpilot-report-${schedule.frequency}.pdf`);
}
