import { addBlockToReport, type AgentBlock, type ReportPublic } from '@dataplatform/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { answerBlockOf } from '../agent/answer-block.js';
import { reportKeys } from './reports.js';

/** A block to add: its one-block report text, the block itself, and the answer it came from. */
export interface BlockToAdd {
  /** The one-block report the server wrote: what a new report saves, and whose block is added to another. */
  report: string;
  /** The parameters its SQL binds. */
  params: AgentBlock['params'];
  /** A model's answer (the version is marked "drafted with the agent"); a block built by hand has none. */
  messageId?: string | undefined;
  /** An existing report to add it to; none: a new report. */
  reportId?: string | undefined;
}

/**
 * Adds a block to a new report (its own one-block report) or to an existing one (read again, the
 * block merged into its text, saved against the version just read), through the reports API like
 * any edit. A model's answer is named, so the version is marked "drafted with the agent".
 */
export function useAddToReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (add: BlockToAdd) => {
      const mark = add.messageId ? { agent_message_id: add.messageId } : {};
      if (!add.reportId) {
        return apiRequest<ReportPublic>({
          method: 'POST',
          path: '/studio/reports',
          json: { definition: add.report, ...mark },
        });
      }
      const report = await apiRequest<ReportPublic>({ path: `/studio/reports/${encodeURIComponent(add.reportId)}` });
      return apiRequest<ReportPublic>({
        method: 'PUT',
        path: `/studio/reports/${encodeURIComponent(report.id)}`,
        json: {
          definition: addBlockToReport(report.definition, answerBlockOf(add.report, add.params).addition),
          version: report.version,
          ...mark,
        },
      });
    },
    // The dialog says what went wrong beside its choices.
    meta: { errorToast: false },
    onSuccess: () => client.invalidateQueries({ queryKey: reportKeys.all }),
  });
}
