import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestContext } from '../../../../../test/harness.js';
import { startScriptedModel } from '../../../../../test/scripted-model.js';
import { EVAL_QUESTIONS } from './questions.js';
import { resultKey, runEvaluation } from './run-evaluation.js';

const model = await startScriptedModel();
const { ctx, admin } = useTestContext({
  env: {
    AGENT_BASE_URL: model.url,
    AGENT_MODEL: 'scripted',
    AGENT_MAX_REPAIRS: '0',
    AGENT_TOKENS_PER_TENANT_PER_DAY: '0',
  },
});

afterAll(() => model.close());
beforeEach(() => model.reset());

describe('the agent’s evaluation (npm run agent:eval)', () => {
  it('holds at least 30 questions, easy to hard, with replies among them', () => {
    expect(EVAL_QUESTIONS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(EVAL_QUESTIONS.map((question) => question.id)).size).toBe(EVAL_QUESTIONS.length);
    for (const level of ['easy', 'medium', 'hard']) {
      expect(EVAL_QUESTIONS.some((question) => question.level === level)).toBe(true);
    }
    expect(EVAL_QUESTIONS.some((question) => question.expected === 'reply')).toBe(true);
  });

  it('scores every reference answer right: the hand-written SQL, the compiler and the comparison agree', async () => {
    model.script(...EVAL_QUESTIONS.map((question) => ({ content: question.reference })));
    const { results, accuracy } = await runEvaluation({
      app: ctx.app,
      headers: admin.headers,
      questions: EVAL_QUESTIONS,
    });
    expect(results.filter((result) => !result.correct)).toEqual([]);
    expect(accuracy).toBe(1);
    expect(results.every((result) => result.tokens === 120)).toBe(true);
  }, 120_000);

  it('scores a wrong result, words where a result was wanted, a result where words were, and a refusal as misses', async () => {
    const [count, payers] = EVAL_QUESTIONS;
    const why = EVAL_QUESTIONS.find((question) => question.expected === 'reply')!;
    const questions = [count!, payers!, why, EVAL_QUESTIONS[3]!, EVAL_QUESTIONS[4]!];
    model.script(
      { content: payers!.reference },
      { content: { kind: 'reply', text: 'I cannot say.' } },
      { content: count!.reference },
      { content: { ...EVAL_QUESTIONS[3]!.reference, table: 'invented' } },
      { content: EVAL_QUESTIONS[4]!.reference },
    );
    const { results, accuracy } = await runEvaluation({ app: ctx.app, headers: admin.headers, questions });
    expect(results.map((result) => [result.correct, result.outcome])).toEqual([
      [false, 'plan'],
      [false, 'reply'],
      [false, 'plan'],
      [false, 'agent_refused'],
      [true, 'plan'],
    ]);
    expect(accuracy).toBe(0.2);
  });

  it('compares results whatever the order of rows and columns, numbers to four decimals and midnights as dates', () => {
    expect(
      resultKey([
        ['a', 1.00001],
        [2, 'b'],
      ]),
    ).toBe(
      resultKey([
        ['b', '2'],
        [1, 'a'],
      ]),
    );
    expect(resultKey([['2026-01-01 00:00:00']])).toBe(resultKey([['2026-01-01']]));
    expect(resultKey([['a', 1]])).not.toBe(resultKey([['a', 2]]));
    expect(resultKey([['a', 1]])).not.toBe(
      resultKey([
        ['a', 1],
        ['a', 1],
      ]),
    );
  });
});
