import type { AgentMessage } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { runAnswerQueryOptions } from '../api/agent.js';
import { useBlockPaging } from '../components/use-block-paging.js';
import { runRequestOf } from '@dataplatform/contract';
import { blockState } from '../report-view.js';
import type { AnswerBlock } from './answer-block.js';
import { DrawnBlock, Folded, useAnswerBlock, WithAnswerBlock } from './drawn-block.js';

/** An answer's block, run through `…/messages/{id}/run` (a table pages on the server). */
function AnswerRun({
  conversationId,
  messageId,
  block,
}: {
  conversationId: string;
  messageId: string;
  block: AnswerBlock;
}) {
  const paging = useBlockPaging();
  const { block: _block, params: _params, ...request } = runRequestOf(block.shown, {}, paging.page, paging.sort);
  const run = useQuery(runAnswerQueryOptions(conversationId, messageId, request));
  const state = blockState(run, run.data !== undefined && run.data.rows.length === 0 && paging.page === 0);
  return <DrawnBlock block={block.shown} result={run.data} state={state} {...paging} />;
}

/** The steps an answer took: its plan, and each answer the checks sent back and why. */
export function AnswerSteps({ message }: { message: AgentMessage }) {
  if (message.repairs.length === 0) return null;
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        Checked after {message.repairs.length} repair{message.repairs.length === 1 ? '' : 's'}:
      </Typography>
      <Box component="ol" sx={{ m: 0, pl: 3, typography: 'body2', color: 'text.secondary' }}>
        {message.repairs.map((repair) => (
          <li key={repair.attempt}>
            Attempt {repair.attempt} was sent back: {repair.problem}
          </li>
        ))}
      </Box>
    </Box>
  );
}

/** The plan as words a person reads: "count of rows, avg of delay by origin (month), from flights". */
export function planWords(plan: NonNullable<AgentMessage['plan']>): string {
  const measures = plan.measures.map((measure) => `${measure.agg} of ${measure.column ?? 'rows'}`).join(', ');
  const by = plan.dimensions.map((dimension) =>
    dimension.grain ? `${dimension.column} (${dimension.grain})` : dimension.column,
  );
  const filters = plan.filters.map(
    (filter) => `${filter.column} ${filter.op}${filter.value === null ? '' : ` ${JSON.stringify(filter.value)}`}`,
  );
  return [
    `${measures || 'rows'} from ${plan.source}.${plan.table}`,
    by.length > 0 ? `by ${by.join(', ')}` : '',
    filters.length > 0 ? `where ${filters.join(' and ')}` : '',
    `as a ${plan.chart}`,
  ]
    .filter((part) => part !== '')
    .join(' ');
}

/**
 * One answer of a conversation: a reply as text; a plan or SQL answer as Studio draws its block, its
 * SQL and YAML folded below, and "Add to report" for those who may write reports.
 */
export function AnswerCard({
  conversationId,
  message,
  onAdd,
}: {
  conversationId: string;
  message: AgentMessage;
  /** Offers "Add to report" (reports:write). */
  onAdd?: ((message: AgentMessage) => void) | undefined;
}) {
  const block = message.block;
  const read = useAnswerBlock(block?.report ?? '', block?.params ?? {});
  if (!block) {
    return (
      <Paper variant="outlined" component="section" aria-label="The agent’s reply" sx={{ p: 2 }}>
        <Typography sx={{ whiteSpace: 'pre-wrap' }}>{message.text}</Typography>
      </Paper>
    );
  }
  return (
    <Box
      component="section"
      aria-label={`Answer: ${message.text}`}
      sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      <WithAnswerBlock read={read}>
        {(drawn) => (
          <>
            <AnswerRun conversationId={conversationId} messageId={message.id} block={drawn} />
            {onAdd ? (
              <Box>
                <Button size="small" variant="outlined" onClick={() => onAdd(message)}>
                  Add to report
                </Button>
              </Box>
            ) : undefined}
          </>
        )}
      </WithAnswerBlock>
      {message.plan ? (
        <Typography variant="body2" color="text.secondary">
          Plan: {planWords(message.plan)}.
        </Typography>
      ) : undefined}
      <AnswerSteps message={message} />
      {message.sql ? <Folded summary="SQL">{message.sql}</Folded> : undefined}
      <Folded summary="YAML">{block.yaml}</Folded>
    </Box>
  );
}
