import {
  parseReportDefinition,
  publicReportBlock,
  type AgentBlockParam,
  type ReportBlock,
  type ReportBlockPublic,
} from '@dataplatform/contract';

/** An answer's block read from its one-block report: as drawn, and as merged into a report. */
export interface AnswerBlock {
  shown: ReportBlockPublic;
  addition: { block: ReportBlock; params: Record<string, AgentBlockParam> };
}

/**
 * Reads the block of an answer's one-block report text (the server wrote and checked it). Its own
 * chunk: the YAML parser loads once an answer is there to draw, never with the page.
 */
export function answerBlockOf(report: string, params: Record<string, AgentBlockParam>): AnswerBlock {
  const parsed = parseReportDefinition(report);
  if (!parsed.ok) throw new Error('The answer’s block could not be read.');
  const block = parsed.definition.blocks[0];
  if (!block) throw new Error('The answer has no block.');
  return { shown: publicReportBlock(block, () => ''), addition: { block, params } };
}
