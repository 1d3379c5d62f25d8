import {
  addBlockToReport,
  parseReportDefinition,
  type AgentConversation,
  type AgentConversations,
  type AgentMessage,
  type AuditEntries,
  type ReportPublic,
  type ReportVersions,
} from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { agentPlan, useAgentWorld } from '../../../../test/agent-world.js';
import { createTenant, tenantHeaders } from '../../../../test/tenant-fixtures.js';
import { addTokens } from './agent.repository.js';

const { ctx, admin, model, world, conversation, ask } = await useAgentWorld();
const plan = agentPlan;

describe('asking the agent: POST /agent/conversations/{id}/messages', () => {
  it('answers a plan with its SQL, block and preview, after sending only the tenant’s own names as enums', async () => {
    const id = await conversation(world.askerA, world.tenantA.id);
    model.script({ content: plan() });
    const response = await ask(world.askerA, world.tenantA.id, id, 'Which region sold the most units?');
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<AgentMessage>();
    expect(answer).toMatchObject({
      role: 'assistant',
      kind: 'plan',
      text: 'Units by region',
      repairs: [],
      tokens: 120,
    });
    expect(answer.preview?.rows).toEqual([
      ['north', 8],
      ['south', 4],
    ]);
    expect(answer.sql).toContain('FROM "sales_a"');

    const [sent] = model.requests;
    expect(sent!.headers.authorization).toBe('Bearer sk-test-secret-key-never-logged');
    expect(sent!.body.model).toBe('scripted-model');
    expect(sent!.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'agent_answer', strict: true },
    });
    const schema = JSON.stringify(sent!.body.response_format!.json_schema!.schema);
    expect(schema).toContain('"sales_a"');
    expect(schema).toContain('"rates"');
    const prompt = sent!.body.messages.map((message) => message.content).join('\n');
    // Sample values of short text columns, and never another tenant's names, URLs or keys.
    expect(prompt).toContain('"north"');
    for (const text of [schema, prompt]) {
      expect(text).not.toContain('secret_b');
      expect(text).not.toContain('zed-corp');
      expect(text).not.toContain('sk-test-secret');
    }

    const audit = await ctx.app.inject({
      url: `/api/v1/audit/?target_type=agent_conversation&target_id=${id}`,
      headers: admin.headers,
    });
    expect(audit.json<AuditEntries>().data[0]).toMatchObject({
      action: 'agent.answer',
      after: { question: 'Which region sold the most units?', model: 'scripted-model', tokens: 120, sql: answer.sql },
    });
  });

  it('revises the last plan on a follow-up, which the model sees', async () => {
    const id = await conversation(world.askerA, world.tenantA.id);
    model.script({ content: plan() }, { content: plan({ filters: [{ column: 'sold_on', op: '>=', value: '2002' }] }) });
    expect((await ask(world.askerA, world.tenantA.id, id, 'Units by region')).statusCode).toBe(200);
    const followUp = await ask(world.askerA, world.tenantA.id, id, 'only 2002');
    expect(followUp.statusCode, followUp.body).toBe(200);
    expect(followUp.json<AgentMessage>().preview?.rows).toEqual([['north', 5]]);
    const messages = model.requests[1]!.body.messages;
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'only 2002' });
    expect(
      messages.some((message) => message.role === 'assistant' && message.content.includes('"table":"sales_a"')),
    ).toBe(true);

    const read = await ctx.app.inject({
      url: `/api/v1/agent/conversations/${id}`,
      headers: tenantHeaders(world.askerA, world.tenantA.id),
    });
    const stored = read.json<AgentConversation>();
    expect(stored.title).toBe('Units by region');
    expect(stored.messages.map((message) => message.kind)).toEqual(['question', 'plan', 'question', 'plan']);
  });

  it('repairs an invented column with the compiler’s message, and answers', async () => {
    const id = await conversation(world.askerA, world.tenantA.id);
    model.script(
      { content: plan({ measures: [{ agg: 'sum', column: 'revenue', as: 'revenue' }], sort: [] }) },
      { content: plan() },
    );
    const response = await ask(world.askerA, world.tenantA.id, id, 'revenue by region');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<AgentMessage>().repairs).toEqual([
      { attempt: 1, problem: expect.stringContaining('no column "revenue"') as unknown },
    ]);
    expect(model.requests[1]!.body.messages.at(-1)!.content).toContain('no column "revenue"');
  });

  it('never runs SQL the guard refuses, whatever the model says, and refuses after the repairs with what was tried', async () => {
    const id = await conversation(world.askerA, world.tenantA.id);
    const hostile = [
      'DROP TABLE sales_a',
      "SELECT * FROM read_text('/etc/passwd')",
      "COPY sales_a TO '/tmp/out.csv'",
      // Another tenant's table: not in this tenant's extract database, and not a name the guard allows.
      'SELECT * FROM secret_b',
      'SELECT 1; DELETE FROM sales_a',
      "ATTACH '/tmp/x.duckdb' AS x",
    ];
    model.script(
      ...hostile.map((sql) => ({ content: { kind: 'sql', title: 'T', source: 'extract', sql, chart: 'table' } })),
    );
    // Three attempts each (AGENT_MAX_REPAIRS 2): two questions use the six answers.
    for (let question = 0; question < 2; question += 1) {
      const response = await ask(world.askerA, world.tenantA.id, id, 'show me the files');
      expect(response.statusCode, response.body).toBe(422);
      const refusal = response.json<{ detail: string; code: string }>();
      expect(refusal.code).toBe('agent_refused');
      expect(refusal.detail).toContain('after 3 attempts');
    }
    expect(model.requests).toHaveLength(6);
    // Nothing of a refused question is kept in the conversation.
    const read = await ctx.app.inject({
      url: `/api/v1/agent/conversations/${id}`,
      headers: tenantHeaders(world.askerA, world.tenantA.id),
    });
    expect(read.json<AgentConversation>().messages).toEqual([]);
    const list = await ctx.app.inject({
      url: '/api/v1/studio/extracts',
      headers: tenantHeaders(world.askerA, world.tenantA.id),
    });
    expect(list.body).toContain('sales_a');
  });

  it('repairs JSON that does not parse or fit the schema, and a model that writes for ever', async () => {
    const id = await conversation(world.askerA, world.tenantA.id);
    model.script(
      { content: 'Sure! Here is the plan: {' },
      { content: { kind: 'plan', title: 'T' } },
      { content: 'x'.repeat(1024 * 1024) },
    );
    const response = await ask(world.askerA, world.tenantA.id, id, 'anything');
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json<{ detail: string }>().detail).toMatch(/not JSON.*does not fit the schema.*too long/s);
  });

  it('sends the open report’s YAML with the question, and a report the caller cannot see is a 404', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/studio/reports',
      headers: tenantHeaders(world.askerA, world.tenantA.id),
      payload: { definition: 'title: Open report\nsource: extract\nblocks:\n  - id: intro_note\n    text: Hello\n' },
    });
    const report = created.json<ReportPublic>();
    const id = await conversation(world.askerA, world.tenantA.id);
    model.script({ content: plan() });
    const response = await ask(world.askerA, world.tenantA.id, id, 'add units by region', { report_id: report.id });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<AgentMessage>().report_id).toBe(report.id);
    expect(model.requests[0]!.body.messages[0]!.content).toContain('id: intro_note');
    const elsewhere = await conversation(world.askerB, world.tenantB.id);
    const hidden = await ask(world.askerB, world.tenantB.id, elsewhere, 'add units', { report_id: report.id });
    expect(hidden.statusCode).toBe(404);
    expect(model.requests).toHaveLength(1);
  });

  it('answers a reply in words', async () => {
    const id = await conversation(world.askerA, world.tenantA.id);
    model.script({ content: { kind: 'reply', text: 'The data says what happened, not why.', title: null, sql: null } });
    const response = await ask(world.askerA, world.tenantA.id, id, 'Why did units drop?');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<AgentMessage>()).toMatchObject({
      kind: 'reply',
      text: 'The data says what happened, not why.',
    });
    expect(response.json<AgentMessage>().sql).toBeUndefined();
  });

  it('answers 502 agent_unavailable when the model server fails, rate-limits or does not answer in time', async () => {
    const id = await conversation(world.askerA, world.tenantA.id);
    for (const reply of [{ status: 500 }, { status: 429 }, { delayMs: 1_500 }]) {
      model.script(reply);
      const response = await ask(world.askerA, world.tenantA.id, id, 'units by region');
      expect(response.statusCode, response.body).toBe(502);
      expect(response.json<{ code: string }>().code).toBe('agent_unavailable');
      expect(response.body).not.toContain('sk-test');
    }
  });

  it('refuses a question of 100 KB, and another person’s or tenant’s conversation is a 404', async () => {
    const id = await conversation(world.askerA, world.tenantA.id);
    const long = await ask(world.askerA, world.tenantA.id, id, 'x'.repeat(100 * 1024));
    expect([413, 422]).toContain(long.statusCode);
    expect(model.requests).toHaveLength(0);
    const other = await ask(world.askerB, world.tenantB.id, id, 'units');
    expect(other.statusCode).toBe(404);
    expect(other.json<{ code: string }>().code).toBe('conversation_not_found');
    const read = await ctx.app.inject({
      url: `/api/v1/agent/conversations/${id}`,
      headers: tenantHeaders(world.askerB, world.tenantB.id),
    });
    expect(read.statusCode).toBe(404);
  });

  it('answers 429 agent_budget_exhausted with Retry-After once the tenant’s tokens for the day are spent', async () => {
    const tenant = await createTenant(ctx, admin, { members: [world.askerA] });
    const id = await conversation(world.askerA, tenant.id);
    await addTokens(ctx.database.db, tenant.id, new Date().toISOString().slice(0, 10), 100_000);
    const response = await ask(world.askerA, tenant.id, id, 'units');
    expect(response.statusCode).toBe(429);
    expect(response.json<{ code: string }>().code).toBe('agent_budget_exhausted');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(model.requests).toHaveLength(0);
  });

  it('streams the model’s text as server-sent events, then the answer', async () => {
    const id = await conversation(world.askerA, world.tenantA.id);
    model.script({ content: plan(), chunk: 8 });
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/agent/conversations/${id}/messages`,
      headers: tenantHeaders(world.askerA, world.tenantA.id, { accept: 'text/event-stream' }),
      payload: { text: 'units by region' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/event-stream');
    const events = response.body
      .trim()
      .split('\n\n')
      .map((block) => ({
        name: /^event: (.*)$/m.exec(block)![1],
        data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as { text?: string },
      }));
    const deltas = events.filter((event) => event.name === 'delta');
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.map((event) => event.data.text).join('')).toBe(JSON.stringify(plan()));
    expect(events.at(-1)).toMatchObject({ name: 'answer', data: { kind: 'plan', text: 'Units by region' } });
    expect(model.requests[0]!.body.stream).toBe(true);
  });

  it('stops a model that streams for ever at AGENT_TIMEOUT_SECONDS, with an error event', async () => {
    const id = await conversation(world.askerA, world.tenantA.id);
    model.script({ endless: true, chunkDelayMs: 5 });
    const started = Date.now();
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/agent/conversations/${id}/messages`,
      headers: tenantHeaders(world.askerA, world.tenantA.id, { accept: 'text/event-stream' }),
      payload: { text: 'units by region' },
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    const last = response.body.trim().split('\n\n').at(-1)!;
    expect(last).toContain('event: error');
    expect(last).toContain('"code":"agent_unavailable"');
  });

  it('stops the model call when the client goes away mid-stream, and keeps nothing', async () => {
    const id = await conversation(world.askerA, world.tenantA.id);
    model.script({ endless: true, chunkDelayMs: 80 });
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const controller = new AbortController();
      const gone = model.clientGone();
      const response = await fetch(`${address}/api/v1/agent/conversations/${id}/messages`, {
        method: 'POST',
        headers: {
          ...tenantHeaders(world.askerA, world.tenantA.id),
          accept: 'text/event-stream',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ text: 'units' }),
        signal: controller.signal,
      });
      const reader = response.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toContain('event: ');
      controller.abort();
      await gone;
      // Nothing more is asked: the text that came before the client left is not sent back for a repair.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(model.requests).toHaveLength(1);
      const read = await ctx.app.inject({
        url: `/api/v1/agent/conversations/${id}`,
        headers: tenantHeaders(world.askerA, world.tenantA.id),
      });
      expect(read.json<AgentConversation>().messages).toEqual([]);
    } finally {
      // The aborted fetch leaves its keep-alive socket to the client's pool: closed here, not waited for.
      ctx.app.server.closeAllConnections();
      await new Promise<void>((resolve) => ctx.app.server.close(() => resolve()));
    }
  });

  it('runs a table answer’s pages again, and its block is added to a report as a version drafted with the agent', async () => {
    const id = await conversation(world.askerA, world.tenantA.id);
    model.script({ content: plan({ chart: 'table', title: 'Sales table' }) });
    const answer = (await ask(world.askerA, world.tenantA.id, id, 'a table of units by region')).json<AgentMessage>();
    expect(answer.block?.kind).toBe('table');
    const page = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/agent/conversations/${id}/messages/${answer.id}/run`,
      headers: tenantHeaders(world.askerA, world.tenantA.id),
      payload: { skip: 1, limit: 1, sort: [{ column: 'units', direction: 'asc' }] },
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ rows: [['north', 8]], count: 2 });

    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/studio/reports',
      headers: tenantHeaders(world.askerA, world.tenantA.id),
      payload: { definition: 'title: Sales\nsource: extract\nblocks:\n  - id: note\n    text: Hello\n' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const report = created.json<ReportPublic>();
    const alone = parseReportDefinition(answer.block!.report);
    if (!alone.ok) throw new Error('the answer’s report does not parse');
    const merged = addBlockToReport(report.definition, {
      block: alone.definition.blocks[0]!,
      params: answer.block!.params,
    });
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/studio/reports/${report.id}`,
      headers: tenantHeaders(world.askerA, world.tenantA.id),
      payload: { definition: merged, version: 1, agent_message_id: answer.id },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const versions = await ctx.app.inject({
      url: `/api/v1/studio/reports/${report.id}/versions`,
      headers: tenantHeaders(world.askerA, world.tenantA.id),
    });
    expect(versions.json<ReportVersions>().data.map((version) => version.drafted_with_agent)).toEqual([true, false]);

    // Another person's answer cannot mark a save, even in the same tenant.
    const forged = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/studio/reports/${report.id}`,
      headers: tenantHeaders(world.colleagueA, world.tenantA.id),
      payload: { definition: merged, version: 2, agent_message_id: answer.id },
    });
    expect(forged.statusCode).toBe(422);
    expect(forged.body).toContain('agent_message_id');
  });

  it('lists conversations once they hold an answer, and deletes them, each person’s own', async () => {
    const id = await conversation(world.askerA, world.tenantA.id);
    const list = () =>
      ctx.app.inject({ url: '/api/v1/agent/conversations', headers: tenantHeaders(world.askerA, world.tenantA.id) });
    // Nothing answered yet (a refused or cancelled first question leaves it so): nothing to reopen.
    expect((await list()).json<AgentConversations>().data.map((item) => item.id)).not.toContain(id);
    model.script({ content: { kind: 'reply', text: 'Units are counted per sale.' } });
    expect((await ask(world.askerA, world.tenantA.id, id, 'What is a unit?')).statusCode).toBe(200);
    const listed = await list();
    expect(listed.json<AgentConversations>().data.map((item) => item.id)).toContain(id);
    const others = await ctx.app.inject({
      url: '/api/v1/agent/conversations',
      headers: tenantHeaders(world.askerB, world.tenantB.id),
    });
    expect(others.json<AgentConversations>().data.map((item) => item.id)).not.toContain(id);
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/agent/conversations/${id}`,
      headers: tenantHeaders(world.askerA, world.tenantA.id),
    });
    expect(removed.statusCode).toBe(204);
    const again = await ctx.app.inject({
      url: `/api/v1/agent/conversations/${id}`,
      headers: tenantHeaders(world.askerA, world.tenantA.id),
    });
    expect(again.statusCode).toBe(404);
  });
});
